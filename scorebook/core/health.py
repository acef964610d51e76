"""What ``/healthz`` checks, each on its own: the database, the shared cache, the broker,
a live worker on each of the two queues (``worker``: entry, ``bulk_worker``: bulk).

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
from scorebook.core import replica
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


def workers() -> dict[str, str]:
    """Send a heartbeat to each queue (settings.CELERY_TASK_QUEUES) and wait for a worker
    to run each; one expires unrun if no worker consumes its queue. ``worker`` is the
    entry queue's (deal entry's refreshes), ``bulk_worker`` the bulk queue's."""
    queues = {"worker": settings.CELERY_QUEUE_ENTRY, "bulk_worker": settings.CELERY_QUEUE_BULK}
    if app.conf.task_always_eager:
        return dict.fromkeys(queues, EAGER)
    tokens: dict[str, str] = {}
    for name, queue in queues.items():
        tokens[name] = uuid.uuid4().hex
        try:
            heartbeat.apply_async(
                args=[tokens[name]], queue=queue, expires=settings.HEALTHZ_TIMEOUT, retry=False
            )
        except (OperationalError, OSError):
            return dict.fromkeys(queues, UNREACHABLE)
    answers = dict.fromkeys(queues, NO_ANSWER)
    deadline = time.monotonic() + settings.HEALTHZ_TIMEOUT
    while time.monotonic() < deadline and NO_ANSWER in answers.values():
        for name, token in tokens.items():
            try:
                if answers[name] == NO_ANSWER and cache.get(heartbeat_key(token)):
                    answers[name] = OK
            except CACHE_DOWN:  # gone since it was checked
                return {
                    key: UNKNOWN if value == NO_ANSWER else value for key, value in answers.items()
                }
        time.sleep(0.05)
    return answers


def report() -> dict[str, str | float | None]:
    checks = {"database": database(), "cache": shared_cache(), "broker": broker()}
    # The worker's heartbeat is read from the cache: unknown while either is down.
    heard = checks["broker"] == EAGER or (checks["broker"] == OK and checks["cache"] == OK)
    checks.update(workers() if heard else {"worker": UNKNOWN, "bulk_worker": UNKNOWN})
    healthy = all(value in HEALTHY for value in checks.values())
    answer: dict[str, str | float | None] = {"status": "ok" if healthy else "error", **checks}
    if replica.configured():
        # Reported, never a failure: while the replica is down or lagging the public
        # reads go to the primary (scorebook.core.replica).
        found = replica.state(fresh=True)
        answer.update(replica=found.status, replica_lag_seconds=found.lag_seconds)
    return answer
