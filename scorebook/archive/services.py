"""Erasing a person: their name becomes a pseudonym everywhere, their account is stripped,
and the record (matches, deals and their versions, confirmations, ledger, standings, audit
log) keeps every number. One transaction per erasure.

What is rewritten is what the register of text says (``archive.register``: every text
field of every model, classified with its reason):

- the player's name (``Player.name``) becomes the pseudonym: every page, export, API
  answer, PDF and CSV reads names from that row (the ledger's accounts, the standings'
  rows and the ratings point at the player by id), so it shows everywhere at once;
- every field the register calls free text, in the club's rows (and in every row of
  those that are no club's: the stored answers of idempotent POSTs, the admin's log,
  sessions): each name the person ever had (``names_of``: renames from the audit log,
  the account's names) in any case and with any separator (``archive.names``);
- the account (when there is one): username ``erased-<id>``, no email, no names, no
  password, inactive; its memberships, API tokens, sessions, PIN, login records and stored
  answers are deleted. The row stays: confirmations point at it.

The player is locked from then on (``Player.erased``: ``clubs.services.PlayerErased``).
The pseudonym is "Erased player #n" in the language of the request that erased it, ``n``
counted per club. Nothing here logs a name: the log lines carry ids only.
"""

from __future__ import annotations

import logging
import tempfile
from collections.abc import Callable, Iterable
from typing import IO, Any

import django.dispatch
from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, Model, Q, QuerySet, UniqueConstraint, Value
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scorebook.clubs.models import ROLE_RANK, Club, Invitation, Membership, Player, Role
from scorebook.clubs.services import NotAllowed, require_role
from scorebook.core.audit import audit
from scorebook.core.models import AuditEvent, IdempotencyKey
from scorebook.core.people import User
from scorebook.core.refusals import Refusal
from scorebook.federations import erasure as federations
from scorebook.federations.selectors import (
    federations_officered,
    linked_players,
    sole_presidencies,
)
from scorebook.history import services as history

from . import exports, register
from .models import Erasure
from .names import WORDS as _WORDS
from .names import rewriter

#: An export kept in memory up to this size, then on disk.
SPOOL_BYTES = 8 * 1024 * 1024

logger = logging.getLogger(__name__)

#: Sent inside the erasure's transaction with ``user`` (the stripped account), for what an
#: upper layer keeps about an account (the pages' table PIN).
account_erased = django.dispatch.Signal()


class AlreadyErased(Refusal):
    code = "erase.already_erased"
    status = 409
    message = _("This player's data has already been erased.")


class AccountElsewhere(Refusal):
    """A director erases a club's player; an account used in other clubs is the person's
    to erase, from their own account page."""

    code = "erase.account_elsewhere"
    status = 409
    message = _(
        "This player's account is also used in another club: the person erases it "
        "from their own account page."
    )


class OwnAccount(Refusal):
    code = "erase.own_account"
    status = 409
    message = _("This is your own player: erase your data from your account page.")


class SoleOwner(Refusal):
    code = "erase.sole_owner"
    status = 409
    message = _("You are the only owner of %(club)s: make another member an owner first.")


class SolePresident(Refusal):
    code = "erase.sole_president"
    status = 409
    message = _("You are the only president of %(federation)s: name another president first.")


class NotConfirmed(Refusal):
    """An erasure cannot be undone: the name (or username) typed must be the one erased."""

    code = "erase.not_confirmed"
    message = _("Type %(expected)s exactly as shown to confirm: nothing was erased.")


def _confirmed(typed: str, expected: str, path: str) -> None:
    if typed.strip().casefold() != expected.strip().casefold():
        raise NotConfirmed(path=path, expected=expected)


def pseudonym(number: int) -> str:
    """The name an erased player has from then on."""
    return gettext("Erased player #%(number)s") % {"number": number}


# -- the text rewrite -------------------------------------------------------------------------


def _own_history(player: Player) -> QuerySet[AuditEvent]:
    """The audit log's lines about the player itself (added, renamed, changed)."""
    return AuditEvent.objects.filter(
        club_id=player.club_id, object_type="player", object_id=str(player.pk)
    )


