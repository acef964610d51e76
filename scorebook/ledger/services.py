"""Booking stakes and settling nights, inside the callers' transactions.

``match_book`` makes a match's live entries say what its current deals and result say:
entries that no longer hold are reversed, missing ones booked; nothing is edited or
deleted. ``night_settle`` turns a night's balances, less what was already paid, into the
fewest transfers, as a new settlement version when anything changed.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorebook.clubs.models import Role
from scorebook.clubs.services import require_role
from scorebook.core.people import User
from scorebook.core.refusals import Refusal
from scorebook.matches.models import Deal, Match, Night, Table
from scorebook.rules import DealResult, MatchState, games, get_game
from scorebook.rules.stakes import POT, PotMatch, PotMove, piatto

from . import transfers as math
from .models import Account, Entry, Settlement, Transfer, Unit
from .selectors import CENT, balances, current_settlement, group_key, plan


class Superseded(Refusal):
    """The transfer belongs to a settlement that a newer one replaced."""

    code = "settlement.superseded"
    status = 409
    message = _("The settlement changed since: mark the transfers of the current one.")


def unit_of(match: Match) -> tuple[str, str, Decimal]:
    """(unit, currency, value of one engine unit) for a match's stake settings."""
    if match.stake_unit == Match.StakeUnit.MONEY:
        return Unit.MONEY, match.stake_currency, Decimal(match.stake_amount)
    return Unit.POINTS, "", Decimal(match.stake_amount) if match.stake_amount else Decimal(1)


def _accounts(match: Match, club_id: int, pots: Iterable[str]) -> dict[str, Account]:
    """Seat or ``pot:<name>`` -> account, created on first use."""
    found = player_accounts(club_id, match.seats.values())
    accounts = {seat: found[pid] for seat, pid in match.seats.items()}
    for name in pots:
        accounts[f"pot:{name}"] = Account.objects.get_or_create(
            club_id=club_id, match=match, pot=name
        )[0]
    return accounts


def player_accounts(club_id: int, player_ids: Iterable[int]) -> dict[int, Account]:
    """Player id -> his account, created on first use, safe when bookings race.

    Two matches with the same players may book their first entries at the same moment
    (two matches of a table finishing together): each would find no account and create
    one, and the second insert broke the one-account-per-player constraint (an
    IntegrityError, so a 500, found by tests/ledger/test_piatto_concurrency.py on
    PostgreSQL). The missing accounts are inserted in player order with ON CONFLICT DO
    NOTHING (which waits for a racing insert to commit) and read back.
    """
    wanted = sorted(set(player_ids))
    found: dict[int, Account] = {}
    found.update(
        (pid, a)
        for a in Account.objects.filter(player_id__in=wanted, pot="")
        if (pid := a.player_id) is not None
    )
    missing = [pid for pid in wanted if pid not in found]
    if missing:
        Account.objects.bulk_create(
            [Account(club_id=club_id, player_id=pid) for pid in missing], ignore_conflicts=True
        )
        found.update(
            (pid, a)
            for a in Account.objects.filter(player_id__in=missing, pot="")
            if (pid := a.player_id) is not None
        )
    return found


Moves = list[tuple[str, str, int]]  # payer, payee (seat or "pot:<name>"), engine units


def _moves(units: dict[str, int]) -> Moves:
    return math.split({k: v for k, v in units.items() if v})


