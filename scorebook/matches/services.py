"""Writes to the match record, each in one transaction.

Deals of one match are serialized by a row lock on the match (``select_for_update``), so
sequence numbers have no gaps or duplicates. The engine checks every deal before anything
is stored. A new deal resumes from the match's stored state and scores only itself, so
entering deal 40 costs what deal 1 does; a correction re-derives the state from the log of
current deal versions. Every row is written through ``save()`` (``create``), so anything
hooked to a model's save sees every deal.

This module is the record's front door: every write to the match record comes through
it, and in the same transaction it books the ledger (``ledger.services``: the match's
stakes, a night's pots and settlement) and marks the standings stale
(``standings.outbox.stale_mark``), so the record, the money and the outbox commit together
or not at all. Those two are the only calls from the matches app up to the apps above it
(tests/core/test_layers.py lists them); the ledger and the standings read the record, never
the other way round.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from decimal import Decimal
from typing import Any, NamedTuple

from django.db import transaction
from django.utils import timezone

from scorebook.clubs.models import ROLE_RANK, Club, Player, Role
from scorebook.clubs.services import NotAllowed, refuse_erased, require_role
from scorebook.core import hotpath
from scorebook.core.audit import audit
from scorebook.core.dates import check_date
from scorebook.core.people import User
from scorebook.core.reasons import check_reason
from scorebook.core.refusals import unique_or
from scorebook.ledger import services as ledger
from scorebook.rules import DealResult, MatchState, Rejection, get_game, start_match
from scorebook.rules.engine import resume_match
from scorebook.rules.game import Game
from scorebook.rules.houserules import Rules
from scorebook.standings.outbox import stale_mark

from . import closing, visitors
from .facts import deal_seat_facts, result_facts
from .models import Confirmation, Deal, Match, Night, SeatFact, Table
from .refusals import (
    STAKE_CURRENCIES,
    ClosedNight,
    CorrectionLeavesOpen,
    DealConflict,
    EnteredSideNotYours,
    EntererSeat,
    EntererSide,
    EntererUnknown,
    MatchAbandoned,
    MatchFinished,
    MethodNotAccepted,
    NightNotReady,
    NoSuchMatch,
    OpenMatches,
    OwnEntry,
    RulesRejected,
    SeatPlayers,
    SeatsMismatch,
    StakeCurrency,
    StaleVersion,
    TableNotOfNight,
    TableNumberTaken,
    UnknownSeat,
    UnknownSide,
)
from .selectors import (
    STOP,
    Folded,
    accepts,
    close_ending,
    current_deals,
    fold,
    seat_of_user,
    sides,
    unconfirmed_for,
    user_seats,
)

__all__ = [  # the refusals and reads callers have used through this module
    "ClosedNight",
    "DealConflict",
    "Folded",
    "NoSuchMatch",
    "NotAllowed",
    "RulesRejected",
    "SeatPlayers",
    "SeatsMismatch",
    "StaleVersion",
    "current_deals",
    "fold",
]


def _resume(match: Match) -> tuple[Game, Rules, MatchState]:
    """The match as its stored state left it, ready for the next deal: no earlier deal is
    read. A state stored before the engine could resume (no ``format``) is re-derived
    once by folding the match's deals; the next write stores the current layout."""
    try:
        return resume_match(match.game, match.rules["values"], match.state)
    except Rejection as rejection:
        raise RulesRejected(rejection) from None
    except ValueError:
        game, rules, _ = start_match(match.game, match.rules["values"])
        return game, rules, fold(match, [d.input for d in current_deals(match)]).state


