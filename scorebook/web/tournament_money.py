"""The tournament page's prizes card in words (reads only): before the end, the pot as it
stands and what each place would take of it; after the end, the pot as it was before the
payout and who was paid what ("1st Nino & Salvo 60.00 EUR"), read from the ledger's prize
entries out of the tournament's pot (``selectors.prizes_paid``, as the final standings' PDF
and CSV), so the card says what was booked, not a recount."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal

from scorebook.tournaments import selectors
from scorebook.tournaments.models import Entry, Tournament

CENT = Decimal("0.01")


@dataclass
class PrizeLine:
    place: int
    entries: list[Entry]
    amount: Decimal
    percent: str | None = None


@dataclass
class PrizeCard:
    plays_for_money: bool
    finished: bool = False
    entry_fee: Decimal = Decimal("0.00")
    currency: str = ""
    pot: Decimal = Decimal("0.00")
    pot_before: Decimal = Decimal("0.00")
    lines: list[PrizeLine] | None = None
    club: Decimal = Decimal("0.00")
    club_percent: str | None = None


def prize_card(tournament: Tournament) -> PrizeCard:
    if not tournament.plays_for_money:
        return PrizeCard(plays_for_money=False)
    pot = selectors.pot_balance(tournament)
    card = PrizeCard(
        plays_for_money=True,
        entry_fee=tournament.entry_fee,
        currency=tournament.currency,
        pot=pot,
        pot_before=pot,
    )
    percent = tournament.prize_kind == Tournament.PrizeKind.PERCENT
    if tournament.status == Tournament.Status.FINISHED:
        card.finished = True
        paid, club = selectors.prizes_paid(tournament)
        lines = [PrizeLine(place, [entry], won.quantize(CENT)) for place, entry, won in paid]
        card.lines = lines
        card.club = club.quantize(CENT)
        card.pot_before = (pot + sum((x.amount for x in lines), Decimal(0)) + club).quantize(CENT)
        return card
    lines = []
    for i, prize in enumerate(tournament.prizes, start=1):
        value = Decimal(prize)
        if percent:
            amount = (pot * value / 100).quantize(CENT, rounding=ROUND_DOWN)
            lines.append(PrizeLine(i, [], amount, _percent(value)))
        else:
            lines.append(PrizeLine(i, [], value.quantize(CENT)))
    card.lines = lines
    share = Decimal(tournament.club_share)
    if percent:
        card.club_percent = _percent(share)
        card.club = (pot * share / 100).quantize(CENT, rounding=ROUND_DOWN)
    else:
        card.club = share.quantize(CENT)
    return card


def _percent(value: Decimal) -> str:
    """60.00 -> "60", 12.50 -> "12.5" (never "6E+1")."""
    return f"{value.normalize():f}"
