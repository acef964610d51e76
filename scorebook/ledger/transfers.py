"""Turning balances into transfers: plain Python, no Django (like the rules engine).

Balances are integers in the smallest unit (cents, points or chips), positive for who is
owed, and sum to zero. Two jobs:

* ``split``: any short list of transfers that reproduces the balances (at most n - 1),
  deterministic; the ledger uses it to book a deal's or a match's stake changes.
* ``fewest``: the fewest transfers that settle a night. A settlement of n non-zero balances
  needs n - k transfers, where k is the largest number of groups the players can be split
  into so that each group's balances sum to zero (each group settles within itself with
  size - 1 transfers, and no settlement does better). k is found exactly by dynamic
  programming over subsets, O(2^n * n): exact up to ``EXACT_LIMIT`` non-zero balances
  (four tables of four); beyond that, equal and opposite amounts are paired first and the
  rest split largest-first, which is at most n - 1 transfers but not always the fewest.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

K = TypeVar("K", bound=Hashable)
Transfer = tuple[K, K, int]  # payer, payee, amount > 0

EXACT_LIMIT = 16


class Unbalanced(ValueError):
    """The balances do not sum to zero: something was booked on one side only."""


def _check(balances: Mapping[K, int]) -> None:
    total = sum(balances.values())
    if total != 0:
        raise Unbalanced(f"balances sum to {total}, not 0")


def split(balances: Mapping[K, int]) -> list[Transfer[K]]:
    """Largest debtor pays largest creditor until all are square (ties by given order)."""
    _check(balances)
    order = {key: i for i, key in enumerate(balances)}
    debtors = sorted(
        ((-v, order[k], k) for k, v in balances.items() if v < 0), key=lambda t: (-t[0], t[1])
    )
    creditors = sorted(
        ((v, order[k], k) for k, v in balances.items() if v > 0), key=lambda t: (-t[0], t[1])
    )
    # [amount still to pay or receive, who]: mutable pairs, worked down below.
    owed: list[tuple[int, K]] = [(amount, key) for amount, _, key in debtors]
    due: list[tuple[int, K]] = [(amount, key) for amount, _, key in creditors]
    transfers: list[Transfer[K]] = []
    i = j = 0
    while i < len(owed) and j < len(due):
        amount = min(owed[i][0], due[j][0])
        transfers.append((owed[i][1], due[j][1], amount))
        owed[i] = (owed[i][0] - amount, owed[i][1])
        due[j] = (due[j][0] - amount, due[j][1])
        if owed[i][0] == 0:
            i += 1
        if due[j][0] == 0:
            j += 1
    return transfers


def _zero_sum_groups(keys: Sequence[K], amounts: Sequence[int]) -> list[list[K]]:
    """The largest partition of ``keys`` into zero-sum groups (dynamic programming)."""
    n = len(keys)
    full = (1 << n) - 1
    sums = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + amounts[low.bit_length() - 1]
    best = [0] * (1 << n)
    for mask in range(1, 1 << n):
        top = 0
        rest = mask
        while rest:
            low = rest & -rest
            rest ^= low
            value = best[mask ^ low]
            if value > top:
                top = value
        best[mask] = top + (1 if sums[mask] == 0 else 0)
    # Walk down the best path; the members removed between two zero-sum masks form a group.
    groups: list[list[K]] = []
    mask, group = full, []
    while mask:
        rest, pick = mask, 0
        while rest:
            low = rest & -rest
            rest ^= low
            if best[mask ^ low] == best[mask] - (1 if sums[mask] == 0 else 0):
                pick = low
                break
        group.append(keys[pick.bit_length() - 1])
        mask ^= pick
        if sums[mask] == 0:
            groups.append(group)
            group = []
    return groups


def _paired_then_split(balances: dict[K, int]) -> list[Transfer[K]]:
    transfers: list[Transfer[K]] = []
    creditors: dict[int, list[K]] = {}
    for key, value in balances.items():
        if value > 0:
            creditors.setdefault(value, []).append(key)
    for key, value in list(balances.items()):
        if value < 0 and creditors.get(-value):
            payee = creditors[-value].pop(0)
            transfers.append((key, payee, -value))
            balances[key] = balances[payee] = 0
    return transfers + split({k: v for k, v in balances.items() if v})


def fewest(balances: Mapping[K, int]) -> list[Transfer[K]]:
    """The fewest transfers that settle ``balances`` (exact up to EXACT_LIMIT)."""
    _check(balances)
    live = {k: v for k, v in balances.items() if v}
    if len(live) > EXACT_LIMIT:
        return _paired_then_split(live)
    keys = list(live)
    transfers: list[Transfer[K]] = []
    for group in _zero_sum_groups(keys, [live[k] for k in keys]):
        transfers += split({k: live[k] for k in sorted(group, key=keys.index)})
    return transfers