def match_book(
    *,
    match: Match,
    club_id: int,
    state: MatchState,
    deals: Mapping[Deal, DealResult | None],
    user: User,
    was_finished: bool,
) -> None:
    """Bring the match's live entries in line with what the engine says.

    ``deals`` are the deal rows whose bookings may have changed, with their new result,
    or None for a version that no longer counts (superseded by a correction). The match
    result's booking is always brought in line: an abandoned match's books nothing, as
    its abandonment did, whatever a correction of its deals makes of them (it counts for
    nothing; the stakes its deals booked stay). Raises ``Unbalanced`` if the engine's
    units do not sum to zero, which refuses the write.
    """
    game = get_game(match.game)
    per_deal = game.settles_per_deal(game.rules(match.rules["values"]))
    if not per_deal and not was_finished and not state.finished:
        return  # nothing was booked and nothing is due yet
    abandoned = match.status == Match.Status.ABANDONED
    wanted = _wanted_moves(None if abandoned else state, deals, per_deal)
    live = _live_entries(match, wanted)
    pots = {
        name[4:]
        for _, moves in wanted.values()
        for payer, payee, _ in moves
        for name in (payer, payee)
        if name.startswith("pot:")
    }
    needs_accounts = any(moves for _, moves in wanted.values())
    accounts = _accounts(match, club_id, pots) if needs_accounts else {}
    unit, currency, value = unit_of(match)
    new: list[Entry] = []
    for source, (booked, moves) in wanted.items():

        def book(payer: int, payee: int, amount: Decimal, booked: Deal | None = booked) -> Entry:
            return Entry(
                club_id=club_id,
                night_id=match.night_id,
                match=match,
                deal=booked,
                deal_version=booked.version if booked else None,
                match_version=match.version,
                kind=Entry.Kind.DEAL if booked else Entry.Kind.MATCH,
                payer_id=payer,
                payee_id=payee,
                amount=amount,
                unit=unit,
                currency=currency,
                booked_by=user,
            )

        def reverse(entry: Entry) -> Entry:
            return _reversal(
                entry,
                user,
                club_id=club_id,
                night_id=match.night_id,
                match=match,
                deal_id=entry.deal_id,
                deal_version=entry.deal_version,
                match_version=match.version,
            )

        want = Counter(
            (accounts[a].pk, accounts[b].pk, amount)
            for a, b, n in moves
            if (amount := (value * n).quantize(CENT)) > 0  # a stake of 0: nothing changes hands
        )
        new += _rebooked(want, live.get(source, []), reverse, book)
    Entry.objects.bulk_create(new)
    if has_piatto(match):
        piatto_book(night_id=match.night_id, table_id=match.table_id, club_id=club_id, user=user)


def _wanted_moves(
    state: MatchState | None, deals: Mapping[Deal, DealResult | None], per_deal: bool
) -> dict[int | None, tuple[Deal | None, Moves]]:
    """What each source should have booked, by deal id (None: the match's result): a
    deal's units and pots where stakes settle per deal, else the match's outcome (none
    without ``state``: an abandoned match's result books nothing)."""
    wanted: dict[int | None, tuple[Deal | None, Moves]] = {None: (None, [])}
    for deal, result in deals.items():
        moves: Moves = []
        if per_deal and result is not None:
            moves = _moves({**result.units, **{f"pot:{k}": v for k, v in result.pots.items()}})
        wanted[deal.pk] = (deal, moves)
    if not per_deal and state is not None and state.outcome is not None:
        wanted[None] = (None, _moves(dict(state.outcome.units)))
    return wanted


def _live_entries(
    match: Match, wanted: Mapping[int | None, object]
) -> dict[int | None, list[Entry]]:
    """The match's live deal and match entries of those sources, by deal id."""
    live: dict[int | None, list[Entry]] = defaultdict(list)
    for entry in Entry.objects.filter(
        Q(deal_id__in=[pk for pk in wanted if pk is not None]) | Q(kind=Entry.Kind.MATCH),
        match=match,
        kind__in=[Entry.Kind.DEAL, Entry.Kind.MATCH],
        reversed_by__isnull=True,
    ):
        live[entry.deal_id].append(entry)
    return live


def _rebooked(
    want: Counter[tuple[int, int, Decimal]],
    live: list[Entry],
    reverse: Callable[[Entry], Entry],
    book: Callable[[int, int, Decimal], Entry],
) -> list[Entry]:
    """The entries that bring one source's ``live`` entries in line with ``want``
    (payer, payee, amount: how many times): none when they agree, else each live entry
    reversed and each wanted move booked anew."""
    have = Counter((e.payer_id, e.payee_id, e.amount) for e in live)
    if want == have:
        return []
    new = [reverse(entry) for entry in live]
    new += [book(*move) for move, times in want.items() for _ in range(times)]
    return new


# -- the piatto: a night's pot, carried from match to match at a table -------------------


def has_piatto(match: Match) -> bool:
    """Tressette in pairs under marcio e batuffa plays for a pot as well as the stake."""
    return get_game(match.game).plays_for_pot((match.rules or {}).get("values", {}))


def _pot_games() -> list[str]:
    """The games whose matches may play for a table's pot (the engine says which)."""
    return [key for key, game in games().items() if game.pot_game]


def _pot_name(table_number: int | None) -> str:
    return f"piatto:{table_number}" if table_number is not None else "piatto"


