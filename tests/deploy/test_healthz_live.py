"""/healthz through gunicorn with a real broker: a live Celery worker runs the heartbeat
(``ok``); once the worker is stopped the same check answers 503 (``no answer``)."""

import json
import subprocess
import time

import pytest

from tests.deploy.server import BIN, PRELOAD, ROOT, gunicorn, production_env, redis_up, request

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not redis_up(), reason="no Redis on 127.0.0.1:6379"),
]
BROKER = "redis://127.0.0.1:6379/13"


def healthz(base: str) -> tuple[int, dict]:
    status, _, body = request(base + "/healthz")
    return status, json.loads(body)


def test_a_live_worker_answers_the_heartbeat_and_a_stopped_one_does_not(tmp_path):
    env = production_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        CELERY_BROKER_URL=BROKER,
        HEALTHZ_TIMEOUT="3",
    )
    worker = subprocess.Popen(
        [str(BIN / "celery"), "-A", "scorebook.celery", "worker", "--pool", "solo",
         "--purge", "--without-mingle", "--without-gossip", "--loglevel", "WARNING"],
        cwd=ROOT, env=env, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        with gunicorn(env, "-c", PRELOAD, workers=1) as base:
            deadline = time.monotonic() + 60
            while (answer := healthz(base))[0] != 200 and time.monotonic() < deadline:
                assert worker.poll() is None, worker.stderr.read().decode()
            assert answer == (
                200,
                {"status": "ok", "database": "ok", "cache": "ok", "broker": "ok", "worker": "ok"},
            )
            worker.terminate()
            worker.wait(timeout=30)
            status, body = healthz(base)
            assert status == 503
            assert body == {
                "status": "error",
                "database": "ok",
                "cache": "ok",
                "broker": "ok",
                "worker": "no answer",
            }
    finally:
        worker.kill()
        worker.wait()
        worker.stderr.close()