def _store_state(match: Match, state: MatchState, facts: Sequence[SeatFact] = ()) -> None:
    """Store the match's derived state, and its per-seat facts (``SeatFact``) with the
    deal facts given: its result's rows written when it is finished and replaced when it
    was (a correction may change its totals and not its winners), all new rows in one
    INSERT. An ordinary deal of an open match writes nothing more."""
    was_finished = match.status == Match.Status.FINISHED
    match.state = state.as_dict()
    match.result = state.outcome.as_dict() if state.outcome else None
    if match.status != Match.Status.ABANDONED:  # a correction does not bring it back
        match.status = Match.Status.FINISHED if state.finished else Match.Status.OPEN
    match.version += 1
    match.save(update_fields=["state", "result", "status", "version"])
    rows = list(facts)
    if was_finished:
        SeatFact.objects.filter(match=match, deal__isnull=True).delete()
    rows += [SeatFact(match=match, **row) for row in result_facts(match)]
    if rows:
        SeatFact.objects.bulk_create(rows)


def _deal_facts(match: Match, deal: Deal) -> list[SeatFact]:
    """The deal version's per-seat facts, to store (none for an ordinary deal)."""
    return [SeatFact(match=match, deal=deal, **row) for row in deal_seat_facts(match, deal.result)]


@transaction.atomic
def night_open(*, club_id: int, date: Any, venue: str, user: User) -> Night:
    require_role(user, club_id, Role.DIRECTOR)
    day = check_date(date, path="date")  # refused in words outside the range (core.dates)
    return Night.objects.create(club_id=club_id, date=day, venue=venue, opened_by=user)


@transaction.atomic
def night_close(
    *, night: Night, user: User, end_open: Collection[int] | None = None, reason: str = ""
) -> Night:
    """Close the night: its pots are booked and it is settled. Refused (night.not_ready)
    while something on it must be done first (the registry in ``closing``), and
    (night.open_matches) while a match is open, unless ``end_open`` names exactly the
    open matches: then, in the same step, each is ended as ``selectors.close_ending``
    says (finished with its scores, booked and settled with the night; or abandoned with
    ``reason``). A night closes only with every match finished or abandoned."""
    require_role(user, night.club_id, Role.DIRECTOR)
    reason = check_reason(reason.strip() if isinstance(reason, str) else "", most=200)
    night = Night.objects.select_for_update().get(pk=night.pk)
    if night.status != Night.Status.CLOSED:
        waiting = closing.waiting(night)
        if waiting:
            raise NightNotReady(what=" ".join(waiting))
        # Deal entry locks its match, then reads the night's status: locking the night's
        # matches waits for the deals in flight, and the deals after see the night closed.
        locked = list(
            Match.objects.select_for_update(of=("self",))
            .select_related("table")
            .filter(night=night)
            .order_by("pk")
        )
        _end_open(
            night, [m for m in locked if m.status == Match.Status.OPEN], end_open, reason, user
        )
        night.status = Night.Status.CLOSED
        night.closed_at = timezone.now()
        night.save(update_fields=["status", "closed_at"])
        audit(club_id=night.club_id, actor=user, verb="night_closed", obj=night)
        ledger.night_pots_book(night=night, user=user)  # a pot left goes back to its feeders
        ledger.night_settle(night=night, user=user)
        stale_mark(club_id=night.club_id, night_id=night.pk)
    return night


def _end_open(
    night: Night, still: list[Match], end_open: Collection[int] | None, reason: str, user: User
) -> None:
    """End the matches still open at the close, when ``end_open`` names exactly them (a
    page or a client that showed other matches, or none, is refused with the list)."""
    if not still:
        return
    if end_open is None or set(end_open) != {m.pk for m in still}:
        raise OpenMatches(still)
    for match in still:
        if close_ending(match) == STOP:
            _stop(match, night.club_id, user)
        else:
            match_abandon(match=match, reason=reason, user=user)


def _stop(match: Match, club_id: int, user: User) -> None:
    """Finish an open-ended match with its scores as they stand (the engine's ``stop``,
    replayed by ``fold`` after its deals); its result is booked as a match finished at
    the table (the caller settles the night)."""
    game, rules, state = _resume(match)
    try:
        outcome = game.stop(state, rules)
    except Rejection as rejection:
        raise RulesRejected(rejection) from None
    match.stopped = True
    match.save(update_fields=["stopped"])
    _store_state(match, state)
    ledger.match_book(
        match=match, club_id=club_id, state=state, deals={}, user=user, was_finished=False
    )
    audit(
        club_id=club_id,
        actor=user,
        verb="match_stopped",
        obj=match,
        after={"totals": dict(state.totals), "winners": list(outcome.winners)},
    )
    stale_mark(club_id=club_id, night_id=match.night_id, match_id=match.pk)


