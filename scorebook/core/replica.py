"""Public reads from a PostgreSQL streaming replica (deploy/RUNBOOK.md, "A read replica").

With ``DATABASE_REPLICA_URL`` set, the anonymous side of the service (the public pages and
the TV under /public/, the calendar feeds under /cal/, the public API under
/api/v1/public/) reads from the replica, so a championship night's crowd does not compete
with the table phones' writes. Everything else, and every write, stays on the primary.

Three guards keep a reader from seeing the past:
- a browser that has just written (any POST, PUT, PATCH or DELETE answered below 400)
  reads the primary for ``REPLICA_STICKY_SECONDS`` (a cookie), so a director who closes a
  night sees it closed on the TV at once;
- the replica's lag is checked at most every ``REPLICA_CHECK_EVERY`` seconds per process;
  past ``REPLICA_MAX_LAG`` seconds behind, reads go to the primary until it catches up;
- a replica that does not answer is the primary's job too, until it answers again.
"""

from __future__ import annotations

import contextvars
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.db import DatabaseError, connections
from django.http import HttpRequest, HttpResponse

REPLICA = "replica"
#: Paths whose GETs read the replica: what the public and the feeds read.
PUBLIC_PREFIXES = ("/public/", "/cal/", "/api/v1/public/")
#: The cookie that keeps a browser that has just written on the primary.
STICKY_COOKIE = "sb_primary"
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")

_reading_replica: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "reading_replica", default=False
)


def configured() -> bool:
    return REPLICA in settings.DATABASES


@dataclass(frozen=True)
class ReplicaState:
    status: str  # "ok", "lagging", "unreachable", "none" (no replica configured)
    lag_seconds: float | None = None

    @property
    def usable(self) -> bool:
        return self.status == "ok"


class _Checker:
    """The replica's state, checked at most every REPLICA_CHECK_EVERY seconds per process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._at = -float("inf")
        self._state = ReplicaState("none")

    def state(self, *, fresh: bool = False) -> ReplicaState:
        if not configured():
            return ReplicaState("none")
        with self._lock:
            if fresh or time.monotonic() - self._at >= settings.REPLICA_CHECK_EVERY:
                self._state = _measure()
                self._at = time.monotonic()
            return self._state


def _measure() -> ReplicaState:
    """How far the replica is behind: none when it has replayed all the primary has
    written (an idle primary is not a lagging replica), else the time since its last
    replayed transaction."""
    try:
        with connections[REPLICA].cursor() as cursor:
            cursor.execute(
                "SELECT pg_is_in_recovery(), pg_last_wal_replay_lsn()::text,"
                " EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp())::float"
            )
            standby, replayed, since_replay = cursor.fetchone()
    except DatabaseError:
        connections[REPLICA].close()
        return ReplicaState("unreachable")
    if not standby or replayed is None:
        return ReplicaState("ok", 0.0)  # the primary itself (a one-box set-up, the tests)
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), %s::pg_lsn)", [replayed])
        (behind,) = cursor.fetchone()
    lag = 0.0 if behind <= 0 else float(since_replay or 0.0)
    return ReplicaState("ok" if lag <= settings.REPLICA_MAX_LAG else "lagging", round(lag, 3))


CHECKER = _Checker()


def state(*, fresh: bool = False) -> ReplicaState:
    return CHECKER.state(fresh=fresh)


class ReplicaRouter:
    """Reads go to the replica only while the middleware says this request may; writes,
    migrations and every other read go to the primary."""

    def db_for_read(self, model, **hints) -> str | None:
        return REPLICA if _reading_replica.get() else None

    def db_for_write(self, model, **hints) -> str | None:
        return None

    def allow_relation(self, obj1, obj2, **hints) -> bool:
        return True  # one database, two servers

    def allow_migrate(self, db: str, app_label: str, **hints) -> bool:
        return db != REPLICA


def reads_replica(request: HttpRequest) -> bool:
    """Whether this request's reads may go to the replica (see the module)."""
    return (
        configured()
        and request.method in SAFE_METHODS
        and request.path.startswith(PUBLIC_PREFIXES)
        and STICKY_COOKIE not in request.COOKIES
        and state().usable
    )


class ReplicaReadsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = _reading_replica.set(reads_replica(request))
        try:
            response = self.get_response(request)
        finally:
            _reading_replica.reset(token)
        if configured() and request.method not in SAFE_METHODS and response.status_code < 400:
            response.set_cookie(
                STICKY_COOKIE,
                "1",
                max_age=settings.REPLICA_STICKY_SECONDS,
                secure=request.is_secure(),
                httponly=True,
                samesite="Lax",
            )
        return response
