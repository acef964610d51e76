"""Reads about clubs, always scoped to what the user may see."""

from typing import Any

from django.db.models import QuerySet

from .models import Club, Membership


def membership_of(user: Any, club_id: int) -> Membership | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Membership.objects.filter(user=user, club_id=club_id).first()


def clubs_of(user: Any) -> QuerySet[Club]:
    if not getattr(user, "is_authenticated", False):
        return Club.objects.none()
    return Club.objects.filter(memberships__user=user)