@transaction.atomic
def table_create(*, night: Night, number: int, name: str, user: User) -> Table:
    require_role(user, night.club_id, Role.DIRECTOR)
    taken = TableNumberTaken(path="number", number=number)
    if Table.objects.filter(night=night, number=number).exists():
        raise taken
    return unique_or(taken, lambda: Table.objects.create(night=night, number=number, name=name))


@transaction.atomic
def match_create(
    *,
    night: Night,
    game: str,
    rules: Any,
    seats: dict[str, int],
    user: User,
    table: Table | None = None,
    first_dealer: str | None = None,
    stake_amount: Decimal = Decimal("0"),
    stake_currency: str = "",
) -> Match:
    """Check the game, house rules and seating with the engine, then store the snapshot."""
    require_role(user, night.club_id, Role.SCORER)
    if night.status == Night.Status.CLOSED:
        raise ClosedNight()
    if table is not None and table.night_id != night.pk:
        raise TableNotOfNight(path="table")
    if stake_currency and stake_currency not in STAKE_CURRENCIES:
        raise StakeCurrency(path="stake_currency", allowed=", ".join(STAKE_CURRENCIES))
    try:
        game_obj = get_game(game)
        resolved = game_obj.rules(rules)
        state = game_obj.new_match(resolved, len(seats) or None, first_dealer)
    except Rejection as rejection:
        raise RulesRejected(rejection) from None
    if set(seats) != set(state.seats):
        raise SeatsMismatch(path="seats", seats=", ".join(state.seats))
    known = set(
        Player.objects.filter(club_id=night.club_id, pk__in=seats.values()).values_list(
            "pk", flat=True
        )
    )
    if len(set(seats.values())) != len(seats) or known != set(seats.values()):
        raise SeatPlayers(path="seats")
    refuse_erased(seats.values(), path="seats")
    match = Match.objects.create(
        night=night,
        table=table,
        game=game,
        rules=resolved.as_dict(),
        players=len(seats),
        seats=seats,
        first_dealer=state.dealer,
        stake_amount=stake_amount,
        stake_currency=stake_currency,
        stake_unit=Match.StakeUnit.MONEY if stake_currency else Match.StakeUnit.POINTS,
        state=state.as_dict(),
        created_by=user,
    )
    return match


class Locked(NamedTuple):
    """A match ``_lock`` holds, with what was read after the lock."""

    match: Match
    night_status: str
    club_id: int
    #: the caller's seat at the match (their player's), None when they sit nowhere there
    seat: str | None


def _lock(match_id: int, user: User, role: Any) -> Locked:
    """Lock the match row (its deals are serialized), then read its night's status, its
    club, the caller's role there and their seat at the match in a statement of its own:
    a statement that waited for the lock would still see the night as it was when it
    started, and ``night_close`` locks the night's matches before closing it. Outsiders get
    NoSuchMatch, as if it did not exist; members below ``role`` (or
    ``role(match, night_status)``) get NotAllowed.

    Two plain SQL reads in ``hotpath.py`` (its docstring says why and what they saved)."""
    match = hotpath.match_locked(match_id)
    if match is None:
        raise NoSuchMatch()
    found = hotpath.night_status_club_role(match.night_id, user.pk, list(match.seats.values()))
    if found is None:
        raise NoSuchMatch()
    night_status, club_id, held, player = found
    needed = role(match, night_status) if callable(role) else role
    if ROLE_RANK[Role(held)] < ROLE_RANK[Role(needed)]:
        raise NotAllowed(needed)
    seat = next((s for s, pid in match.seats.items() if pid == player), None)
    return Locked(match, night_status, club_id, seat)


