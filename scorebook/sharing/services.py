"""A member's calendar token: taken once, rotated on demand (the old address then
answers 404). Both write in one transaction with the membership row locked, so two taps
of "new address" leave exactly one live token."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone

from scorebook.clubs.models import Membership

from .models import CalendarFeed

#: 32 URL-safe characters (192 bits): the token is the address's only secret.
TOKEN_BYTES = 24


def _language(language: str | None) -> str:
    return "it" if (language or "").startswith("it") else "en"


def calendar_feed_for(*, membership: Membership, language: str | None) -> CalendarFeed:
    """The member's live calendar token, made the first time it is asked for."""
    with transaction.atomic():
        Membership.objects.select_for_update().get(pk=membership.pk)
        live = CalendarFeed.objects.filter(membership=membership, revoked_at__isnull=True).first()
        if live is not None:
            return live
        return CalendarFeed.objects.create(
            membership=membership,
            token=secrets.token_urlsafe(TOKEN_BYTES),
            language=_language(language),
        )


def calendar_feed_rotate(*, membership: Membership, language: str | None) -> CalendarFeed:
    """Revoke the member's live token (its address answers 404 from now on) and make a
    new one, in the member's current language."""
    with transaction.atomic():
        Membership.objects.select_for_update().get(pk=membership.pk)
        CalendarFeed.objects.filter(membership=membership, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
        return CalendarFeed.objects.create(
            membership=membership,
            token=secrets.token_urlsafe(TOKEN_BYTES),
            language=_language(language),
        )
