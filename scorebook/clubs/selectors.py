"""Reads about clubs, always scoped to what the user may see."""

from __future__ import annotations

from typing import Any

from django.db.models import F, QuerySet
from django.utils import timezone

from scorebook.core.people import Anyone

from .models import Club, Invitation, Membership, Player, Role


def _id(user: Anyone) -> int:
    """A signed-in user's id (the callers check ``is_authenticated`` first)."""
    return int(user.pk or 0)


def membership_of(user: Anyone, club_id: int) -> Membership | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Membership.objects.filter(user_id=_id(user), club_id=club_id).first()


def clubs_of(user: Anyone) -> QuerySet[Club]:
    if not getattr(user, "is_authenticated", False):
        return Club.objects.none()
    return Club.objects.filter(memberships__user_id=_id(user))


def memberships_of(user: Anyone) -> list[tuple[Membership, Player | None]]:
    """A signed-in user's memberships, oldest first, each with their club and their player
    there (None when no player of that club is linked to the account). Two queries."""
    memberships = list(
        Membership.objects.filter(user_id=_id(user)).select_related("club").order_by("id")
    )
    players = {p.club_id: p for p in Player.objects.filter(user_id=_id(user)).order_by("-id")}
    return [(m, players.get(m.club_id)) for m in memberships]


def invitation_by_token(token: str) -> Invitation | None:
    """The invitation a join link names (None when there is none), with its club."""
    return Invitation.objects.select_related("club", "player").filter(token=token).first()


def clubs_directed_by(user: Anyone) -> QuerySet[Club]:
    """The clubs where the user is a director or the owner."""
    if not getattr(user, "is_authenticated", False):
        return Club.objects.none()
    return Club.objects.filter(
        memberships__user_id=_id(user), memberships__role__in=[Role.DIRECTOR, Role.OWNER]
    )


def open_invitations(clubs: Any) -> QuerySet[Invitation]:
    """The invitations of ``clubs`` (a queryset or ids) that can still be used, newest first."""
    return (
        Invitation.objects.filter(
            club__in=clubs,
            revoked_at__isnull=True,
            expires_at__gt=timezone.now(),
            uses__lt=F("max_uses"),
        )
        .select_related("player")
        .order_by("-created_at", "-id")
    )
