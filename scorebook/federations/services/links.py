"""A person across clubs: links between an account and a player of a club, each with both
consents. A director of the club proposes (naming the player and the account) and the
person accepts on their account page; or the person asks (naming the club) and a director
accepts, naming the player. The side that did not begin it answers; either side removes
it. A director proposing their own account is both sides at once.

A link carries the consent and nothing else: it gives the person no role in the club and
the club nothing of the person's other clubs. Only a link both sides accepted makes the
person behind a player (``selectors.person_of``); the club's own link of a member's account
to a player (``Player.user``) must agree with it: a player that is another member's, or an
account that is another player of the club, is refused.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from scorebook.clubs.models import Club, Player, Role
from scorebook.clubs.selectors import membership_of
from scorebook.clubs.services import refuse_erased, require_role
from scorebook.core.audit import audit
from scorebook.core.people import User
from scorebook.core.refusals import unique_or

from .. import rating_outbox as ratings
from ..models import PersonLink
from ..ranked import federations_reading_club, ranking_changed
from ..refusals import (
    AccountAlreadyLinked,
    AccountIsAnotherPlayer,
    LinkNotLive,
    LinkNotWaiting,
    LinkUnknownAccount,
    LinkUnknownClub,
    NotYourLink,
    PlayerAlreadyLinked,
    PlayerIsAnotherAccount,
    PlayerNeeded,
    PlayerOfAnotherClub,
)
from .numbers import numbers_for_link

LIVE = list(PersonLink.LIVE)


def _audit(link: PersonLink, user: User, verb: str) -> None:
    """In the club's audit log: ids only (the account, the player)."""
    audit(
        club_id=link.club_id,
        actor=user,
        verb=verb,
        obj=link,
        object_type="person_link",
        after={"player": link.player_id, "user": link.user_id, "status": link.status},
    )


def _fits(club: Club, player: Player, account_id: int, *, but: int | None = None) -> None:
    """Refuse a link of ``account_id`` to ``player`` that would contradict the club's
    record or another link (``but``: the link being accepted, which is not another)."""
    refuse_erased([player.pk], path="player")
    if player.user_id is not None and player.user_id != account_id:
        raise PlayerIsAnotherAccount(path="player", name=player.name)
    own = Player.objects.filter(club=club, user_id=account_id).exclude(pk=player.pk).first()
    if own is not None:
        raise AccountIsAnotherPlayer(path="player", name=own.name)
    live = PersonLink.objects.filter(status__in=LIVE)
    if but is not None:
        live = live.exclude(pk=but)
    if live.filter(player=player).exists():
        raise PlayerAlreadyLinked(path="player", name=player.name)
    if live.filter(club=club, user_id=account_id).exists():
        raise AccountAlreadyLinked(path="username", club=club.name)


def _now_accepted(link: PersonLink, user: User) -> PersonLink:
    link.status, link.answered_by, link.answered_at = (
        PersonLink.Status.ACCEPTED,
        user,
        timezone.now(),
    )
    link.save(update_fields=["status", "answered_by", "answered_at", "player"])
    numbers_for_link(link)
    _audit(link, user, "person_link_accepted")
    ratings.request_refresh(ratings.federations_of_link(link.club_id, link.player_id))
    ranking_changed(federations_reading_club(link.club_id))  # a door pair's player's person
    return link


@transaction.atomic
def person_link_propose(*, player: Player, username: str, user: User) -> PersonLink:
    """A director proposes that the account ``username`` is ``player``; the person
    accepts on their account page (at once, when the director names their own account)."""
    require_role(user, player.club_id, Role.DIRECTOR)
    player = Player.objects.select_for_update().select_related("club").get(pk=player.pk)
    account = get_user_model().objects.filter(username=username, is_active=True).first()
    if account is None:
        raise LinkUnknownAccount(path="username", username=username[:150])
    _fits(player.club, player, account.pk)
    link = unique_or(
        PlayerAlreadyLinked(path="player", name=player.name),
        lambda: PersonLink.objects.create(
            club=player.club,
            player=player,
            user=account,
            origin=PersonLink.Origin.CLUB,
            proposed_by=user,
        ),
    )
    _audit(link, user, "person_link_proposed")
    if account.pk == user.pk:
        return _now_accepted(link, user)
    return link


