"""Reading calendar tokens: the live feed a token in a URL stands for, if any."""

from __future__ import annotations

import re

from .models import CalendarFeed

#: What a token can look like (``secrets.token_urlsafe``): anything else is not looked up.
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")


def live_feed(token: str) -> CalendarFeed | None:
    """The live (not revoked) feed of ``token``, with its membership and club; None for a
    revoked, unknown or malformed token."""
    if not TOKEN.fullmatch(token or ""):
        return None
    return (
        CalendarFeed.objects.select_related("membership__club", "membership__user")
        .filter(token=token, revoked_at__isnull=True)
        .first()
    )


def live_feed_of(membership_id: int) -> CalendarFeed | None:
    return CalendarFeed.objects.filter(membership_id=membership_id, revoked_at__isnull=True).first()
