"""A tournament's money, in the ledger: the fee and prize settings checked, each entry's fee
into the tournament's pot (the night's entries), fees given back, and at the end the prizes
and the club's share paid out of the pot (``prize_plan``, pure). The night's settlement then
settles them with everything else."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_DOWN, Decimal, InvalidOperation
from typing import Any

from scorebook.clubs.models import Player
from scorebook.core.people import User
from scorebook.ledger import services as ledger
from scorebook.ledger.models import Entry as LedgerEntry

from .. import selectors
from ..models import Tournament
from ..refusals import (
    PrizesOverPot,
    PrizeSplitOver,
    TournamentSettings,
)

CENT = Decimal("0.01")


def checked_amount(value: Any, path: str) -> Decimal:
    try:
        amount = Decimal(str(value))
    except (InvalidOperation, ValueError):
        raise TournamentSettings(path=path, problem=f"{value!r}") from None
    if not amount.is_finite() or amount < 0 or amount > Decimal("1000000"):
        raise TournamentSettings(path=path, problem=f"{value!r}")
    return amount.quantize(CENT)


def checked_prizes(kind: str, prizes: Sequence[Any], club_share: Any) -> tuple[list[str], Decimal]:
    """The prize split as stored (strings, two decimals) and the club's share; a split
    over 100% is refused."""
    if kind not in Tournament.PrizeKind.values:
        raise TournamentSettings(path="prize_kind", problem=str(kind)[:20])
    if not isinstance(prizes, (list, tuple)) or len(prizes) > 64:
        raise TournamentSettings(path="prizes", problem="a list of at most 64 places")
    amounts = [checked_amount(p, f"prizes[{i}]") for i, p in enumerate(prizes)]
    share = checked_amount(club_share, "club_share")
    if kind == Tournament.PrizeKind.PERCENT:
        total = sum(amounts, Decimal(0)) + share
        if total > 100:
            raise PrizeSplitOver(path="prizes", total=f"{total.normalize():f}")
    return [str(a) for a in amounts], share


def fee_in(tournament: Tournament, players: Sequence[Player], user: User) -> None:
    """Each player pays the entry fee into the tournament's pot (the night's entries)."""
    if not tournament.plays_for_money:
        return
    night = tournament.night
    pot = ledger.night_pot_account(night=night, pot=selectors.pot_name(tournament))
    accounts = ledger.player_accounts(tournament.club_id, [p.pk for p in players])
    ledger.night_book(
        night=night,
        moves=[(accounts[p.pk], pot, tournament.entry_fee) for p in players],
        kind=LedgerEntry.Kind.FEE,
        currency=tournament.currency,
        user=user,
    )


def refund(
    tournament: Tournament, user: User, player_ids: Sequence[int] | None = None
) -> list[LedgerEntry]:
    """Give back the fees still in the pot (the ledger entries reversed, so the night
    stays zero-sum): those ``player_ids`` paid, or every one."""
    pot = selectors.pot_account(tournament)
    if pot is None:
        return []
    fees = LedgerEntry.objects.filter(
        payee=pot, kind=LedgerEntry.Kind.FEE, reversed_by__isnull=True
    )
    if player_ids is not None:
        fees = fees.filter(payer__player_id__in=player_ids)
    return ledger.night_reverse(entries=list(fees), user=user)


def prize_plan(
    pot: Decimal,
    kind: str,
    prizes: Sequence[Decimal],
    club_share: Decimal,
    places: Sequence[tuple[int, Sequence[int]]],
) -> tuple[dict[int, Decimal], Decimal]:
    """(entry -> prize, the club's amount) out of ``pot`` (pure). Percentages are of the
    pot, rounded down to the cent; entries sharing a place share the prizes of the
    places they span. Whatever the prizes leave in the pot goes to the club, so the pot
    ends at zero."""
    if kind == Tournament.PrizeKind.PERCENT:
        amounts = [(pot * p / 100).quantize(CENT, rounding=ROUND_DOWN) for p in prizes]
    else:
        amounts = [Decimal(p) for p in prizes]
    won: dict[int, Decimal] = {}
    for place, entries in places:
        span = amounts[place - 1 : place - 1 + len(entries)]
        total = sum(span, Decimal(0))
        if not total:
            continue
        share = (total / len(entries)).quantize(CENT, rounding=ROUND_DOWN)
        for i, entry in enumerate(entries):
            won[entry] = share + (total - share * len(entries) if i == 0 else 0)
    paid = sum(won.values(), Decimal(0))
    # The club's share, a fixed amount with fixed prizes, is kept out of the pot first;
    # a percentage was checked with the prizes (at most 100% in all).
    reserved = club_share if kind == Tournament.PrizeKind.FIXED else Decimal(0)
    if paid + reserved > pot:
        raise PrizesOverPot(total=str(paid + reserved), pot=str(pot))
    return won, pot - paid


def _halves(amount: Decimal) -> tuple[Decimal, Decimal]:
    half = (amount / 2).quantize(CENT, rounding=ROUND_DOWN)
    return amount - half, half


def pay_prizes(tournament: Tournament, user: User) -> None:
    """Pay out of the pot: the prizes to the placed pairs (``prize_plan`` over
    ``selectors.final_places``; half to each player), the rest to the club's share."""
    pot = selectors.pot_balance(tournament)
    won, club = prize_plan(
        pot,
        tournament.prize_kind,
        [Decimal(p) for p in tournament.prizes],
        tournament.club_share,
        selectors.final_places(tournament),
    )
    entries = {e.pk: e for e in selectors.entries_of(tournament)}
    night = tournament.night
    pot_account = ledger.night_pot_account(night=night, pot=selectors.pot_name(tournament))
    ids = [pid for pk in won for pid in (entries[pk].first_id, entries[pk].second_id)]
    accounts = ledger.player_accounts(tournament.club_id, ids)
    moves = []
    for pk, amount in won.items():
        a, b = _halves(amount)
        moves.append((pot_account, accounts[entries[pk].first_id], a))
        moves.append((pot_account, accounts[entries[pk].second_id], b))
    club_account = ledger.night_pot_account(night=night, pot=selectors.CLUB_POT)
    moves.append((pot_account, club_account, club))
    ledger.night_book(
        night=night,
        moves=moves,
        kind=LedgerEntry.Kind.PRIZE,
        currency=tournament.currency,
        user=user,
    )
