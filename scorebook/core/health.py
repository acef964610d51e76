"""What ``/healthz`` checks, each on its own: the database, the shared cache, the broker,
a live worker.

The worker check sends a real ``heartbeat`` task through the broker and waits (at most
``HEALTHZ_TIMEOUT`` seconds) for a worker to record it in the shared cache: a worker that
answers pings but consumes nothing still fails. Without a broker Celery runs tasks eagerly
in the web process, and both report ``eager``. The shared cache (Redis in production: the
anonymous throttles count there and the worker leaves its heartbeat there) is asked for a
key; while it does not answer the worker is ``unknown`` (its heartbeat could not be read).
"""

from __future__ import annotations

import time
import uuid

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connection
from kombu.exceptions import OperationalError
from redis.exceptions import RedisError

from scorebook.celery import app
from scorebook.core.tasks import heartbeat, heartbeat_key

OK, EAGER, UNREACHABLE, NO_ANSWER, UNKNOWN = "ok", "eager", "unreachable", "no answer", "unknown"
HEALTHY = {OK, EAGER}
#: What a cache that does not answer raises: Redis (production), the database cache.
CACHE_DOWN = (RedisError, DatabaseError, OSError)


def database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        return UNREACHABLE
    return OK


def shared_cache() -> str:
    try:
        cache.get("healthz:probe")
    except CACHE_DOWN:
        return UNREACHABLE
    return OK


def broker() -> str:
    if app.conf.task_always_eager:
        return EAGER
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(
                max_retries=1, interval_start=0, timeout=settings.HEALTHZ_TIMEOUT
            )
    except (OperationalError, OSError):
        return UNREACHABLE
    return OK


def worker() -> str:
    """Send a heartbeat and wait for a worker to run it; it expires unrun if none does."""
    if app.conf.task_always_eager:
        return EAGER
    token = uuid.uuid4().hex
    try:
        heartbeat.apply_async(args=[token], expires=settings.HEALTHZ_TIMEOUT, retry=False)
    except (OperationalError, OSError):
        return UNREACHABLE
    deadline = time.monotonic() + settings.HEALTHZ_TIMEOUT
    while time.monotonic() < deadline:
        try:
            if cache.get(heartbeat_key(token)):
                return OK
        except CACHE_DOWN:  # gone since it was checked
            return UNKNOWN
        time.sleep(0.05)
    return NO_ANSWER


def report() -> dict[str, str]:
    checks = {"database": database(), "cache": shared_cache(), "broker": broker()}
    # The worker's heartbeat is read from the cache: unknown while either is down.
    heard = checks["broker"] == EAGER or (checks["broker"] == OK and checks["cache"] == OK)
    checks["worker"] = worker() if heard else UNKNOWN
    healthy = all(value in HEALTHY for value in checks.values())
    return {"status": "ok" if healthy else "error", **checks}
