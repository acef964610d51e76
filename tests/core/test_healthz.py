"""/healthz reports the database, the broker and a live worker each on its own; 503 when
any is down. A live worker answering the heartbeat: tests/deploy/test_healthz_live.py."""

import pytest

from scorebook.celery import app
from tests.deploy.server import free_port, redis_up


@pytest.fixture
def celery(settings, monkeypatch):
    """Celery as configured in production (a broker, no eager mode) at a given broker URL."""
    settings.HEALTHZ_TIMEOUT = 0.5
    monkeypatch.delenv("CELERY_BROKER_URL", raising=False)  # Celery reads it over its conf
    saved = {key: app.conf[key] for key in ("task_always_eager", "broker_url")}

    def configure(broker_url: str | None) -> None:
        app.conf.update(task_always_eager=broker_url is None)
        if broker_url:
            app.conf.update(broker_url=broker_url)

    yield configure
    app.conf.update(saved)


@pytest.mark.django_db
def test_without_a_broker_tasks_run_eagerly_and_it_says_so(client, celery):
    celery(None)
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "cache": "ok",
        "broker": "eager",
        "worker": "eager",
        "bulk_worker": "eager",
    }


@pytest.mark.django_db
def test_a_broker_at_a_closed_port_is_503(client, celery):
    celery(f"redis://127.0.0.1:{free_port()}/0")
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {
        "status": "error",
        "database": "ok",
        "cache": "ok",
        "broker": "unreachable",
        "worker": "unknown",
        "bulk_worker": "unknown",
    }


@pytest.mark.skipif(not redis_up(), reason="no Redis on 127.0.0.1:6379")
@pytest.mark.django_db
def test_a_broker_with_no_worker_is_503(client, celery):
    celery("redis://127.0.0.1:6379/14")
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["broker"] == "ok"
    assert response.json()["worker"] == "no answer"
    assert response.json()["bulk_worker"] == "no answer"


@pytest.mark.skipif(not redis_up(), reason="no Redis on 127.0.0.1:6379")
@pytest.mark.django_db
def test_a_cache_that_does_not_answer_is_503_not_500(client, celery, settings):
    """The shared cache (Redis in production, where the throttles count and the worker
    leaves its heartbeat) down while the broker answers: the worker check read the
    heartbeat from it and the Redis error was a 500 (issue 23: never a 500). Now the cache
    is a part of its own, and the worker is unknown while it is down."""
    celery("redis://127.0.0.1:6379/14")
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
        }
    }
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {
        "status": "error",
        "database": "ok",
        "cache": "unreachable",
        "broker": "ok",
        "worker": "unknown",
        "bulk_worker": "unknown",
    }


def test_healthz_refuses_post(client):
    assert client.post("/healthz").status_code == 405
