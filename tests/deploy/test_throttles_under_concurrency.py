"""The anonymous throttle holds under concurrency: 32 connections at once from one client,
against gunicorn with 4 workers of 2 threads (production's shape) and Redis, get the limit
through within 5%. DRF's own throttle read the client's history, then wrote it back: the
requests in between were lost updates (one client with 8 connections got 378 of 600
``rules/score`` requests through against 120/min). The count is now one atomic increment
in the shared cache. Prints the figure (``pytest -s``)."""

import json
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.deploy.server import PRELOAD, gunicorn, production_env, redis_up, request

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not redis_up(), reason="no Redis on 127.0.0.1:6379"),
]
LIMIT = 100
SENT = 400
CONNECTIONS = 32
SCORE = "/api/v1/rules/score"
CACHE = "redis://127.0.0.1:6379/6"  # this test's own database


def test_32_connections_get_the_limit_through_within_5_percent(tmp_path):
    import redis

    redis.Redis.from_url(CACHE).flushdb()  # no count left from an earlier run
    if time.time() % 3600 > 3600 - 90:  # the counting window is the clock's hour
        time.sleep(3600 - time.time() % 3600 + 1)
    env = production_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        CACHE_URL=CACHE,
        THROTTLE_SCORE_RATE=f"{LIMIT}/hour",
    )
    body = json.dumps({}).encode()

    def score(_: int) -> int:
        return request(base + SCORE, data=body)[0]

    log = tmp_path / "gunicorn.log"  # a pipe nobody reads would fill with 429 warnings
    with (
        log.open("wb") as output,
        gunicorn(env, "-c", PRELOAD, "--threads", "2", workers=4, output=output) as base,
    ):
        with ThreadPoolExecutor(CONNECTIONS) as clients:
            statuses = list(clients.map(score, range(SENT)))
    through = sum(1 for s in statuses if s != 429)
    print(f"\n{through} of {SENT} through against {LIMIT}/hour at {CONNECTIONS} connections")
    assert all(s < 500 for s in statuses), sorted(set(statuses))
    assert LIMIT * 0.95 <= through <= LIMIT * 1.05
