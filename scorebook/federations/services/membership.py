"""Member clubs: a secretary (or the president) invites a club by its address; the club's
owner accepts (the club joins) or declines; the owner may leave later. A club that leaves
keeps its history: its period stays, ended."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from scorebook.clubs.models import Club, Role
from scorebook.clubs.services import require_role
from scorebook.core.audit import audit
from scorebook.core.people import User
from scorebook.core.refusals import unique_or

from .. import rating_outbox as ratings
from ..models import Affiliation, ClubInvitation, Federation, OfficerRole
from ..refusals import (
    AlreadyMemberClub,
    InvitationClosed,
    InvitationDays,
    InvitationExpired,
    InvitationOpen,
    NotAMemberClub,
    UnknownClub,
)
from .guards import locked, require_officer
from .numbers import numbers_for_club

#: How long an invitation lasts unless the secretary says otherwise, and the most.
INVITATION_DAYS = 30
INVITATION_MAX_DAYS = 180


def _words(federation: Federation, club: Club) -> dict[str, str]:
    return {"federation": federation.name, "club": club.name}


@transaction.atomic
def club_invite(
    *, federation: Federation, slug: str, user: User, days: int = INVITATION_DAYS
) -> ClubInvitation:
    """A secretary invites the club at ``slug``; its owner answers on the club's page."""
    require_officer(user, federation.pk, OfficerRole.SECRETARY)
    if not 1 <= days <= INVITATION_MAX_DAYS:
        raise InvitationDays(path="days", days=INVITATION_MAX_DAYS)
    federation = locked(federation)
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise UnknownClub(path="club", slug=slug[:60])
    if Affiliation.objects.filter(federation=federation, club=club, left_at__isnull=True).exists():
        raise AlreadyMemberClub(path="club", **_words(federation, club))
    now = timezone.now()
    waiting = ClubInvitation.objects.filter(
        federation=federation, club=club, status=ClubInvitation.Status.OPEN
    )
    # an expired invitation is closed now, so a new one can be sent
    waiting.filter(expires_at__lte=now).update(status=ClubInvitation.Status.EXPIRED)
    refusal = InvitationOpen(path="club", **_words(federation, club))
    if waiting.exists():
        raise refusal
    invitation = unique_or(
        refusal,
        lambda: ClubInvitation.objects.create(
            federation=federation, club=club, invited_by=user, expires_at=now + timedelta(days=days)
        ),
    )
    audit(
        club_id=club.pk,
        actor=user,
        verb="federation_invited",
        obj=invitation,
        after={"federation": federation.pk},
    )
    return invitation


def _open(invitation: ClubInvitation) -> ClubInvitation:
    """The invitation locked, still open and not expired."""
    invitation = ClubInvitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.status != ClubInvitation.Status.OPEN:
        raise InvitationClosed()
    if invitation.expires_at <= timezone.now():
        raise InvitationExpired()
    return invitation


def _answer(invitation: ClubInvitation, status: str, user: User) -> None:
    invitation.status, invitation.answered_by = status, user
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_by", "answered_at"])


@transaction.atomic
def club_invitation_accept(*, invitation: ClubInvitation, user: User) -> Affiliation:
    """The club's owner accepts: the club joins the federation, and every person linked
    to one of its players gets a federation number."""
    require_role(user, invitation.club_id, Role.OWNER)
    federation = locked(invitation.federation_id)
    invitation = _open(invitation)
    club = invitation.club
    refusal = AlreadyMemberClub(**_words(federation, club))
    if Affiliation.objects.filter(federation=federation, club=club, left_at__isnull=True).exists():
        raise refusal
    _answer(invitation, ClubInvitation.Status.ACCEPTED, user)
    affiliation = unique_or(
        refusal,
        lambda: Affiliation.objects.create(
            federation=federation, club=club, invitation=invitation, joined_by=user
        ),
    )
    numbers_for_club(federation, club.pk)
    ratings.request_refresh([federation.pk])
    audit(
        club_id=club.pk,
        actor=user,
        verb="federation_joined",
        obj=affiliation,
        after={"federation": federation.pk},
    )
    return affiliation


@transaction.atomic
def club_invitation_decline(*, invitation: ClubInvitation, user: User) -> ClubInvitation:
    """The club's owner declines: the club does not join."""
    require_role(user, invitation.club_id, Role.OWNER)
    invitation = _open(invitation)
    _answer(invitation, ClubInvitation.Status.DECLINED, user)
    audit(
        club_id=invitation.club_id,
        actor=user,
        verb="federation_declined",
        obj=invitation,
        after={"federation": invitation.federation_id},
    )
    return invitation


@transaction.atomic
def club_invitation_withdraw(*, invitation: ClubInvitation, user: User) -> ClubInvitation:
    """A secretary withdraws an invitation not answered yet."""
    require_officer(user, invitation.federation_id, OfficerRole.SECRETARY)
    invitation = ClubInvitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.status != ClubInvitation.Status.OPEN:
        raise InvitationClosed()
    _answer(invitation, ClubInvitation.Status.WITHDRAWN, user)
    audit(
        club_id=invitation.club_id,
        actor=user,
        verb="federation_invitation_withdrawn",
        obj=invitation,
        after={"federation": invitation.federation_id},
    )
    return invitation


@transaction.atomic
def club_leave(*, affiliation: Affiliation, user: User) -> Affiliation:
    """The club's owner takes the club out of the federation. Its period ends; what it
    played stays in the federation's record; its persons keep their numbers."""
    require_role(user, affiliation.club_id, Role.OWNER)
    federation = locked(affiliation.federation_id)
    affiliation = Affiliation.objects.select_related("club").get(pk=affiliation.pk)
    if affiliation.left_at is not None:
        raise NotAMemberClub(**_words(federation, affiliation.club))
    affiliation.left_at, affiliation.left_by = timezone.now(), user
    affiliation.save(update_fields=["left_at", "left_by"])
    ratings.request_refresh([federation.pk])
    audit(
        club_id=affiliation.club_id,
        actor=user,
        verb="federation_left",
        obj=affiliation,
        after={"federation": federation.pk},
    )
    return affiliation
