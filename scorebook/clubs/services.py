"""Writes to clubs, memberships and players, each in one transaction.

Role changes follow one rule: nobody grants, changes or removes a role above their own,
and a club always keeps an owner.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from scorebook.core.refusals import Refusal

from .models import ROLE_RANK, Club, Membership, Player, Role
from .selectors import membership_of

ROLE_NAMES = {
    "owner": _("owner"),
    "director": _("director"),
    "scorer": _("scorer"),
    "member": _("member"),
    "seated player": _("player seated at this match"),
}


class NotAllowed(Refusal):
    """The user's role does not allow this write; ``role`` names the role needed."""

    code = "role.required"
    status = 403
    message = _("This needs the %(role)s role in this club.")

    def __init__(self, role: str) -> None:
        super().__init__(role=str(role))

    def words(self) -> dict[str, Any]:
        return {"role": ROLE_NAMES.get(self.params["role"], self.params["role"])}


class LastOwner(Refusal):
    """The change would leave the club without an owner."""

    code = "club.last_owner"
    status = 409
    message = _("A club must keep at least one owner.")


class NotAMember(Refusal):
    """A player can be linked only to the account of a member of its club."""

    code = "player.not_member"
    message = _("A player can only be linked to a member of the club.")


def require_role(user: Any, club_id: int, role: str) -> Membership:
    membership = membership_of(user, club_id)
    if membership is None or not membership.at_least(role):
        raise NotAllowed(role)
    return membership


def audit(*, club_id: int, actor: Any, verb: str, obj: Any, before=None, after=None, reason=""):
    from scorebook.matches.models import AuditEvent  # the audit log lives with the record

    AuditEvent.objects.create(
        club_id=club_id,
        actor=actor,
        verb=verb,
        object_type=type(obj).__name__.lower(),
        object_id=str(obj.pk),
        before=before,
        after=after,
        reason=reason,
    )


def _may_handle(actor: Membership, role: str) -> None:
    if ROLE_RANK[Role(role)] > ROLE_RANK[Role(actor.role)]:
        raise NotAllowed(role)


def _keeps_an_owner(membership: Membership) -> None:
    if membership.role == Role.OWNER:
        owners = Membership.objects.select_for_update().filter(
            club_id=membership.club_id, role=Role.OWNER
        )
        if owners.count() <= 1:
            raise LastOwner()


@transaction.atomic
def club_create(*, name: str, slug: str, user: Any, public: bool = False) -> Club:
    club = Club.objects.create(name=name, slug=slug, public=public)
    Membership.objects.create(club=club, user=user, role=Role.OWNER)
    audit(club_id=club.pk, actor=user, verb="club_created", obj=club, after={"name": name})
    return club


@transaction.atomic
def club_update(*, club: Club, changes: dict[str, Any], user: Any) -> Club:
    require_role(user, club.pk, Role.OWNER)
    changes = {f: v for f, v in changes.items() if getattr(club, f) != v}
    if not changes:
        return club
    before = {field: getattr(club, field) for field in changes}
    for field, value in changes.items():
        setattr(club, field, value)
    club.save(update_fields=list(changes))
    audit(club_id=club.pk, actor=user, verb="club_changed", obj=club, before=before, after=changes)
    return club


@transaction.atomic
def membership_add(*, club: Club, member: Any, role: str, user: Any) -> Membership:
    actor = require_role(user, club.pk, Role.DIRECTOR)
    _may_handle(actor, role)
    membership = Membership.objects.create(club=club, user=member, role=role)
    audit(club_id=club.pk, actor=user, verb="member_added", obj=membership, after={"role": role})
    return membership


@transaction.atomic
def membership_change(*, membership: Membership, role: str, user: Any) -> Membership:
    actor = require_role(user, membership.club_id, Role.DIRECTOR)
    _may_handle(actor, membership.role)
    _may_handle(actor, role)
    if role != Role.OWNER:
        _keeps_an_owner(membership)
    before = membership.role
    membership.role = role
    membership.save(update_fields=["role"])
    audit(
        club_id=membership.club_id,
        actor=user,
        verb="role_changed",
        obj=membership,
        before={"role": before},
        after={"role": role},
    )
    return membership


@transaction.atomic
def membership_remove(*, membership: Membership, user: Any) -> None:
    actor = require_role(user, membership.club_id, Role.DIRECTOR)
    _may_handle(actor, membership.role)
    _keeps_an_owner(membership)
    audit(
        club_id=membership.club_id,
        actor=user,
        verb="member_removed",
        obj=membership,
        before={"user": membership.user_id, "role": membership.role},
    )
    membership.delete()


def _linkable(club: Club, linked: Any) -> None:
    if linked is not None and membership_of(linked, club.pk) is None:
        raise NotAMember(path="user")


@transaction.atomic
def player_create(
    *,
    club: Club,
    name: str,
    user: Any,
    linked_user: Any = None,
    guest: bool = False,
    active: bool = True,
) -> Player:
    require_role(user, club.pk, Role.SCORER)
    _linkable(club, linked_user)
    player = Player.objects.create(
        club=club, name=name, user=linked_user, guest=guest, active=active
    )
    audit(club_id=club.pk, actor=user, verb="player_added", obj=player, after={"name": name})
    return player


def _player_facts(player: Player, fields: list[str]) -> dict[str, Any]:
    return {f: getattr(player, "user_id" if f == "user" else f) for f in fields}


@transaction.atomic
def player_update(*, player: Player, changes: dict[str, Any], user: Any) -> Player:
    """``changes`` maps Player fields (name, user, guest, active) to new values."""
    require_role(user, player.club_id, Role.SCORER)
    if "user" in changes:
        _linkable(player.club, changes["user"])
    changes = {f: v for f, v in changes.items() if getattr(player, f) != v}
    if not changes:
        return player
    before = _player_facts(player, list(changes))
    for field, value in changes.items():
        setattr(player, field, value)
    player.save(update_fields=list(changes))
    audit(
        club_id=player.club_id,
        actor=user,
        verb="player_changed",
        obj=player,
        before=before,
        after=_player_facts(player, list(changes)),
    )
    return player