def _admin_history(player: Player) -> QuerySet[LogEntry]:
    """The admin's log lines about the player."""
    kind = ContentType.objects.get_for_model(Player)
    return LogEntry.objects.filter(content_type=kind, object_id=str(player.pk))


def names_of(player: Player) -> set[str]:
    """Every name the person behind ``player`` has had: the player's name now and before
    each rename (the audit log's ``player_added`` and ``player_changed``, the admin's log),
    and, when the player has an account, its username, first, last and full name and
    email."""
    names = {player.name}
    for before, after in _own_history(player).values_list("before", "after"):
        for payload in (before, after):
            if isinstance(payload, dict) and isinstance(payload.get("name"), str):
                names.add(payload["name"])
    names.update(_admin_history(player).values_list("object_repr", flat=True))
    account = player.user
    if account is not None:
        full = f"{account.first_name} {account.last_name}"
        names.update((account.get_username(), account.first_name, account.last_name, full))
        names.add(account.email)
    return {name for name in names if name and name.strip()}


def _rewrite_rows(rows: QuerySet[Any], fields: tuple[str, ...], rewrite: Callable) -> int:
    """Rewrite ``fields`` of every row where they change; the rows are read in batches,
    only the ones that change are written (``update_fields``: nothing else is touched)."""
    changed = 0
    for row in rows.only("pk", *fields).iterator(chunk_size=500):
        updates = []
        for field in fields:
            old = getattr(row, field)
            new = rewrite(old)
            if new != old:
                setattr(row, field, new)
                updates.append(field)
        if updates:
            _still_unique(row, updates)
            Model.save(row, update_fields=updates)
            changed += 1
    return changed


def _still_unique(row: Model, fields: list[str]) -> None:
    """A rewritten value that another row already holds under one of the model's unique
    constraints takes a number after it (" 2", " 3"...). The pseudonyms are numbered per
    club, and a championship's team names are unique across its clubs: two teams named
    after players of two clubs, both erased, were both "... Erased player #1", and the
    second erasure failed (found by tests/crossings/federation.py)."""
    for field in fields:
        value = getattr(row, field)
        if not isinstance(value, str):
            continue
        unique = [
            c
            for c in row._meta.constraints
            if isinstance(c, UniqueConstraint) and field in c.fields
        ]
        longest = getattr(row._meta.get_field(field), "max_length", None) or len(value) + 12
        n = 1
        while unique:
            try:
                for constraint in unique:
                    constraint.validate(type(row), row)  # type: ignore[attr-defined]
                break
            except ValidationError:
                n += 1
                suffix = f" {n}"
                setattr(row, field, value[: longest - len(suffix)] + suffix)


def _rewrite_sessions(rewrite: Callable) -> None:
    """Sessions are stored encoded: each live one is decoded, rewritten (a page's message
    waiting to be shown may name the player) and encoded again; the expired ones, which
    nobody can use, are deleted (as ``clearsessions`` does)."""
    Session.objects.filter(expire_date__lte=timezone.now()).delete()
    for session in Session.objects.iterator():
        data = session.get_decoded()
        new = rewrite(data)
        if new != data:
            session.session_data = Session.objects.encode(new)
            session.save(update_fields=["session_data"])


def _rows(model: type[Model], club: str | None, club_id: int) -> QuerySet[Any]:
    rows = model._base_manager.all()
    return rows if club is None else rows.filter(**{f"{club}_id": club_id})


def _mentioning(fields: tuple[str, ...], names: Iterable[str]) -> Q | None:
    """The rows that may hold one of ``names``, for the database to find first: every
    spelling of a name holds each of its words, so a row with none of a name's longest
    word (any case) holds no spelling of it. None (every row is read) when a name's words
    are not all plain ASCII letters and digits: the databases' case-blind search and
    SQLite's stored JSON do not treat the others alike."""
    words = []
    for name in names:
        found = _WORDS.findall(name)
        if not found:
            continue
        word = max(found, key=len)
        if not (word.isascii() and word.isalnum()):
            return None
        words.append(word)
    if not words:
        return Q(pk__in=[])
    match = Q()
    for field in fields:
        for word in words:
            match |= Q(**{f"{field}__icontains": word})
    return match


