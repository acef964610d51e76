"""Erasing a person: their name becomes a pseudonym everywhere, their account is stripped,
and the record (matches, deals and their versions, confirmations, ledger, standings, audit
log) keeps every number. One transaction per erasure.

What is rewritten, and why each:

- the player's name (``Player.name``): every page, export, API answer, PDF and CSV reads
  names from that row (the ledger's accounts, the standings' rows and the ratings point at
  the player by id), so the pseudonym shows everywhere at once;
- free text that may repeat the name: the audit log (``before``/``after``/``reason``),
  a deal's correction reason and input, a match's derived state, a confirmation's reason,
  a table's name, a night's venue, league entries, seasons and leagues (the demo's league
  entries are "Nino e Ettore"), tournaments' names, pairs and reasons, an import's
  preview of its file, the stored answers of idempotent POSTs and the admin's log;
- the account (when there is one): username ``erased-<id>``, no email, no names, no
  password, inactive; its memberships, API tokens, sessions, PIN, login records and stored
  answers are deleted. The row stays: confirmations point at it.

The pseudonym is "Erased player #n" in the language of the request that erased it, ``n``
counted per club. Nothing here logs a name: the log lines carry ids only.
"""

from __future__ import annotations

import logging
import re
import tempfile
from collections.abc import Callable, Iterable
from typing import IO, Any

import django.dispatch
from django.contrib.admin.models import LogEntry
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Max, Model, QuerySet, Value
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
from scorebook.history.models import Import, PlannedMatch
from scorebook.matches.models import Confirmation, Deal, Match, Night, Table
from scorebook.standings.models import League, LeagueEntry, Season
from scorebook.tournaments.models import Entry as TournamentEntry
from scorebook.tournaments.models import Pairing, Tournament

from . import exports
from .models import Erasure

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


def name_pattern(name: str, keep: Iterable[str] = ()) -> re.Pattern[str]:
    """``name`` as a whole word in any case; the longer names in ``keep`` ("Nino B" beside
    "Nino", another player's) match first and are left as they are."""
    words = sorted({name, *(k for k in keep if k.casefold() != name.casefold())}, key=len)
    alternatives = "|".join(re.escape(w) for w in reversed(words))
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)


def rewriter(name: str, replacement: str, keep: Iterable[str] = ()) -> Callable[[Any], Any]:
    """A function that rewrites ``name`` to ``replacement`` in a string, or in every key and
    string of a JSON value; anything else comes back as it was."""
    pattern = name_pattern(name, keep)
    folded = name.casefold()

    def text(value: str) -> str:
        return pattern.sub(
            lambda m: replacement if m.group(0).casefold() == folded else m.group(0), value
        )

    def rewrite(value: Any) -> Any:
        if isinstance(value, str):
            return text(value)
        if isinstance(value, list):
            return [rewrite(v) for v in value]
        if isinstance(value, dict):
            return {rewrite(k) if isinstance(k, str) else k: rewrite(v) for k, v in value.items()}
        return value

    return rewrite


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
            Model.save(row, update_fields=updates)
            changed += 1
    return changed


def _scrub_club(club_id: int, rewrite: Callable) -> None:
    """Every free text of the club's record that may carry a name."""
    in_club: list[tuple[QuerySet[Any], tuple[str, ...]]] = [
        (AuditEvent.objects.filter(club_id=club_id), ("before", "after", "reason")),
        (Night.objects.filter(club_id=club_id), ("venue",)),
        (Table.objects.filter(night__club_id=club_id), ("name",)),
        (Match.objects.filter(night__club_id=club_id), ("state", "result")),
        (Deal.objects.filter(match__night__club_id=club_id), ("input", "reason")),
        (Confirmation.objects.filter(deal__match__night__club_id=club_id), ("reason",)),
        (Season.objects.filter(club_id=club_id), ("name",)),
        (League.objects.filter(club_id=club_id), ("name",)),
        (LeagueEntry.objects.filter(league__club_id=club_id), ("name",)),
        (Tournament.objects.filter(club_id=club_id), ("name",)),
        (
            TournamentEntry.objects.filter(tournament__club_id=club_id),
            ("name", "withdrawal_reason"),
        ),
        (Pairing.objects.filter(round__tournament__club_id=club_id), ("forfeit_reason",)),
        # an import's preview keeps the file's names (its seats) and its error
        (Import.objects.filter(club_id=club_id), ("plan", "summary", "error", "filename")),
        (PlannedMatch.objects.filter(batch__club_id=club_id), ("data",)),
    ]
    for rows, fields in in_club:
        _rewrite_rows(rows, fields, rewrite)
    # Stored answers of idempotent POSTs (the players', the deals' ...) and the admin's log.
    _rewrite_rows(IdempotencyKey.objects.all(), ("response",), rewrite)
    _rewrite_rows(LogEntry.objects.all(), ("object_repr", "change_message"), rewrite)


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


def _erase_player(player: Player, *, actor: User, by_the_person: bool) -> Erasure:
    club = Club.objects.select_for_update().get(pk=player.club_id)
    player = Player.objects.select_for_update().get(pk=player.pk)
    if Erasure.objects.filter(player=player).exists():
        raise AlreadyErased()
    number = _next_number(club)
    name = pseudonym(number)
    others = Player.objects.filter(club=club).exclude(pk=player.pk).values_list("name", flat=True)
    rewrite = rewriter(player.name, name, keep=list(others))
    player.name, player.user, player.active, player.erased = name, None, False, True
    player.save(update_fields=["name", "user", "active", "erased"])
    # an invitation naming the player would link an account to it again
    Invitation.objects.filter(player=player, revoked_at=None).update(revoked_at=timezone.now())
    _scrub_club(club.pk, rewrite)
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
        if elsewhere.exists() or Player.objects.filter(user=account).exclude(pk=player.pk):
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
    players, in every club, takes a pseudonym; their account is stripped and they are
    signed out everywhere. Refused while they are the only owner of a club (a club always
    keeps an owner)."""
    _confirmed(confirm, user.get_username(), "username")
    for owned in Membership.objects.filter(user=user, role=Role.OWNER).select_related("club"):
        owners = Membership.objects.select_for_update().filter(
            club_id=owned.club_id, role=Role.OWNER
        )
        if owners.count() <= 1:
            raise SoleOwner(club=owned.club.name)
    erasures = [
        _erase_player(player, actor=user, by_the_person=True)
        for player in Player.objects.filter(user=user).order_by("pk")
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