def _lock_correction(match_id: int, user: User) -> tuple[Locked, dict[str, Any] | None]:
    """``_lock`` for a correction, and for who corrects from outside the match's club
    (``visitors.CHECKS``: the away club's director of a championship fixture): the match
    locked as a director of its club would have it, sitting nowhere, and what the audit
    log keeps of the visit. Anyone else is refused as ``_lock`` refuses them."""
    try:
        return _lock(match_id, user, _correction_role), None
    except (NoSuchMatch, NotAllowed):
        visit = visitors.visiting(match_id, user)
        if visit is None:
            raise
    match = hotpath.match_locked(match_id)  # the same transaction's lock, held already
    if match is None:
        raise NoSuchMatch()
    night_status, club_id = Night.objects.values_list("status", "club_id").get(pk=match.night_id)
    return Locked(match, night_status, club_id, None), visit


def _entering(match: Match, seat: str | None, given: str) -> str:
    """Who enters a deal at the table (``Deal.entered_side``): the side of the caller's
    ``seat`` when they sit at the match (another side named is refused: the phone is
    theirs), else the side ``given`` (a side of the match, or a seat where sides are not
    fixed), else nobody said (blank)."""
    given = given.strip() if isinstance(given, str) else ""
    if seat is None and not given:
        return ""
    side = sides(match)
    if seat is not None:
        mine = side[seat]
        if given and given != mine:
            raise EnteredSideNotYours(path="entered_side", side=mine, given=given[:16])
        return mine
    allowed = list(dict.fromkeys(side[seat] for seat in match.seat_order()))
    if given not in allowed:
        raise UnknownSide(path="entered_side", given=given[:16], allowed=", ".join(allowed))
    return given


@transaction.atomic
def deal_create(
    *,
    match: Match | int,
    data: Any,
    expected_number: int | None,
    user: User,
    client: str = "",
    client_id: Any = None,
    entered_side: str = "",
) -> Deal:
    """Store the next deal of a match, or refuse it (RulesRejected, DealConflict).
    ``entered_side``: who is entering it at the table, when ``user`` does not sit at the
    match (see :func:`_entering`)."""
    match, night_status, club_id, seat = _lock(
        match.pk if isinstance(match, Match) else match, user, Role.SCORER
    )
    if night_status == Night.Status.CLOSED:
        raise ClosedNight()
    if match.status == Match.Status.ABANDONED:
        raise MatchAbandoned(reason=match.ended_reason)
    entering = _entering(match, seat, entered_side)
    game, rules, state = _resume(match)
    number = state.deal_number
    if expected_number is not None and expected_number != number:
        stored = match.deals.filter(is_current=True, number=expected_number).first()
        if stored is None and match.status == Match.Status.FINISHED:
            raise MatchFinished()  # a phone's deal after the end: nothing to compare it with
        raise DealConflict(stored, expected_number)
    try:
        result = game.add_deal(state, data, rules, f"deals[{number - 1}]")
    except Rejection as rejection:
        raise RulesRejected(rejection) from None
    was_finished = match.status == Match.Status.FINISHED
    deal = Deal.objects.create(
        match=match,
        number=number,
        input=data,
        level=result.level,
        result=result.as_dict(),
        entered_by=user,
        entered_side=entering,
        client=client[:200],
        client_id=client_id,
    )
    _store_state(match, state, _deal_facts(match, deal))
    ledger.match_book(
        match=match,
        club_id=club_id,
        state=state,
        deals={deal: result},
        user=user,
        was_finished=was_finished,
    )
    stale_mark(club_id=club_id, night_id=match.night_id, match_id=match.pk, deal_id=deal.pk)
    return deal


