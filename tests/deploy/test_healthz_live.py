"""/healthz through gunicorn with a real broker: a live Celery worker runs the heartbeat
of each queue it consumes (``ok``); a queue no worker consumes, and every queue once the
worker is stopped, answers 503 (``no answer``)."""

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


def start_worker(env: dict[str, str], *queues: str) -> subprocess.Popen[bytes]:
    """A worker as the units run it: one queue (-Q), or both when none is named."""
    chosen = ["-Q", ",".join(queues)] if queues else []
    return subprocess.Popen(
        [str(BIN / "celery"), "-A", "scorebook.celery", "worker", "--pool", "solo",
         "--purge", "--without-mingle", "--without-gossip", "--loglevel", "WARNING", *chosen],
        cwd=ROOT, env=env, stderr=subprocess.PIPE,
    )  # fmt: skip


def answer_while(base: str, worker: subprocess.Popen[bytes], wanted: int) -> tuple[int, dict]:
    deadline = time.monotonic() + 60
    while (answer := healthz(base))[0] != wanted and time.monotonic() < deadline:
        assert worker.poll() is None, worker.stderr and worker.stderr.read().decode()
    return answer


@pytest.mark.parametrize("queues", [(), ("entry",), ("bulk",)])
def test_a_live_worker_answers_the_heartbeat_and_a_stopped_one_does_not(tmp_path, queues):
    env = production_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        CELERY_BROKER_URL=BROKER,
        HEALTHZ_TIMEOUT="3",
    )
    worker = start_worker(env, *queues)
    consumed = {"worker": "entry", "bulk_worker": "bulk"}
    expected = {
        name: "ok" if not queues or queue in queues else "no answer"
        for name, queue in consumed.items()
    }
    try:
        with gunicorn(env, "-c", PRELOAD, workers=1) as base:
            status, body = answer_while(base, worker, 503 if queues else 200)
            if queues:  # the other queue's heartbeat waits: give this one its time
                deadline = time.monotonic() + 60
                while body != {**body, **expected} and time.monotonic() < deadline:
                    status, body = healthz(base)
            assert (status, body) == (
                200 if not queues else 503,
                {
                    "status": "ok" if not queues else "error",
                    "database": "ok",
                    "cache": "ok",
                    "broker": "ok",
                    **expected,
                },
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
                "bulk_worker": "no answer",
            }
    finally:
        worker.kill()
        worker.wait()
        if worker.stderr:
            worker.stderr.close()
