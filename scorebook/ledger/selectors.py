"""Reads of the ledger: balances, what a night still owes, the plan that settles it, and
the settlement sheet as the API, CSV and PDF show it. Never imports the services."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, NamedTuple

from django.db.models import QuerySet, Sum

from scorebook.core.times import utc_iso
from scorebook.matches.models import Night

from . import transfers as math
from .models import Account, Entry, Settlement, Transfer

CENT = Decimal("0.01")


def _nonzero(groups: Mapping[Any, Mapping[int, Decimal]]) -> dict[Any, dict[int, Decimal]]:
    kept = {k: {a: v for a, v in g.items() if v} for k, g in groups.items()}
    return {k: g for k, g in kept.items() if g}


def balances(entries) -> dict[tuple[str, str], dict[int, Decimal]]:
    """(unit, currency) -> account id -> balance (positive: is owed) of ``entries``."""
    result: dict[tuple[str, str], dict[int, Decimal]] = defaultdict(dict)
    for side, sign in (("payee", 1), ("payer", -1)):
        rows = entries.values(side, "unit", "currency").annotate(total=Sum("amount"))
        for row in rows.order_by():
            group = result[(row["unit"], row["currency"])]
            total = Decimal(row["total"]).quantize(CENT)  # SQLite sums decimals as floats
            group[row[side]] = group.get(row[side], Decimal(0)) + sign * total
    return _nonzero(result)


def group_key(unit: str, currency: str) -> str:
    return f"{unit}:{currency}" if currency else unit


def remaining(night: Night) -> dict[tuple[str, str], dict[int, Decimal]]:
    """What each account is still owed (or owes) for the night, after paid transfers."""
    left = balances(Entry.objects.filter(night=night))
    paid = Transfer.objects.filter(settlement__night=night, paid_at__isnull=False)
    for t in paid:
        group = left.setdefault((t.unit, t.currency), {})
        group[t.payer_id] = group.get(t.payer_id, Decimal(0)) + t.amount
        group[t.payee_id] = group.get(t.payee_id, Decimal(0)) - t.amount
    return _nonzero(left)


def plan(night: Night) -> tuple[dict[tuple[str, str], dict[int, Decimal]], list[Transfer]]:
    """The night's remaining balances and the fewest transfers that settle them (unsaved)."""
    left = remaining(night)
    planned: list[Transfer] = []
    for (unit, currency), group in sorted(left.items()):
        cents = {account: int(value / CENT) for account, value in group.items()}
        for payer, payee, amount in math.fewest(cents):
            planned.append(
                Transfer(
                    payer_id=payer,
                    payee_id=payee,
                    amount=Decimal(amount) * CENT,
                    unit=unit,
                    currency=currency,
                )
            )
    return left, planned


def current_settlement(night: Night) -> Settlement | None:
    return night.settlements.order_by("-version").first()


def night_pots(night: Night) -> list[dict[str, Any]]:
    """What each table's pot (the piatto of marcio e batuffa) holds now, by table."""
    accounts = {
        a.pk: a
        for a in Account.objects.filter(night=night, match__isnull=True, pot__startswith="piatto")
    }
    if not accounts:
        return []
    held = balances(Entry.objects.filter(night=night, kind__in=["pot", "reversal"]))
    pots = []
    for (unit, currency), group in sorted(held.items()):
        for pk, amount in group.items():
            if pk in accounts:
                _, _, table = accounts[pk].pot.partition(":")
                pots.append(
                    {
                        "table": table or None,
                        "amount": _money(amount),
                        "unit": unit,
                        "currency": currency,
                    }
                )
    return sorted(pots, key=lambda p: (p["table"] is None, int(p["table"] or 0)))


class Holder(NamedTuple):
    """Who an account is, for people and programs: its name and its player (None for a
    pot), so an answer names the player beside the ledger's account id."""

    name: str
    player: int | None


def account_holders(ids) -> dict[int, Holder]:
    holders = {}
    for account in Account.objects.filter(pk__in=set(ids)).select_related("player"):
        if account.player is not None:
            holders[account.pk] = Holder(account.player.name, account.player_id)
        elif account.match_id is None:
            holders[account.pk] = Holder(f"pot {account.pot}", None)
        else:
            holders[account.pk] = Holder(f"pot {account.pot} (#{account.match_id})", None)
    return holders