@transaction.atomic
def match_abandon(*, match: Match, reason: str, user: User) -> Match:
    """End an open match before its end, with a reason (directors): a tournament's
    forfeit "a tavolino" ends the forfeited pairing's match. No deal is added to it
    afterwards; the deals played stay (and any stake they booked); the standings count
    only finished matches, so it counts for nothing. A finished match is refused; an
    abandoned one is left as it is."""
    reason = check_reason(reason.strip() if isinstance(reason, str) else "", most=200)
    match, night_status, club_id, _seat = _lock(match.pk, user, Role.DIRECTOR)
    if match.status == Match.Status.ABANDONED:
        return match
    if match.status == Match.Status.FINISHED:
        raise MatchFinished()
    if night_status == Night.Status.CLOSED:
        raise ClosedNight()
    match.status = Match.Status.ABANDONED
    match.ended_reason = reason
    match.version += 1
    match.save(update_fields=["status", "ended_reason", "version"])
    audit(
        club_id=club_id,
        actor=user,
        verb="match_abandoned",
        obj=match,
        after={"status": match.status},
        reason=reason,
    )
    stale_mark(club_id=club_id, night_id=match.night_id, match_id=match.pk)
    return match


@transaction.atomic
def match_record_final(*, match: Match | int, totals: Any, user: User, winner: Any = None) -> Match:
    """Close a match that has no deals with its final score (the totals per scorer of a
    paper score sheet that kept nothing else): a director's act. The engine decides the
    result from the totals (``Game.record_final``: refused where the deals themselves
    settle or rate the match, or where the totals end no match); ``winner`` (a scorer)
    says who won where the totals cannot tell under the house rules, and is refused where
    they name another. The totals and the winner are stored on the match
    (``final_score``, ``final_winner``, replayed by ``fold``), the ledger books the result
    as it books a match finished at the table, and the standings count it."""
    match, night_status, club_id, _seat = _lock(
        match.pk if isinstance(match, Match) else match, user, Role.DIRECTOR
    )
    if match.status == Match.Status.ABANDONED:
        raise MatchFinished()
    if night_status == Night.Status.CLOSED:
        raise ClosedNight()
    game, rules, state = _resume(match)
    try:
        game.record_final(state, totals, rules, winner=winner)
    except Rejection as rejection:
        raise RulesRejected(rejection) from None
    match.final_score = dict(state.totals)
    match.final_winner = winner or ""
    match.save(update_fields=["final_score", "final_winner"])
    _store_state(match, state)
    ledger.match_book(
        match=match, club_id=club_id, state=state, deals={}, user=user, was_finished=False
    )
    audit(
        club_id=club_id,
        actor=user,
        verb="match_final_recorded",
        obj=match,
        after={
            "final_score": match.final_score,
            **({"final_winner": match.final_winner} if match.final_winner else {}),
            "winners": list(state.outcome.winners) if state.outcome else [],
        },
    )
    stale_mark(club_id=club_id, night_id=match.night_id, match_id=match.pk)
    return match


def _correction_role(match: Match, night_status: str) -> str:
    """Only a director corrects a finished match or a closed night."""
    finished = match.status != Match.Status.OPEN or night_status == Night.Status.CLOSED
    return Role.DIRECTOR if finished else Role.SCORER


