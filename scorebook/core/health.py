"""What ``/healthz`` checks, each on its own: the database, the broker, a live worker.

The worker check sends a real ``heartbeat`` task through the broker and waits (at most
``HEALTHZ_TIMEOUT`` seconds) for a worker to record it in the shared cache: a worker that
answers pings but consumes nothing still fails. Without a broker Celery runs tasks eagerly
in the web process, and both report ``eager``.
"""

from __future__ import annotations

import time
import uuid

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connection
from kombu.exceptions import OperationalError

from scorebook.celery import app
from scorebook.core.tasks import heartbeat, heartbeat_key

OK, EAGER, UNREACHABLE, NO_ANSWER, UNKNOWN = "ok", "eager", "unreachable", "no answer", "unknown"
HEALTHY = {OK, EAGER}


def database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
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
        if cache.get(heartbeat_key(token)):
            return OK
        time.sleep(0.05)
    return NO_ANSWER


def report() -> dict[str, str]:
    checks = {"database": database(), "broker": broker()}
    checks["worker"] = worker() if checks["broker"] in HEALTHY else UNKNOWN
    healthy = all(value in HEALTHY for value in checks.values())
    return {"status": "ok" if healthy else "error", **checks}
