"""What a page may show: a club's objects exist only for its members (404 for anyone else,
as in the API), and forms that change things are offered to the roles the services allow."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from scorebook.clubs.models import Club, Membership
from scorebook.clubs.selectors import membership_of


def club_for(request: HttpRequest, slug: str) -> tuple[Club, Membership]:
    """The club and the user's membership; 404 when the user is not a member."""
    club = get_object_or_404(Club, slug=slug)
    membership = membership_of(request.user, club.pk)
    if membership is None:
        raise Http404
    return club, membership


def member_of(request: HttpRequest, club_id: int) -> Membership:
    membership = membership_of(request.user, club_id)
    if membership is None:
        raise Http404
    return membership


def can(membership: Membership | None, role: str) -> bool:
    """Whether to offer a control that a service will allow to ``role`` and above."""
    return membership is not None and membership.at_least(role)


def page_context(club: Club, membership: Membership | None, **extra: Any) -> dict[str, Any]:
    """What base.html needs for the header and the navigation."""
    return {
        "club": club,
        "membership": membership,
        "is_director": can(membership, "director"),
        "is_scorer": can(membership, "scorer"),
        "is_owner": can(membership, "owner"),
        **extra,
    }
