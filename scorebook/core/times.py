"""One way to write a moment for programs: ISO 8601 in UTC with ``Z``
(``2026-11-20T22:41:07.123456Z``), as DRF writes a time under UTC. The API answers every
time so (``api.middleware.UtcAnswers``); the pages show the club's local time."""

from __future__ import annotations

import datetime


def utc_iso(moment: datetime.datetime | None) -> str | None:
    """``moment`` in UTC, ISO 8601 with ``Z``; None stays None."""
    if moment is None:
        return None
    text = moment.astimezone(datetime.UTC).isoformat()
    return text.removesuffix("+00:00") + "Z"
