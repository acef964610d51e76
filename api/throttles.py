"""The anonymous throttles: one atomic counter per client and window in the shared cache.

DRF's own ``SimpleRateThrottle`` reads a client's request history from the cache, appends
to it and writes it back: requests that arrive together read the same history and all
but one of their writes are lost (one client with 8 connections got 378 of 600 requests
through against 120/min). Here each request is one increment of a counter that lives for
its window (``cache.add`` starts it with its expiry, ``cache.incr`` counts on: both a
single atomic command in Redis, production's cache), so concurrent requests are counted
exactly (with the database cache, a single box's, ``incr`` is a read and a write:
close to the limit, not exact). Fixed windows, aligned on the clock: a client may spend
one window's allowance at its end and the next one's at the start of the next window,
never more.

When the cache does not answer (Redis down) the request goes through uncounted and a
warning says so: the throttles protect the service, they must not take it down (the
database outage answers 503; a cache outage used to answer 500 here).
"""

from __future__ import annotations

import logging
import time

from django.db import DatabaseError
from redis.exceptions import RedisError
from rest_framework.throttling import AnonRateThrottle

from scorebook.core.counters import count_in_window

log = logging.getLogger(__name__)

#: What a cache that does not answer raises: Redis (production), the database cache.
CACHE_DOWN = (RedisError, DatabaseError, OSError)


class CountingThrottle(AnonRateThrottle):
    """An anonymous client's requests counted per fixed window (the rate's period),
    by its address (``get_ident``, the same rule as the login lockout's)."""

    def __init__(self) -> None:
        super().__init__()
        limit, period = self.parse_rate(self.rate)
        self.limit: int | None = limit
        self.period: int = period or 1
        self.wait_seconds = 0.0

    def allow_request(self, request, view) -> bool:
        if self.limit is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:  # signed in: not this throttle's business
            return True
        now = time.time()
        window = int(now // self.period)
        self.wait_seconds = (window + 1) * self.period - now
        try:
            count = self._count(f"{key}:{window}")
        except CACHE_DOWN as error:
            log.warning("throttle %s not counted, the cache does not answer: %s", self.scope, error)
            return True
        return count <= self.limit

    def _count(self, key: str) -> int:
        # Kept past the window's end so that a counter never lapses while it is counted.
        return count_in_window(self.cache, key, 2 * self.period)

    def wait(self) -> float:
        return max(self.wait_seconds, 1.0)