def _scrub(club_id: int, rewrite: Callable, names: Iterable[str]) -> None:
    """What the register (``archive.register``) says, field by field: free text
    rewritten in the club's rows (every row, for the models whose rows are no club's),
    sessions decoded and rewritten, short-lived bytes dropped (an import's file being
    checked: its check is stopped first, in words)."""
    history.checks_stop(club_id=club_id)
    for model, fields, club in register.rewritten(register.DROP):
        for name in fields:
            _rows(model, club, club_id).exclude(**{f"{name}__isnull": True}).update(**{name: None})
    names = list(names)
    for model, fields, club in register.rewritten(register.REWRITE):
        rows = _rows(model, club, club_id)
        mentioning = _mentioning(fields, names)
        _rewrite_rows(rows if mentioning is None else rows.filter(mentioning), fields, rewrite)
    if any(register.rewritten(register.SESSION)):
        _rewrite_sessions(rewrite)


# -- the account -----------------------------------------------------------------------------


def _strip_account(account: User) -> None:
    """The account's personal data goes; the row stays (confirmations point at it)."""
    from axes.models import AccessAttempt, AccessFailureLog, AccessLog  # type: ignore[import-untyped]
    from rest_framework.authtoken.models import Token

    old_username = account.get_username()
    Membership.objects.filter(user=account).delete()
    Token.objects.filter(user=account).delete()
    IdempotencyKey.objects.filter(user=account).delete()
    for model in (AccessAttempt, AccessFailureLog, AccessLog):
        model.objects.filter(username=old_username).delete()
    mine = str(account.pk)
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if session.get_decoded().get("_auth_user_id") == mine:
            session.delete()
    federations.account_forget(account.pk)
    account_erased.send(sender=Erasure, user=account)
    account.username = f"erased-{account.pk}"
    account.first_name = account.last_name = account.email = ""
    account.is_active = account.is_staff = account.is_superuser = False
    account.set_unusable_password()
    account.save()


# -- erasing ---------------------------------------------------------------------------------


def _next_number(club: Club) -> int:
    """The next free "#n" of the club (its row is locked by the caller): after the last
    erasure's, and never a name another player already has."""
    number = (Erasure.objects.filter(club=club).aggregate(n=Max("number"))["n"] or 0) + 1
    names = Player.objects.filter(club=club).alias(lowered=Lower("name"))
    while names.filter(lowered=Lower(Value(pseudonym(number)))).exists():
        number += 1
    return number


def _erase_player(
    player: Player, *, actor: User, by_the_person: bool, also: Iterable[str] = ()
) -> Erasure:
    """The player's name becomes the pseudonym; each of the person's names (``names_of``
    and ``also``: their names in their other clubs) is rewritten in the club's free text.
    A name another player of the club has now is left alone there (it names them)."""
    club = Club.objects.select_for_update().get(pk=player.club_id)
    player = Player.objects.select_for_update().get(pk=player.pk)
    if Erasure.objects.filter(player=player).exists():
        raise AlreadyErased()
    number = _next_number(club)
    name = pseudonym(number)
    others = list(
        Player.objects.filter(club=club).exclude(pk=player.pk).values_list("name", flat=True)
    )
    taken = {other.casefold() for other in others}
    every = names_of(player) | set(also)
    erased = {n for n in every if n.casefold() not in taken}
    rewrite = rewriter(erased, name, keep=others)
    player.name, player.user, player.active, player.erased = name, None, False, True
    player.save(update_fields=["name", "user", "active", "erased"])
    # an invitation naming the player would link an account to it again; a person link
    # joins the pseudonym to an account
    Invitation.objects.filter(player=player, revoked_at=None).update(revoked_at=timezone.now())
    federations.player_forget(player.pk)
    federations.championships_renamed(club.pk, erased)
    _scrub(club.pk, rewrite, erased)
    # the player's own history names no one else: every name goes there, even an old one
    # another player has now
    own = rewriter(every, name)
    _rewrite_rows(_own_history(player), ("before", "after", "reason"), own)
    _rewrite_rows(_admin_history(player), ("object_repr", "change_message"), own)
    erasure = Erasure.objects.create(
        club=club, player=player, number=number, erased_by=actor, by_the_person=by_the_person
    )
    audit(
        club_id=club.pk,
        actor=actor,
        verb="player_erased",
        obj=player,
        after={"name": name, "by_the_person": by_the_person},
    )
    logger.info("player %s of club %s erased as #%s", player.pk, club.pk, number)
    return erasure


