"""Anonymous throttles and the login lockout key on the client address, one rule for both.

With ``TRUSTED_PROXY_COUNT`` 0 (no proxy) only the socket address counts; with 1 (nginx)
the address nginx appended to X-Forwarded-For. Across worker processes: tests/deploy/.
"""

import pytest
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from scorebook.core.clientip import client_address

SCORE = "/api/v1/rules/score"


@pytest.fixture
def rates(settings, monkeypatch):
    # DRF copies the rates onto the throttle class when it is imported.
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {"score": "3/hour"})

    def configure(proxies: int) -> None:
        settings.TRUSTED_PROXY_COUNT = proxies
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": proxies}

    return configure


def score(address: str, forwarded: str | None = None) -> int:
    extra = {"REMOTE_ADDR": address}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return APIClient().post(SCORE, {}, format="json", **extra).status_code


def test_settings_wire_one_proxy_count_into_drf():
    from django.conf import settings

    assert settings.REST_FRAMEWORK["NUM_PROXIES"] == settings.TRUSTED_PROXY_COUNT
    assert settings.AXES_CLIENT_IP_CALLABLE == "scorebook.core.clientip.client_address"


@pytest.mark.django_db
def test_without_a_proxy_a_forged_forwarded_header_changes_nothing(rates):
    rates(0)
    statuses = [score("192.0.2.1", forwarded=f"10.0.0.{i}") for i in range(4)]
    assert statuses[3] == 429
    assert 429 not in statuses[:3]
    assert score("192.0.2.2") != 429  # another address has its own count


@pytest.mark.django_db
def test_behind_one_proxy_the_address_it_appended_counts(rates):
    rates(1)
    nginx = "127.0.0.1"
    statuses = [score(nginx, forwarded=f"10.0.0.{i}, 198.51.100.7") for i in range(4)]
    assert statuses[3] == 429
    assert score(nginx, forwarded="10.0.0.1, 198.51.100.8") != 429


@pytest.mark.django_db
def test_the_throttled_answer_is_the_json_error_shape(rates):
    rates(0)
    for _ in range(3):
        score("192.0.2.3")
    response = APIClient().post(SCORE, {}, format="json", REMOTE_ADDR="192.0.2.3")
    assert response.status_code == 429
    assert response.json()["errors"][0]["code"] == "http.throttled"
    assert int(response["Retry-After"]) > 0


@pytest.mark.parametrize(
    "proxies,forwarded,expected",
    [
        (0, None, "127.0.0.1"),
        (0, "203.0.113.5", "127.0.0.1"),
        (1, None, "127.0.0.1"),
        (1, "10.9.9.9, 203.0.113.5", "203.0.113.5"),
        (2, "10.9.9.9, 203.0.113.5, 10.0.0.2", "203.0.113.5"),
    ],
)
def test_the_client_address_axes_and_drf_share(rf, rates, proxies, forwarded, expected):
    rates(proxies)
    extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {}
    assert client_address(rf.get("/", REMOTE_ADDR="127.0.0.1", **extra)) == expected


@pytest.mark.django_db
def test_behind_nginx_a_lockout_is_per_real_client_not_per_proxy(club, rates):
    """Without the proxy count every client is 127.0.0.1 and five bad passwords from
    anyone lock the real user out."""
    rates(1)

    def login(password: str, real: str) -> int:
        return (
            APIClient()
            .post(
                "/api/v1/auth/token",
                {"username": "scorer", "password": password},
                REMOTE_ADDR="127.0.0.1",
                HTTP_X_FORWARDED_FOR=real,
            )
            .status_code
        )

    for _ in range(5):
        login("wrong", "198.51.100.66")
    assert login("wrong", "198.51.100.66") == 429
    assert login("pw-scorer", "203.0.113.20") == 200


def dead_port() -> int:
    import socket

    with socket.socket() as probe:  # bound, never listening: connections are refused
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def cache_down(settings):
    """The shared cache (Redis) stopped: nothing answers on its port."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{dead_port()}/0",
        }
    }


@pytest.mark.django_db
@pytest.mark.parametrize(
    "method,path",
    [
        ("post", SCORE),
        ("get", "/api/v1/public/clubs"),
        ("get", "/api/v1/public/clubs/san-rocco/nights"),
        ("get", "/api/v1/public/clubs/san-rocco/leaderboard"),
        ("get", "/api/v1/public/clubs/san-rocco/ratings"),
    ],
)
def test_with_the_cache_down_the_anonymous_throttles_let_requests_through(
    club, cache_down, caplog, method, path
):
    """The database outage answers 503; a cache outage used to answer 500 here. The
    throttles fail open (the service goes on, unthrottled for a while) and say so."""
    club.public = True
    club.save()
    client = APIClient(raise_request_exception=False)
    response = getattr(client, method)(path, {}, format="json", REMOTE_ADDR="192.0.2.9")
    assert response.status_code < 500, response.content[:300]
    assert any("not counted" in r.getMessage() for r in caplog.records)
