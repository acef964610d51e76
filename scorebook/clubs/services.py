"""Writes to clubs, memberships and players, each in one transaction.

Role changes follow one rule: nobody grants, changes or removes a role above their own,
and a club always keeps an owner.
"""

from __future__ import annotations

import datetime
import secrets
import zoneinfo
from datetime import timedelta
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Value
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorebook.core.audit import audit
from scorebook.core.locks import name_lock
from scorebook.core.models import AuditEvent
from scorebook.core.people import User
from scorebook.core.refusals import Refusal, unique_or

from .models import ROLE_RANK, Club, ConfirmationPolicy, Invitation, Membership, Player, Role
from .selectors import membership_of

T = TypeVar("T")

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


def require_role(user: User, club_id: int, role: str) -> Membership:
    membership = membership_of(user, club_id)
    if membership is None or not membership.at_least(role):
        raise NotAllowed(role)
    return membership


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


class SlugTaken(Refusal):
    code = "club.slug_taken"
    status = 409
    message = _("Another club already uses the address '%(slug)s': choose another.")


class PlayerNameTaken(Refusal):
    code = "player.name_taken"
    status = 409
    message = _("The club already has a player called '%(name)s': add a surname or initial.")


class PlayerErased(Refusal):
    """An erased player is locked: the erasure cannot be undone by hand (a seat, an
    entry, an import's row, a new name, an account or reactivation would bring the
    person back). One refusal for every such act, pages and API alike."""

    code = "player.erased"
    status = 409
    message = _(
        "%(name)s was erased: an erased player cannot be seated, entered in a tournament "
        "or league, matched by an import, renamed, linked to an account or made active again."
    )


def refuse_erased(player_ids: Any, path: str = "") -> None:
    """Refuse (``PlayerErased``, naming the pseudonym) when any of ``player_ids`` is an
    erased player."""
    erased = Player.objects.filter(pk__in=list(player_ids), erased=True).first()
    if erased is not None:
        raise PlayerErased(path=path, name=erased.name)


class UsernameTaken(Refusal):
    code = "user.username_taken"
    status = 409
    message = _("The username %(username)s is taken: choose another.")


class UnknownTimeZone(Refusal):
    code = "club.unknown_time_zone"
    message = _("'%(value)s' is not a time zone: write one such as Europe/Rome.")


class NightLength(Refusal):
    code = "club.night_length"
    message = _("A night lasts from %(least)s to %(most)s minutes.")


#: What a director may change (the rest is the owner's): what counts as a confirmation,
#: and the club's usual night in the calendars.
DIRECTOR_SETTINGS = frozenset({"confirmation_policy", "night_starts", "night_minutes", "time_zone"})
NIGHT_MINUTES = (30, 720)


def _check_settings(changes: dict[str, Any]) -> None:
    zone = changes.get("time_zone")
    if zone and zone not in zoneinfo.available_timezones():
        raise UnknownTimeZone(path="time_zone", value=str(zone)[:64])
    minutes = changes.get("night_minutes")
    if minutes is not None and not NIGHT_MINUTES[0] <= minutes <= NIGHT_MINUTES[1]:
        raise NightLength(path="night_minutes", least=NIGHT_MINUTES[0], most=NIGHT_MINUTES[1])


def _plain(values: dict[str, Any]) -> dict[str, Any]:
    """Settings as the audit log keeps them (JSON: a time as 21:00:00)."""
    return {k: v.isoformat() if isinstance(v, datetime.time) else v for k, v in values.items()}


class AlreadyInClub(Refusal):
    code = "member.exists"
    status = 409
    message = _("This person is already a member of the club.")


_unique = unique_or


class FoundingLimit(Refusal):
    """Any signed-in account may found a club (and then upload files to it): not without
    end. CLUB_FOUNDING_LIMIT clubs per CLUB_FOUNDING_HOURS hours, per account."""

    code = "club.founding_limit"
    status = 429
    message = _(
        "You have founded %(count)s clubs in the last %(hours)s hours, the most an account "
        "may: try again later."
    )