@transaction.atomic
def player_erase(*, player: Player, user: User, confirm: str) -> Erasure:
    """A director erases one of the club's players or guests, ``confirm`` being the
    player's name as typed. A player linked to an account loses the account too when it is
    used in this club only; an account used in other clubs, or a role above the
    director's, is refused (the person does it)."""
    director = require_role(user, player.club_id, Role.DIRECTOR)
    if Erasure.objects.filter(player=player).exists():
        raise AlreadyErased()
    _confirmed(confirm, player.name, "name")
    account = player.user
    if account is not None:
        if account.pk == user.pk:
            raise OwnAccount()
        elsewhere = Membership.objects.filter(user=account).exclude(club_id=player.club_id)
        if (
            elsewhere.exists()
            or Player.objects.filter(user=account).exclude(pk=player.pk)
            or linked_players(account).exclude(club_id=player.club_id)
            or federations_officered(account).exists()
        ):
            raise AccountElsewhere()
        theirs = Membership.objects.filter(user=account, club_id=player.club_id).first()
        if theirs is not None and ROLE_RANK[Role(theirs.role)] > ROLE_RANK[Role(director.role)]:
            raise NotAllowed(theirs.role)
    erasure = _erase_player(player, actor=user, by_the_person=False)
    if account is not None:
        _strip_account(account)
    return erasure


@transaction.atomic
def account_erase(*, user: User, confirm: str) -> list[Erasure]:
    """The person erases themselves (``confirm``: their username as typed): each of their
    players, in every club (those their account is and those their person links name),
    takes a pseudonym; their links, federation numbers and offices go; their account is
    stripped and they are signed out everywhere. Refused while they are the only owner of
    a club (a club always keeps an owner) or the only president of a federation."""
    _confirmed(confirm, user.get_username(), "username")
    for owned in Membership.objects.filter(user=user, role=Role.OWNER).select_related("club"):
        owners = Membership.objects.select_for_update().filter(
            club_id=owned.club_id, role=Role.OWNER
        )
        if owners.count() <= 1:
            raise SoleOwner(club=owned.club.name)
    presided = sole_presidencies(user).first()
    if presided is not None:
        raise SolePresident(federation=presided.name)
    players = list(
        (Player.objects.filter(user=user) | Player.objects.filter(pk__in=linked_players(user)))
        .distinct()
        .order_by("pk")
    )
    # every name the person has in any club is erased in each of their clubs (the
    # account's own names too: a linked player does not carry them)
    everywhere = set().union(*(names_of(player) for player in players)) if players else set()
    full = f"{user.first_name} {user.last_name}"
    everywhere |= {
        n
        for n in (user.get_username(), user.first_name, user.last_name, full, user.email)
        if n and n.strip()
    }
    erasures = [
        _erase_player(player, actor=user, by_the_person=True, also=everywhere) for player in players
    ]
    _strip_account(user)
    logger.info("account %s erased by its owner", user.pk)
    return erasures


def club_export_file(*, club: Club, user: User) -> IO[bytes]:
    """A director takes the club's whole record out: the ZIP in a temporary file (in
    memory up to a few MB, on disk beyond), rewound for streaming. The audit log keeps who
    exported when; the file itself is not kept."""
    require_role(user, club.pk, Role.DIRECTOR)
    out = tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES)
    counts = exports.club_export(club, out)
    audit(club_id=club.pk, actor=user, verb="club_exported", obj=club, after=counts)
    out.seek(0)
    return out


def person_export_file(*, user: User) -> IO[bytes]:
    """The person's own data, the same way (nothing is written: it is their own read)."""
    out = tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES)
    exports.person_export(user, out)
    out.seek(0)
    return out