@transaction.atomic
def person_link_ask(*, slug: str, user: User) -> PersonLink:
    """The person asks the club at ``slug`` to link them to their player there; a
    director answers, naming the player."""
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise LinkUnknownClub(path="club", slug=slug[:60])
    refusal = AccountAlreadyLinked(path="club", club=club.name)
    if PersonLink.objects.filter(status__in=LIVE, club=club, user=user).exists():
        raise refusal
    link = unique_or(
        refusal,
        lambda: PersonLink.objects.create(
            club=club, user=user, origin=PersonLink.Origin.PERSON, proposed_by=user
        ),
    )
    _audit(link, user, "person_link_asked")
    return link


def _waiting(link: PersonLink) -> PersonLink:
    link = PersonLink.objects.select_for_update().select_related("club").get(pk=link.pk)
    if link.status != PersonLink.Status.PROPOSED:
        raise LinkNotWaiting()
    return link


def _answering_side(link: PersonLink, user: User) -> None:
    """The side that did not begin the link answers it: the person a director proposed,
    a director of the club the person asked."""
    if link.origin == PersonLink.Origin.CLUB:
        if link.user_id != user.pk:
            raise NotYourLink(who="person")
    else:
        require_role(user, link.club_id, Role.DIRECTOR)


@transaction.atomic
def person_link_accept(*, link: PersonLink, user: User, player: Player | None = None) -> PersonLink:
    """The other side accepts: the person a director's proposal; a director the person's
    request, naming the club's ``player`` they are. The person gets a number in each
    federation the club belongs to."""
    link = _waiting(link)
    _answering_side(link, user)
    if link.origin == PersonLink.Origin.PERSON:
        if player is None:
            raise PlayerNeeded(path="player")
        if player.club_id != link.club_id:
            raise PlayerOfAnotherClub(path="player", club=link.club.name)
        link.player = Player.objects.select_for_update().get(pk=player.pk)
    assert link.player is not None  # proposed by the club: it named the player
    _fits(link.club, link.player, link.user_id, but=link.pk)
    return unique_or(
        PlayerAlreadyLinked(path="player", name=link.player.name),
        lambda: _now_accepted(link, user),
    )


@transaction.atomic
def person_link_decline(*, link: PersonLink, user: User) -> PersonLink:
    """The other side says no: nothing is linked."""
    link = _waiting(link)
    _answering_side(link, user)
    link.status, link.answered_by, link.answered_at = (
        PersonLink.Status.DECLINED,
        user,
        timezone.now(),
    )
    link.save(update_fields=["status", "answered_by", "answered_at"])
    _audit(link, user, "person_link_declined")
    return link


@transaction.atomic
def person_link_remove(*, link: PersonLink, user: User) -> PersonLink:
    """Either side removes a link (or withdraws one still waiting): the person it names,
    or a director of the club. The person keeps their federation numbers."""
    link = PersonLink.objects.select_for_update().get(pk=link.pk)
    if link.user_id != user.pk and membership_of(user, link.club_id) is None:
        raise NotYourLink(who="person")
    if link.user_id != user.pk:
        require_role(user, link.club_id, Role.DIRECTOR)
    if link.status not in LIVE:
        raise LinkNotLive()
    was_accepted = link.status == PersonLink.Status.ACCEPTED
    link.status, link.removed_by, link.removed_at = PersonLink.Status.REMOVED, user, timezone.now()
    link.save(update_fields=["status", "removed_by", "removed_at"])
    _audit(link, user, "person_link_removed")
    if was_accepted:
        ratings.request_refresh(ratings.federations_of_link(link.club_id, link.player_id))
        ranking_changed(federations_reading_club(link.club_id))
    return link
