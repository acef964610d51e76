"""Counters that many processes share: one atomic increment each, in the shared cache."""

from __future__ import annotations

from django.core.cache import BaseCache


def count_in_window(cache: BaseCache, key: str, timeout: int) -> int:
    """Count one more under ``key`` and return the count so far.

    ``cache.add`` starts the counter with its expiry and ``cache.incr`` counts on: each a
    single atomic command in Redis, so requests that arrive together are all counted.
    ``incr`` raises ValueError for a key that has lapsed between the two (a window long
    gone): the count then starts again.
    """
    if cache.add(key, 1, timeout):
        return 1
    try:
        return cache.incr(key)
    except ValueError:
        cache.add(key, 1, timeout)
        return 1