def piatto_book(*, night_id: int, table_id: int | None, club_id: int, user: User) -> None:
    """Bring the pot entries of a table's matches in line with what the engine says.

    The matches at one table of a night are the code's meeting ("incontro"): the pot is
    fed before each match and taken by a cappotto, so what a match moves depends on the
    ones before it. The whole table is recomputed, in the order the matches were made,
    and only the entries that no longer hold are reversed and booked again. The pot's
    account row is locked first, so two matches of one table finishing at once book in
    turn (after their own match rows: the same order as ``night_close``).
    """
    night = Night.objects.get(pk=night_id)
    number = None
    at_table = Match.objects.filter(night=night, game__in=_pot_games()).order_by("id")
    if table_id is None:
        at_table = at_table.filter(table__isnull=True)
    else:
        at_table = at_table.filter(table_id=table_id)
        number = Table.objects.values_list("number", flat=True).get(pk=table_id)
    account = Account.objects.get_or_create(club_id=club_id, night=night, pot=_pot_name(number))[0]
    Account.objects.select_for_update().get(pk=account.pk)
    chain = [m for m in at_table if m.status == Match.Status.FINISHED and has_piatto(m)]
    seated = {str(pid) for m in chain for pid in m.seats.values()}
    found = {str(pid): a for pid, a in player_accounts(club_id, (int(p) for p in seated)).items()}
    plans = piatto([_pot_match(m) for m in chain], closed=night.status == Night.Status.CLOSED)
    wanted: dict[int, tuple[Match | None, list[PotMove]]] = {
        m.pk: (m, moves) for m, moves in zip(chain, plans, strict=True)
    }
    live: dict[int, list[Entry]] = defaultdict(list)
    for entry in Entry.objects.filter(
        match__in=at_table, kind=Entry.Kind.POT, reversed_by__isnull=True
    ).select_related("match"):
        live[entry.match_id or 0].append(entry)  # match__in: never None
    key = {POT: account.pk, **{p: a.pk for p, a in found.items()}}
    new: list[Entry] = []
    for pk in sorted(set(wanted) | set(live)):
        m, moves = wanted.get(pk, (None, []))

        def book(payer: int, payee: int, amount: Decimal, m: Match | None = m) -> Entry:
            assert m is not None  # a match no longer in the chain wants nothing
            unit, currency, _ = unit_of(m)
            return Entry(
                club_id=club_id,
                night=night,
                match=m,
                match_version=m.version,
                kind=Entry.Kind.POT,
                payer_id=payer,
                payee_id=payee,
                amount=amount,
                unit=unit,
                currency=currency,
                booked_by=user,
            )

        def reverse(entry: Entry, pk: int = pk) -> Entry:
            return _reversal(
                entry,
                user,
                club_id=club_id,
                night_id=night.pk,
                match_id=pk,
                match_version=entry.match.version if entry.match else 0,
            )

        want = Counter((key[mv.payer], key[mv.payee], mv.amount) for mv in moves)
        new += _rebooked(want, live.get(pk, []), reverse, book)
    Entry.objects.bulk_create(new)


def _pot_match(m: Match) -> PotMatch:
    """A finished match of the table's chain as the pot's arithmetic reads it."""
    result = m.result or {}
    winners = tuple(str(m.seats[s]) for s in result["winners"])
    return PotMatch(
        players=tuple(str(m.seats[s]) for s in sorted(m.seats)),
        winners=winners,
        stake=_stake_value(m),
        purse="/".join(unit_of(m)[:2]),
        takes_pot=result.get("piatto") == "won",
        doubled_by=winners if result.get("pot") == "doubled" else (),
    )


def _stake_value(match: Match) -> Decimal:
    return unit_of(match)[2]


def night_pots_book(*, night: Night, user: User) -> None:
    """Book every table's pot of a night again (at its close what is left goes back)."""
    tables = {
        m.table_id
        for m in Match.objects.filter(night=night, game__in=_pot_games())
        if has_piatto(m) and m.status == Match.Status.FINISHED
    }
    for table_id in sorted(tables, key=lambda t: (t is None, t or 0)):
        piatto_book(night_id=night.pk, table_id=table_id, club_id=night.club_id, user=user)


# -- settlement ---------------------------------------------------------------------------