@transaction.atomic
def deal_correct(
    *,
    deal: Deal,
    data: Any,
    reason: str,
    user: User,
    expected_version: int | None,
    expected_id: int | None = None,
) -> Deal:
    """A new version of a deal; every deal after it is re-derived. A correction that a
    later deal no longer fits is refused whole, and so is one on a closed night that would
    leave its match unfinished (no deal can be added there, docs/night-close.md).
    ``expected_version`` (and ``expected_id``, from the ETag the client edits) must be the
    current version's; None edits whatever is current (``If-Match: *``)."""
    check_reason(reason)
    locked, visit = _lock_correction(deal.match_id, user)
    match, night_status, club_id, seat = locked
    deals = current_deals(match)
    current = next(d for d in deals if d.number == deal.number)
    if expected_version is not None and (
        expected_version != current.version
        or (expected_id is not None and expected_id != current.pk)
    ):
        raise StaleVersion(current)
    inputs = [data if d.number == deal.number else d.input for d in deals]
    folded = fold(match, inputs)
    if (
        night_status == Night.Status.CLOSED
        and match.status != Match.Status.ABANDONED
        and not folded.state.finished
    ):
        raise CorrectionLeavesOpen(path="deal")  # nothing would end it (night-close.md)
    current.is_current = False
    current.save(update_fields=["is_current"])
    new = Deal.objects.create(
        match=match,
        number=current.number,
        version=current.version + 1,
        supersedes=current,
        input=data,
        level=folded.results[current.number - 1].level,
        result=folded.results[current.number - 1].as_dict(),
        entered_by=user,
        # the correction is entered by the corrector's side when seated; else the side
        # that entered the version it corrects (an unseated director puts it right)
        entered_side=_entering(match, seat, "") or current.entered_side,
        reason=reason,
    )
    changed: dict[Deal, DealResult | None] = {
        current: None,
        new: folded.results[current.number - 1],
    }
    facts = _deal_facts(match, new) + _later_redone(
        match, deals, folded.results, current.number, changed
    )
    was_finished = match.status == Match.Status.FINISHED
    _store_state(match, folded.state, facts)
    ledger.match_book(
        match=match,
        club_id=club_id,
        state=folded.state,
        deals=changed,
        user=user,
        was_finished=was_finished,
    )
    if night_status == Night.Status.CLOSED:
        ledger.night_settle(night=Night.objects.get(pk=match.night_id), user=user)
    if visit is not None:  # the home club's log says who of another club corrected it
        audit(
            club_id=club_id,
            actor=user,
            verb="deal_corrected_by_visitor",
            obj=new,
            before={"deal": current.pk, "version": current.version},
            after={**visit, "deal": new.pk, "version": new.version, "number": new.number},
            reason=reason,
        )
    stale_mark(club_id=club_id, night_id=match.night_id, match_id=match.pk, deal_id=new.pk)
    return new


def _later_redone(
    match: Match,
    deals: list[Deal],
    results: Any,
    number: int,
    changed: dict[Deal, DealResult | None],
) -> list[SeatFact]:
    """The deals after ``number`` whose results a correction changed: stored again and
    added to ``changed``; their facts follow their new results (the old ones deleted,
    the new ones returned for the caller to store)."""
    facts: list[SeatFact] = []
    redone = []
    for later, result in zip(deals, results, strict=True):
        if later.number > number and later.result != result.as_dict():
            later.result = result.as_dict()
            later.save(update_fields=["result"])
            changed[later] = result
            redone.append(later.pk)
            facts += _deal_facts(match, later)
    if redone:
        SeatFact.objects.filter(deal_id__in=redone).delete()
    return facts


def _confirm(
    *,
    deal: Deal,
    seat: str,
    method: str,
    user: User | None,
    device_user: User,
    reason: str = "",
    remaining: bool = False,
) -> Confirmation:
    """Store one confirmation (or give back the one that seat, or that account, gave) and
    say in the audit log how it was given."""
    match = deal.match
    lookup: dict[str, Any] = {"seat": seat} if seat else {"user": user, "seat": ""}
    confirmation, created = Confirmation.objects.get_or_create(
        deal=deal,
        **lookup,
        defaults={
            "player_id": match.seats.get(seat) if seat else None,
            "method": method,
            "user": user,
            "device_user": device_user,
            "reason": reason,
        },
    )
    if created:
        after: dict[str, Any] = {
            "seat": seat,
            "method": method,
            "player": confirmation.player_id,
            "device_user": device_user.pk,
        }
        if remaining:
            after["remaining"] = True
        verb = (
            "confirmation_override" if method == Confirmation.Method.OVERRIDE else "deal_confirmed"
        )
        audit(
            club_id=match.night.club_id,
            actor=device_user,
            verb=verb,
            obj=deal,
            after=after,
            reason=reason,
        )
    return confirmation


def _accepts(club_id: int, method: str) -> None:
    """The club's setting, as stored now, counts ``method``."""
    policy = Club.objects.values_list("confirmation_policy", flat=True).get(pk=club_id)
    if not accepts(policy, method):
        raise MethodNotAccepted(method=method, policy=policy)