def account_names(ids) -> dict[int, str]:
    return {pk: holder.name for pk, holder in account_holders(ids).items()}


def _money(value: Decimal) -> str:
    return f"{value:.2f}"


def transfer_dict(t: Transfer, holders: dict[int, Holder]) -> dict[str, Any]:
    """A transfer: the ledger accounts that pay and are paid, and beside each its name
    and its player's id (None when the account is a pot)."""
    payer, payee = holders[t.payer_id], holders[t.payee_id]
    return {
        "id": t.pk,
        "payer": t.payer_id,
        "payer_name": payer.name,
        "payer_player": payer.player,
        "payee": t.payee_id,
        "payee_name": payee.name,
        "payee_player": payee.player,
        "amount": _money(t.amount),
        "unit": t.unit,
        "currency": t.currency,
        "paid_at": utc_iso(t.paid_at),
        "paid_by": t.paid_by.username if t.paid_by is not None else None,
    }


def match_lines(night: Night) -> list[dict[str, Any]]:
    """Each match of the night with what it moved per account."""
    lines = []
    for match in night.matches.select_related("table").order_by("id"):
        moved = balances(Entry.objects.filter(match=match))
        lines.append(
            {
                "id": match.pk,
                "game": match.game,
                "table": str(match.table) if match.table else None,
                "status": match.status,
                "seats": match.seats,
                "winners": (match.result or {}).get("winners", []),
                "multiplier": (match.result or {}).get("multiplier", 1),
                "totals": (match.result or {}).get("totals") or match.state.get("totals", {}),
                "stake": _money(match.stake_amount),
                "currency": match.stake_currency,
                "moved": {
                    group_key(*key): {str(a): _money(v) for a, v in group.items()}
                    for key, group in moved.items()
                },
            }
        )
    return lines


def sheet(night: Night) -> dict[str, Any]:
    """The night's settlement: the stored current version when the night has one, else a
    provisional plan (not stored). Nets are the ledger's; transfers settle what is left
    after the payments already marked."""
    current = current_settlement(night)
    nets = balances(Entry.objects.filter(night=night))
    paid = list(
        Transfer.objects.filter(settlement__night=night, paid_at__isnull=False)
        .select_related("paid_by")
        .order_by("paid_at", "id")
    )
    if current is not None:
        open_ones = list(current.transfers.filter(paid_at__isnull=True).select_related("paid_by"))
    else:
        open_ones = plan(night)[1]
    ids = [a for group in nets.values() for a in group]
    ids += [t.payer_id for t in paid + open_ones] + [t.payee_id for t in paid + open_ones]
    holders = account_holders(ids)
    groups = []
    for unit, currency in sorted(nets):
        group = nets[(unit, currency)]
        groups.append(
            {
                "unit": unit,
                "currency": currency,
                "nets": [
                    {
                        "account": a,
                        "name": holders[a].name,
                        "player": holders[a].player,
                        "net": _money(v),
                    }
                    for a, v in sorted(
                        group.items(), key=lambda item: (-item[1], holders[item[0]].name)
                    )
                ],
            }
        )
    return {
        "night": night.pk,
        "date": night.date.isoformat(),
        "status": night.status,
        "version": current.version if current else None,
        "provisional": current is None,
        "computed_at": utc_iso(current.computed_at) if current else None,
        "groups": groups,
        "transfers": [transfer_dict(t, holders) for t in open_ones],
        "paid": [transfer_dict(t, holders) for t in paid],
        "method": (
            "fewest transfers: exact up to 16 accounts with a non-zero balance per currency "
            "(dynamic programming over zero-sum groups), pairing then largest-first above"
        ),
    }


def history(night: Night) -> QuerySet[Settlement]:
    return night.settlements.order_by("-version").prefetch_related("transfers")


def sheet_export(night: Night) -> tuple[list[list[str]], str]:
    """The night's sheet as rows (for the CSV and the PDF) and a file name for them."""
    from scorebook.clubs.models import Player

    from . import exports

    names = dict(Player.objects.filter(club_id=night.club_id).values_list("id", "name"))
    rows = exports.sheet_rows(night.club.name, sheet(night), match_lines(night), names)
    return rows, f"settlement-{night.club.slug}-{night.date.isoformat()}"
