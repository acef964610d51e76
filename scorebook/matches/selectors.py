"""Reads of the match record: the current deals of a match and the engine's replay of
them. Never imports the services."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.db.models import CharField, Count, Exists, OuterRef, QuerySet
from django.db.models.functions import Cast

from scorebook.clubs.models import ConfirmationPolicy, Player
from scorebook.core.models import AuditEvent
from scorebook.rules import DealResult, MatchState, Rejection, get_game, start_match
from scorebook.rules.game import Game
from scorebook.rules.houserules import Rules

from .models import Confirmation, Deal, Match, Night
from .refusals import RulesRejected


@dataclass(frozen=True)
class Folded:
    state: MatchState
    results: tuple[DealResult, ...]


def fold(match: Match, inputs: list[Any]) -> Folded:
    """Replay the deal inputs through the engine (then the final score of a match
    recorded without deals, or the stop of one ended at the night's close); raises
    RulesRejected on the first entry that no longer fits (its path names the deal)."""
    try:
        game, rules, state = start_match(
            match.game, match.rules["values"], match.players, match.first_dealer
        )
        results = tuple(
            game.add_deal(state, data, rules, f"deals[{i}]") for i, data in enumerate(inputs)
        )
        if match.final_score is not None:
            game.record_final(state, match.final_score, rules, winner=match.final_winner or None)
        if match.stopped:
            game.stop(state, rules)
    except Rejection as rejection:
        raise RulesRejected(rejection) from None
    return Folded(state=state, results=results)


#: How the night's close ends a match still open (``close_ending``).
STOP, ABANDON = "stop", "abandon"


def close_ending(match: Match) -> str:
    """How the night's close ends ``match`` while it is open (``ending_at_close``)."""
    game = get_game(match.game)
    played = int((match.state or {}).get("deals_played") or 0)
    return ending_at_close(game, game.rules(match.rules["values"]), played)


def ending_at_close(game: Game, rules: Rules, deals_played: int) -> str:
    """How the night's close ends an open match: ``STOP`` (finished with its scores as
    they stand) for a match with no end of its own (the engine's ``open_ended``: a chips
    session of no set number of deals) that has a deal; ``ABANDON`` for any other (a race
    to a target not reached, a set number of deals not played, a session with nothing
    played), which then counts for nothing. The import reads it too: it closes every
    night it stores."""
    return STOP if deals_played and game.open_ended(rules) else ABANDON


def current_deals(match: Match) -> list[Deal]:
    return list(match.deals.filter(is_current=True).order_by("number"))


def club_nights(club_id: int, *, status: str) -> QuerySet[Night]:
    """A club's nights of one status, newest first, each with its ``match_count``. The
    order is explicit: with an aggregate Django drops ``Meta.ordering``, and the club home
    showed 30 arbitrary nights (a club's 31st night was nowhere)."""
    return (
        Night.objects.filter(club_id=club_id, status=status)
        .annotate(match_count=Count("matches"))
        .order_by("-date", "-id")
    )


def with_confirmed(deals: QuerySet[Deal]) -> QuerySet[Deal]:
    """Each deal version with ``confirmed``: whether a confirmation of it is stored (however
    it was given: own phone, PIN, table phone or a director's override). The one place the
    pages read whether a deal is confirmed."""
    return deals.annotate(confirmed=Exists(Confirmation.objects.filter(deal=OuterRef("pk"))))


@dataclass(frozen=True)
class Progress:
    """Where a match stands, for the director: its current deals, when the last of them
    was first entered, and the numbers of those not confirmed and of those corrected."""

    deals: int = 0
    last_deal_at: datetime.datetime | None = None
    unconfirmed: tuple[int, ...] = ()
    corrected: tuple[int, ...] = ()


def night_progress(night_id: int) -> dict[int, Progress]:
    """Each match of the night (by id) that has deals: its :class:`Progress`, in one query.
    "The last deal" is when it was played (its first version), not when it was corrected."""
    rows = (
        with_confirmed(Deal.objects.filter(match__night_id=night_id))
        .order_by("match_id", "number", "version")
        .values_list(  # type: ignore[misc]  # "confirmed" is the annotation above
            "match_id", "number", "version", "is_current", "entered_at", "confirmed"
        )
    )
    played: dict[int, dict[int, datetime.datetime]] = {}
    current: dict[int, list[tuple[int, int, bool]]] = {}
    for match_id, number, version, is_current, entered_at, confirmed in rows:
        if version == 1:
            played.setdefault(match_id, {})[number] = entered_at
        if is_current:
            current.setdefault(match_id, []).append((number, version, confirmed))
    return {
        match_id: Progress(
            deals=len(deals),
            last_deal_at=max(
                (played[match_id][n] for n, _, _ in deals if n in played.get(match_id, {})),
                default=None,
            ),
            unconfirmed=tuple(n for n, _, confirmed in deals if not confirmed),
            corrected=tuple(n for n, version, _ in deals if version > 1),
        )
        for match_id, deals in current.items()
    }


@dataclass(frozen=True)
class LogEntry:
    """A correction (a deal's new version) or a director's override of a confirmation."""

    kind: str  # "correction" or "override"
    at: datetime.datetime
    actor_id: int | None
    match_id: int
    number: int
    reason: str


def night_log(night_id: int) -> list[LogEntry]:
    """The night's corrections (from the deal log) and overrides (from the audit log),
    newest first."""
    corrections = Deal.objects.filter(match__night_id=night_id, version__gt=1).values_list(
        "entered_at", "entered_by_id", "match_id", "number", "reason"
    )
    deals = Deal.objects.filter(match__night_id=night_id)
    ids = deals.annotate(key=Cast("pk", CharField())).values("key")
    overrides = list(
        AuditEvent.objects.filter(
            verb="confirmation_override", object_type="deal", object_id__in=ids
        ).values_list("at", "actor_id", "object_id", "reason")
    )
    where = {
        str(pk): (match_id, number)
        for pk, match_id, number in deals.filter(
            pk__in=[int(row[2]) for row in overrides]
        ).values_list("pk", "match_id", "number")
    }
    entries = [LogEntry("correction", *row) for row in corrections] + [
        LogEntry("override", at, actor, *where[pk], reason) for at, actor, pk, reason in overrides
    ]
    return sorted(entries, key=lambda e: e.at, reverse=True)


#: What each club setting counts besides the player's own phone and a director's override.
ACCEPTED = {
    ConfirmationPolicy.TABLE_PHONE: {Confirmation.Method.TABLE_PHONE, Confirmation.Method.PIN},
    ConfirmationPolicy.PIN: {Confirmation.Method.PIN},
    ConfirmationPolicy.OWN_PHONE: set(),
}


def accepts(policy: str, method: str) -> bool:
    """Whether a club whose setting is ``policy`` counts a confirmation given by ``method``."""
    own = method in (Confirmation.Method.OWN_PHONE, Confirmation.Method.OVERRIDE)
    return own or method in ACCEPTED[ConfirmationPolicy(policy)]


def sides(match: Match) -> dict[str, str]:
    """Each seat's side where the game's sides are fixed for the match, else the seat
    itself (the engine's description of the table, ``Game.table_shape``)."""
    shape = get_game(match.game).table_shape(match.rules["values"], match.seat_order())
    return {seat: shape.side_of(seat) or seat for seat in match.seats}


def side_of(match: Match, seat: str) -> str:
    """The side of ``seat`` (see :func:`sides`)."""
    return sides(match).get(seat, seat)


def user_seats(match: Match) -> dict[int, str]:
    """The seats of the players with an account, by account."""
    seats = {pid: seat for seat, pid in match.seats.items()}
    linked = Player.objects.filter(pk__in=seats, user__isnull=False).values_list("pk", "user_id")
    return {user_id: seats[pid] for pid, user_id in linked}


def table_confirmers(match: Match, deal: Deal, side: dict[str, str] | None = None) -> list[str]:
    """The seats that may confirm ``deal`` on the table phone, in seating order: the seats
    of the sides that did not enter it (``Deal.entered_side``), whoever is signed in on the
    phone. None where nobody said who entered it. A side that confirmed already is left
    out. ``side``: :func:`sides`, if read."""
    entering = deal.entered_side
    if not entering:
        return []
    side = sides(match) if side is None else side
    done = {side.get(c.seat, c.seat) for c in deal.confirmations.all() if c.seat}
    return [seat for seat in match.seats if side[seat] not in (entering, *done)]


def remaining_by_seat(match: Match, deals: list[Deal] | None = None) -> dict[str, list[Deal]]:
    """For each seat, the current deals of the match it may still confirm: its side has
    not confirmed them and did not enter them ("confirm the remaining deals"). ``deals``:
    the current deals with their confirmations, if read."""
    if deals is None:
        query = match.deals.filter(is_current=True).prefetch_related("confirmations")
        deals = list(query.order_by("number"))
    side = sides(match)
    remaining: dict[str, list[Deal]] = {seat: [] for seat in match.seats}
    for deal in sorted(deals, key=lambda d: d.number):
        for seat in table_confirmers(match, deal, side):
            remaining[seat].append(deal)
    return remaining


def unconfirmed_for(match: Match, seat: str) -> list[Deal]:
    """The current deals of the match that ``seat`` may still confirm."""
    return remaining_by_seat(match).get(seat, [])


def seat_of_user(match: Match, user_id: int | None) -> str | None:
    """The seat of the player linked to this account, if it sits at the match."""
    return user_seats(match).get(user_id) if user_id is not None else None