@transaction.atomic
def deal_confirm(
    *, deal: Deal, user: User, override_reason: str = "", handed_by: User | None = None
) -> Confirmation:
    """A player seated at the match confirms from their own phone (or, ``handed_by``, on
    that person's phone with their PIN, which the caller checked); a director may override
    with a reason. The person who entered this version never confirms it, whatever the
    seat links say."""
    match = deal.match
    if deal.entered_by_id is not None and deal.entered_by_id == getattr(user, "pk", None):
        raise OwnEntry()
    if override_reason:
        check_reason(override_reason)
        require_role(user, match.night.club_id, Role.DIRECTOR)
        return _confirm(
            deal=deal,
            seat="",
            method=Confirmation.Method.OVERRIDE,
            user=user,
            device_user=user,
            reason=override_reason,
        )
    seat = seat_of_user(match, user.pk) or ""
    if not seat:
        raise NotAllowed("seated player")
    method = Confirmation.Method.OWN_PHONE
    if handed_by is not None and handed_by.pk != user.pk:
        method = Confirmation.Method.PIN
        _accepts(match.night.club_id, method)
    return _confirm(deal=deal, seat=seat, method=method, user=user, device_user=handed_by or user)


def _table_phone(match: Match, seat: str, user: User) -> tuple[str, User | None]:
    """Check a tap on ``user``'s phone for ``seat``: its method (the player's own phone when
    the seat is the user's) and the account it is given with."""
    if seat not in match.seats:
        raise UnknownSeat(path="seat", seat=str(seat)[:8])
    by_user = user_seats(match)
    if by_user.get(user.pk) == seat:
        return Confirmation.Method.OWN_PHONE, user
    if user.pk not in by_user:
        require_role(user, match.night.club_id, Role.SCORER)  # the phone that enters deals
    _accepts(match.night.club_id, Confirmation.Method.TABLE_PHONE)
    return Confirmation.Method.TABLE_PHONE, None


def _seat_may_confirm(match: Match, deal: Deal, seat: str, method: str) -> None:
    """Refuse a seat of the side that entered ``deal`` (``Deal.entered_side``): nobody
    confirms their own entry, whoever is signed in on the phone. Where nobody said who
    entered it, the table phone cannot tell the other side: only a player's own seat on
    their own phone is taken."""
    entering = deal.entered_side
    if not entering:
        if method == Confirmation.Method.OWN_PHONE:
            return
        raise EntererUnknown(path="seat", number=deal.number)
    side = sides(match)
    if side[seat] != entering:
        return
    name, user_id = (
        Player.objects.filter(pk=match.seats[seat]).values_list("name", "user_id").first()
    ) or ("?", None)
    if side[seat] == seat or (user_id is not None and user_id == deal.entered_by_id):
        raise EntererSeat(path="seat", player=name, seat=seat)
    raise EntererSide(path="seat", player=name, seat=seat)


@transaction.atomic
def deal_confirm_at_table(*, deal: Deal, seat: str, user: User) -> Confirmation:
    """The table phone: the player at ``seat`` confirms with one tap on the phone of
    ``user`` (who is signed in on it and hands it over), guests too, where the club counts
    it. The seat is neither the seat of the person who entered the deal nor on their side
    where sides are fixed; a tap for the user's own seat is their own phone's."""
    match = deal.match
    method, account = _table_phone(match, seat, user)
    if deal.entered_by_id is not None and deal.entered_by_id == (account and account.pk):
        raise OwnEntry()
    _seat_may_confirm(match, deal, seat, method)
    return _confirm(deal=deal, seat=seat, method=method, user=account, device_user=user)


@transaction.atomic
def deal_confirm_remaining(*, match: Match, seat: str, user: User) -> list[Confirmation]:
    """ "Confirm the remaining deals": one tap on the table phone confirms, for ``seat``,
    every current deal of the match its side has not confirmed and did not enter (a deal
    its side entered is left to the other side). Empty when nothing is left."""
    match = Match.objects.select_related("night").get(pk=match.pk)
    method, account = _table_phone(match, seat, user)
    return [
        _confirm(
            deal=deal, seat=seat, method=method, user=account, device_user=user, remaining=True
        )
        for deal in unconfirmed_for(match, seat)
        if account is None or deal.entered_by_id != account.pk
    ]