def _same(planned: list[Transfer], settlement: Settlement | None) -> bool:
    if settlement is None:
        return not planned
    open_ones = settlement.transfers.filter(paid_at__isnull=True)
    key = lambda t: (t.payer_id, t.payee_id, t.amount, t.unit, t.currency)  # noqa: E731
    return Counter(map(key, open_ones)) == Counter(map(key, planned))


@transaction.atomic
def night_settle(*, night: Night, user: User) -> Settlement | None:
    """Compute the night's settlement; a new version only when it changed."""
    require_role(user, night.club_id, Role.DIRECTOR)
    Night.objects.select_for_update().get(pk=night.pk)
    entries = Entry.objects.filter(night=night)
    zero_sum_check(entries)
    nets = balances(entries)
    _, planned = plan(night)
    current = current_settlement(night)
    if current is not None and _same(planned, current):
        return current
    settlement = Settlement.objects.create(
        night=night,
        version=(current.version + 1) if current else 1,
        nets={
            group_key(*k): {str(a): str(v) for a, v in g.items()} for k, g in sorted(nets.items())
        },
        computed_by=user,
    )
    for transfer in planned:
        transfer.settlement = settlement
    Transfer.objects.bulk_create(planned)
    return settlement


@transaction.atomic
def transfer_mark_paid(*, transfer: Transfer, user: User) -> Transfer:
    """A director records that the money changed hands (who, when); twice is once."""
    transfer = Transfer.objects.select_for_update().select_related("settlement").get(pk=transfer.pk)
    night = transfer.settlement.night
    require_role(user, night.club_id, Role.DIRECTOR)
    current = current_settlement(night)
    if current is None or current.pk != transfer.settlement_id:
        raise Superseded()
    if transfer.paid_at is None:
        transfer.paid_at = timezone.now()
        transfer.paid_by = user
        transfer.save(update_fields=["paid_at", "paid_by"])
    return transfer


def zero_sum_check(entries) -> None:
    """Every balance of ``entries`` (a match's, a night's, a club's) sums to zero."""
    for key, group in balances(entries).items():
        if sum(group.values(), Decimal(0)) != 0:
            raise math.Unbalanced(f"{key}: {sum(group.values())}")


# -- a night's own entries: fees into a pot and what the pot pays out ----------------------


def night_pot_account(*, night: Night, pot: str) -> Account:
    """The night's account called ``pot`` (a tournament's pot, the club's share), created
    on first use."""
    return Account.objects.get_or_create(club_id=night.club_id, night=night, pot=pot)[0]


def night_book(
    *,
    night: Night,
    moves: Iterable[tuple[Account, Account, Decimal]],
    kind: str,
    currency: str,
    user: User | None,
) -> list[Entry]:
    """Book ``moves`` (payer, payee, amount) as the night's entries of ``kind`` (fees and
    prizes: no match), in money of ``currency``. Every move is a transfer between two
    accounts, so the night stays zero-sum; a zero amount books nothing."""
    if kind not in (Entry.Kind.FEE, Entry.Kind.PRIZE):
        raise ValueError(f"a night books fees or prizes, not {kind!r}")
    rows = [
        Entry(
            club_id=night.club_id,
            night=night,
            kind=kind,
            payer=payer,
            payee=payee,
            amount=amount,
            unit=Unit.MONEY,
            currency=currency,
            booked_by=user,
        )
        for payer, payee, amount in moves
        if amount > 0
    ]
    return Entry.objects.bulk_create(rows)


def night_reverse(*, entries: Iterable[Entry], user: User | None) -> list[Entry]:
    """Reverse night entries (a fee refunded): each gets its mirror image, linked to it;
    nothing is edited or deleted. An entry already reversed is left alone."""
    rows = [_reversal(e, user) for e in entries if not Entry.objects.filter(reverses=e).exists()]
    return Entry.objects.bulk_create(rows)


def _reversal(entry: Entry, user: User | None, **where: Any) -> Entry:
    """The mirror image of a live entry, linked to it (what undoes it in the books): the
    same amount from its payee back to its payer. ``where`` places it (the club, night,
    match and versions it is booked at), by default where the entry stood."""
    return Entry(
        **{"club_id": entry.club_id, "night_id": entry.night_id, **where},
        kind=Entry.Kind.REVERSAL,
        payer_id=entry.payee_id,
        payee_id=entry.payer_id,
        amount=entry.amount,
        unit=entry.unit,
        currency=entry.currency,
        reverses=entry,
        booked_by=user,
    )