def _founding_allowed(user: User) -> None:
    """Refuse a founding past the account's limit; the account's row is locked, so two
    foundings at once by one account are counted one after the other."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    hours = settings.CLUB_FOUNDING_HOURS
    since = timezone.now() - timedelta(hours=hours)
    founded = AuditEvent.objects.filter(actor=user, verb="club_created", at__gte=since).count()
    if founded >= settings.CLUB_FOUNDING_LIMIT:
        raise FoundingLimit(count=founded, hours=hours)


@transaction.atomic
def club_create(
    *,
    name: str,
    slug: str,
    user: User,
    public: bool = False,
    confirmation_policy: str = ConfirmationPolicy.TABLE_PHONE,
) -> Club:
    _founding_allowed(user)
    refusal = SlugTaken(path="slug", slug=slug)
    if Club.objects.filter(slug=slug).exists():
        raise refusal
    club = _unique(
        refusal,
        lambda: Club.objects.create(
            name=name, slug=slug, public=public, confirmation_policy=confirmation_policy
        ),
    )
    Membership.objects.create(club=club, user=user, role=Role.OWNER)
    audit(club_id=club.pk, actor=user, verb="club_created", obj=club, after={"name": name})
    return club


@transaction.atomic
def club_update(*, club: Club, changes: dict[str, Any], user: User) -> Club:
    """The owner changes the club; a director may change what counts as a confirmation
    and the club's usual night (start, length, time zone: the calendar feeds' times)."""
    only_policy = set(changes) <= DIRECTOR_SETTINGS
    require_role(user, club.pk, Role.DIRECTOR if only_policy else Role.OWNER)
    _check_settings(changes)
    changes = {f: v for f, v in changes.items() if getattr(club, f) != v}
    if not changes:
        return club
    before = {field: getattr(club, field) for field in changes}
    if "slug" in changes:
        refusal = SlugTaken(path="slug", slug=changes["slug"])
        if Club.objects.filter(slug=changes["slug"]).exclude(pk=club.pk).exists():
            raise refusal
    for field, value in changes.items():
        setattr(club, field, value)
    _unique(SlugTaken(path="slug", slug=club.slug), lambda: club.save(update_fields=list(changes)))
    audit(
        club_id=club.pk,
        actor=user,
        verb="club_changed",
        obj=club,
        before=_plain(before),
        after=_plain(changes),
    )
    return club


@transaction.atomic
def membership_add(*, club: Club, member: User, role: str, user: User) -> Membership:
    actor = require_role(user, club.pk, Role.DIRECTOR)
    _may_handle(actor, role)
    refusal = AlreadyInClub(path="username")
    if Membership.objects.filter(club=club, user=member).exists():
        raise refusal
    membership = _unique(
        refusal, lambda: Membership.objects.create(club=club, user=member, role=role)
    )
    audit(club_id=club.pk, actor=user, verb="member_added", obj=membership, after={"role": role})
    return membership


@transaction.atomic
def membership_change(*, membership: Membership, role: str, user: User) -> Membership:
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
def membership_remove(*, membership: Membership, user: User) -> None:
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


class LinkNeedsConsent(Refusal):
    code = "player.link_consent"
    status = 403
    message = _(
        "A player is linked to someone else's account only when they accept an invitation "
        "for this player: send them one."
    )


class AlreadyLinked(Refusal):
    code = "player.already_linked"
    status = 409
    message = _("This player is already linked to an account; only its owner can change that.")


def _linkable(club: Club, linked: User | None, user: User) -> None:
    """A player is linked to an account by that account's owner: themselves (with consent,
    by definition), or through an invitation they accept; never by someone else."""
    if linked is None:
        return
    if membership_of(linked, club.pk) is None:
        raise NotAMember(path="user")
    if getattr(linked, "pk", linked) != getattr(user, "pk", None):
        raise LinkNeedsConsent(path="user")


def _name_free(club_id: int, name: str, *, but: int | None = None) -> None:
    """Refuse a name the club already has in any case ("nino" beside "Nino": every seat
    picker offered both), naming the player who has it. Compared as the database's
    constraint compares (Lower on both sides), so the two never disagree."""
    same = Player.objects.filter(club_id=club_id).alias(lowered=Lower("name"))
    same = same.filter(lowered=Lower(Value(name)))
    if but is not None:
        same = same.exclude(pk=but)
    taken = same.values_list("name", flat=True).first()
    if taken is not None:
        raise PlayerNameTaken(path="name", name=taken)


@transaction.atomic
def player_create(
    *,
    club: Club,
    name: str,
    user: User,
    linked_user: User | None = None,
    guest: bool = False,
    active: bool = True,
) -> Player:
    require_role(user, club.pk, Role.SCORER)
    _linkable(club, linked_user, user)
    _name_free(club.pk, name)
    refusal = PlayerNameTaken(path="name", name=name)
    player = _unique(
        refusal,
        lambda: Player.objects.create(
            club=club, name=name, user=linked_user, guest=guest, active=active
        ),
    )
    audit(club_id=club.pk, actor=user, verb="player_added", obj=player, after={"name": name})
    return player


def _player_facts(player: Player, fields: list[str]) -> dict[str, Any]:
    return {f: getattr(player, "user_id" if f == "user" else f) for f in fields}


@transaction.atomic
def player_update(*, player: Player, changes: dict[str, Any], user: User) -> Player:
    """``changes`` maps Player fields (name, user, guest, active) to new values."""
    require_role(user, player.club_id, Role.SCORER)
    if player.erased and any(getattr(player, f) != v for f, v in changes.items()):
        raise PlayerErased(name=player.name)
    if "user" in changes and changes["user"] != player.user:
        new = changes["user"]
        if player.user_id is not None and getattr(user, "pk", None) != player.user_id:
            # Unlinking (a director, e.g. for a member who left) is fine; re-linking is not.
            if new is not None:
                raise AlreadyLinked(path="user")
            require_role(user, player.club_id, Role.DIRECTOR)
        _linkable(player.club, new, user)
    changes = {f: v for f, v in changes.items() if getattr(player, f) != v}
    if not changes:
        return player
    if "name" in changes:
        _name_free(player.club_id, changes["name"], but=player.pk)
    before = _player_facts(player, list(changes))
    for field, value in changes.items():
        setattr(player, field, value)
    _unique(
        PlayerNameTaken(path="name", name=player.name),
        lambda: player.save(update_fields=list(changes)),
    )
    audit(
        club_id=player.club_id,
        actor=user,
        verb="player_changed",
        obj=player,
        before=before,
        after=_player_facts(player, list(changes)),
    )
    return player


# -- invitations: joining a club is the invitee's act -----------------------------------------

#: How long a new invitation lasts unless the director says otherwise, and the limits.
INVITATION_DAYS = 7
INVITATION_MAX_DAYS = 90
INVITATION_MAX_USES = 100


class InvitationLimits(Refusal):
    code = "invitation.limits"
    message = _("An invitation lasts 1 to %(days)s days and can be used 1 to %(uses)s times.")


class InvitationPlayer(Refusal):
    code = "invitation.player"
    message = _("This player is already linked to an account, or is not of this club.")


class InvitationInvalid(Refusal):
    code = "invitation.invalid"
    status = 404
    message = _("This invitation link is not valid. Ask the director for a new one.")


class InvitationExpired(Refusal):
    code = "invitation.expired"
    status = 410
    message = _("This invitation has expired or was withdrawn. Ask the director for a new one.")


class InvitationUsedUp(Refusal):
    code = "invitation.used_up"
    status = 410
    message = _("This invitation has been used already. Ask the director for a new one.")


class AlreadyMember(Refusal):
    code = "invitation.already_member"
    status = 409
    message = _("You are already a member of %(club)s.")


def _token() -> str:
    return secrets.token_urlsafe(24)


@transaction.atomic
def invitation_create(
    *,
    club: Club,
    role: str,
    user: User,
    player: Player | None = None,
    max_uses: int = 1,
    days: int = INVITATION_DAYS,
) -> Invitation:
    """A director invites someone with a role up to their own, optionally as a player of
    the club who has no account yet (the player is linked when the invitation is accepted)."""
    actor = require_role(user, club.pk, Role.DIRECTOR)
    _may_handle(actor, role)
    if not (1 <= max_uses <= INVITATION_MAX_USES and 1 <= days <= INVITATION_MAX_DAYS):
        raise InvitationLimits(days=INVITATION_MAX_DAYS, uses=INVITATION_MAX_USES)
    if player is not None and (player.club_id != club.pk or player.user_id is not None):
        raise InvitationPlayer(path="player")
    if player is not None and player.erased:
        raise PlayerErased(path="player", name=player.name)
    invitation = Invitation.objects.create(
        club=club,
        role=role,
        player=player,
        token=_token(),
        max_uses=max_uses,
        expires_at=timezone.now() + timedelta(days=days),
        created_by=user,
    )
    audit(
        club_id=club.pk,
        actor=user,
        verb="invitation_created",
        obj=invitation,
        after={"role": role, "player": player.pk if player else None, "max_uses": max_uses},
    )
    return invitation


def invitation_check(invitation: Invitation | None) -> Invitation:
    """Refuse an unknown, withdrawn, expired or used-up invitation."""
    if invitation is None:
        raise InvitationInvalid(path="token")
    if invitation.revoked_at is not None or invitation.expires_at <= timezone.now():
        raise InvitationExpired(path="token")
    if invitation.uses >= invitation.max_uses:
        raise InvitationUsedUp(path="token")
    return invitation


@transaction.atomic
def invitation_accept(*, token: str, user: User) -> Membership:
    """``user`` joins the club with the invitation's role (and becomes its player).

    Locks the invitation row, so two phones using the last use of one link get one
    membership and one refusal."""
    invitation = invitation_check(
        Invitation.objects.select_for_update().select_related("club").filter(token=token).first()
    )
    club = invitation.club
    if membership_of(user, club.pk) is not None:
        raise AlreadyMember(club=club.name)
    try:
        with transaction.atomic():
            membership = Membership.objects.create(club=club, user=user, role=invitation.role)
    except IntegrityError:  # the same user joining through another link at the same moment
        raise AlreadyMember(club=club.name) from None
    invitation.uses += 1
    invitation.save(update_fields=["uses"])
    if invitation.player_id is not None:
        player = Player.objects.select_for_update().get(pk=invitation.player_id)
        if player.user_id is not None:
            raise InvitationPlayer(path="token")
        if player.erased:
            raise PlayerErased(path="token", name=player.name)
        player.user = user
        player.save(update_fields=["user"])
    audit(
        club_id=club.pk,
        actor=user,
        verb="member_joined",
        obj=membership,
        after={
            "role": invitation.role,
            "invitation": invitation.pk,
            "player": invitation.player_id,
        },
    )
    return membership


@transaction.atomic
def invitation_sign_up(*, token: str, username: str, password: str) -> Membership:
    """A new account joins with the invitation: both or neither (a refused invitation
    creates no account). The caller has validated the username and password."""
    invitation_check(Invitation.objects.filter(token=token).first())
    users = get_user_model().objects
    name_lock("username", username)  # "nino" and "NINO" at once: one waits for the other
    if users.filter(username__iexact=username).exists():  # "Nino" is taken by "nino" too
        raise UsernameTaken(path="username", username=username)
    user = _unique(
        UsernameTaken(path="username", username=username),
        lambda: users.create_user(username=username, password=password),
    )
    return invitation_accept(token=token, user=user)


@transaction.atomic
def invitation_revoke(*, invitation: Invitation, user: User) -> Invitation:
    require_role(user, invitation.club_id, Role.DIRECTOR)
    if invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
        audit(
            club_id=invitation.club_id,
            actor=user,
            verb="invitation_revoked",
            obj=invitation,
        )
    return invitation
