"""Failed logins are throttled per username *and* address (a club shares one Wi-Fi address)."""

import pytest
from rest_framework.test import APIClient

TOKEN_URL = "/api/v1/auth/token"
LIMIT = 5
CLUB_WIFI = "203.0.113.7"


def attempt(username, password, address=CLUB_WIFI):
    return APIClient().post(
        TOKEN_URL, {"username": username, "password": password}, REMOTE_ADDR=address
    )


def fail_until_locked(username, address=CLUB_WIFI):
    for _ in range(LIMIT - 1):
        assert attempt(username, "wrong", address).status_code == 400
    return attempt(username, "wrong", address)


def test_the_limit_locks_that_name_from_that_address(club, settings):
    assert settings.AXES_FAILURE_LIMIT == LIMIT
    locked = fail_until_locked("scorer")
    assert locked.status_code == 429
    assert locked.json()["errors"][0]["code"] == "auth.locked_out"
    assert int(locked["Retry-After"]) == 15 * 60
    # Even the right password is refused while locked out: that is the point.
    assert attempt("scorer", "pw-scorer").status_code == 429


def test_the_rest_of_the_club_on_the_same_wifi_still_logs_in(club):
    fail_until_locked("scorer")
    assert attempt("director", "pw-director").status_code == 200
    assert attempt("member", "pw-member").status_code == 200


def test_the_same_name_from_another_address_still_logs_in(club):
    fail_until_locked("scorer")
    assert attempt("scorer", "pw-scorer", address="198.51.100.20").status_code == 200


def test_a_success_before_the_limit_resets_the_count(club):
    for _ in range(LIMIT - 1):
        attempt("scorer", "wrong")
    assert attempt("scorer", "pw-scorer").status_code == 200
    for _ in range(LIMIT - 1):
        assert attempt("scorer", "wrong").status_code == 400
    assert attempt("scorer", "pw-scorer").status_code == 200


def test_the_admin_login_page_is_throttled_too(club, client):
    form = {"username": "owner", "password": "wrong", "next": "/admin/"}
    for _ in range(LIMIT - 1):
        assert client.post("/admin/login/", form, REMOTE_ADDR=CLUB_WIFI).status_code == 200
    locked = client.post("/admin/login/", form, REMOTE_ADDR=CLUB_WIFI)
    assert locked.status_code == 429
    assert "Too many failed logins" in locked.content.decode()


@pytest.mark.parametrize("language,phrase", [("it", "Troppi accessi falliti"), ("en", "Too many")])
def test_the_lockout_message_follows_the_request_language(club, language, phrase):
    for _ in range(LIMIT - 1):
        attempt("scorer", "wrong")
    locked = APIClient().post(
        TOKEN_URL,
        {"username": "scorer", "password": "wrong"},
        REMOTE_ADDR=CLUB_WIFI,
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert phrase in locked.json()["errors"][0]["message"]
