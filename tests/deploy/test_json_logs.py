"""Production logs are JSON lines with the request id, from gunicorn (its access log and
its own messages) and from Django alike; the answer carries the same id (X-Request-ID)."""

import json

import pytest

from tests.deploy.server import gunicorn, manage, production_env, request

pytestmark = pytest.mark.slow
REQUEST_ID = "phone-at-table-7-0001"


def test_every_line_is_json_with_the_request_id_of_its_request(tmp_path):
    env = production_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        LOG_LEVEL="INFO",
        PYTHONWARNINGS="ignore",
    )
    manage("createcachetable", env=env)  # the throttle of rules/score counts there
    log = tmp_path / "server.log"
    with log.open("wb") as output:
        with gunicorn(env, "-c", "deploy/gunicorn.conf.py", workers=1, output=output) as base:
            status, headers, _ = request(
                base + "/api/v1/rules/score", data=b"{}", headers={"X-Request-ID": REQUEST_ID}
            )
            assert status == 400
            assert headers["X-Request-ID"] == REQUEST_ID
            status, headers, _ = request(base + "/healthz")
            fresh = headers["X-Request-ID"]
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    assert all({"time", "level", "logger", "request_id", "message"} <= set(x) for x in lines)
    mine = [x for x in lines if x["request_id"] == REQUEST_ID]
    access = [x for x in mine if x["logger"] == "gunicorn.access"]
    assert len(access) == 1 and access[0]["status_code"] == 400
    assert access[0]["path"] == "/api/v1/rules/score"
    assert any(x["logger"] == "django.request" and x["level"] == "WARNING" for x in mine)
    # A request without an id gets a new one, in its answer and its access line alike.
    assert fresh != REQUEST_ID
    assert [x["status_code"] for x in lines if x["request_id"] == fresh] == [200]
    assert any(x["logger"] == "gunicorn.error" for x in lines)  # "Booting worker ..."
