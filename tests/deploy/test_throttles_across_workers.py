"""The anonymous throttles hold across gunicorn worker processes and behind nginx.

gunicorn runs with three workers, ``--preload`` and ``--max-requests 1``: every worker
exits after one request, so consecutive requests are always served by different processes
(a per-process count would never reach the limit). The same rules with one process and
no proxy are in tests/api/test_throttles.py. Clients are told apart by the address
nginx appends to X-Forwarded-For, never by what they wrote there themselves.
"""

import json
import random

import pytest

from tests.deploy.server import PRELOAD, gunicorn, production_env, redis_up, request

pytestmark = pytest.mark.slow
LIMIT = 3
SCORE = "/api/v1/rules/score"


def spoofed() -> str:
    return ".".join(str(random.randint(1, 254)) for _ in range(4))


def score(base: str, *, through_nginx_from: str | None = None) -> int:
    """POST rules/score with a forged X-Forwarded-For; nginx (TRUSTED_PROXY_COUNT=1) appends
    the address it saw, as ``proxy_add_x_forwarded_for`` does."""
    forwarded = spoofed() if through_nginx_from is None else f"{spoofed()}, {through_nginx_from}"
    status, _, _ = request(
        base + SCORE, data=json.dumps({}).encode(), headers={"X-Forwarded-For": forwarded}
    )
    return status


REDIS = pytest.param(
    "redis://127.0.0.1:6379/15",
    id="redis",
    marks=pytest.mark.skipif(not redis_up(), reason="no Redis on 127.0.0.1:6379"),
)


def env_for(tmp_path, cache_url: str, **extra: str) -> dict[str, str]:
    env = production_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        CACHE_URL=cache_url,
        THROTTLE_SCORE_RATE=f"{LIMIT}/hour",
        **extra,
    )
    return env


@pytest.mark.parametrize("cache_url", [pytest.param("", id="database-cache"), REDIS])
def test_the_limit_holds_across_workers_and_forged_addresses_do_not_reset_it(tmp_path, cache_url):
    if cache_url.startswith("redis://"):
        # Redis keeps its counts for the hour: an earlier run (CI runs the suite twice)
        # must not have used up this client's allowance. Database 15 is this test's own.
        import redis

        redis.Redis.from_url(cache_url).flushdb()
    client = f"198.51.100.{random.randint(1, 254)}"
    neighbour = f"203.0.113.{random.randint(1, 254)}"
    env = env_for(tmp_path, cache_url, TRUSTED_PROXY_COUNT="1")
    with gunicorn(env, "-c", PRELOAD, "--max-requests", "1") as base:
        statuses = [score(base, through_nginx_from=client) for _ in range(LIMIT + 2)]
        assert 429 not in statuses[:LIMIT]
        assert statuses[LIMIT:] == [429, 429]
        # Another client behind the same nginx has its own count.
        assert score(base, through_nginx_from=neighbour) != 429


def test_a_per_process_cache_would_not_hold(tmp_path):
    """The control: with each worker counting alone the limit is never reached, so the
    tests above do spread their requests over several processes."""
    with gunicorn(env_for(tmp_path, "locmem://"), "-c", PRELOAD, "--max-requests", "1") as base:
        statuses = [score(base) for _ in range(LIMIT + 2)]
    assert 429 not in statuses
