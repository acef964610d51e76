"""The settlement arithmetic: transfers reproduce every balance, and ``fewest`` is the
minimum (checked against an independent brute force on small groups)."""

import itertools
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorebook.ledger.transfers import EXACT_LIMIT, Unbalanced, fewest, split


def replay(transfers):
    nets = {}
    for payer, payee, amount in transfers:
        assert amount > 0 and payer != payee
        nets[payer] = nets.get(payer, 0) - amount
        nets[payee] = nets.get(payee, 0) + amount
    return {k: v for k, v in nets.items() if v}


def balanced(max_size):
    return st.lists(st.integers(-5000, 5000), min_size=1, max_size=max_size - 1).map(
        lambda values: {f"p{i}": v for i, v in enumerate([*values, -sum(values)])}
    )


def brute_minimum(values):
    """n - (largest number of zero-sum groups), by trying every partition."""
    live = tuple(v for v in values if v)

    @cache
    def groups(rest):
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = 0
        for size in range(len(others) + 1):
            for chosen in itertools.combinations(range(len(others)), size):
                if first + sum(others[i] for i in chosen) == 0:
                    left = tuple(v for i, v in enumerate(others) if i not in chosen)
                    best = max(best, 1 + groups(left))
        return best

    return len(live) - groups(live)


@given(balanced(12))
@settings(max_examples=300, deadline=None)
def test_split_reproduces_the_balances_in_at_most_n_minus_1(balances):
    transfers = split(balances)
    assert replay(transfers) == {k: v for k, v in balances.items() if v}
    assert len(transfers) <= max(0, sum(1 for v in balances.values() if v) - 1)


@given(balanced(8))
@settings(max_examples=300, deadline=None)
def test_fewest_is_the_minimum_and_reproduces_the_balances(balances):
    transfers = fewest(balances)
    assert replay(transfers) == {k: v for k, v in balances.items() if v}
    assert len(transfers) == brute_minimum(list(balances.values()))


@given(st.lists(st.integers(1, 300), min_size=2, max_size=8))
@settings(max_examples=100, deadline=None)
def test_fewest_finds_hidden_pairs_that_greedy_misses(amounts):
    # Pairs of equal and opposite balances always settle with one transfer each.
    balances = {}
    for i, amount in enumerate(amounts):
        balances[f"owes{i}"] = -amount
        balances[f"owed{i}"] = amount
    assert len(fewest(balances)) <= len(amounts)


def test_a_worked_example():
    # Nino +12, Ettore -7, Salvo -5, Walter +3, Pina -3: two groups {N, E, S} and {W, P}.
    balances = {"Nino": 1200, "Ettore": -700, "Salvo": -500, "Walter": 300, "Pina": -300}
    transfers = fewest(balances)
    assert sorted(transfers) == [
        ("Ettore", "Nino", 700),
        ("Pina", "Walter", 300),
        ("Salvo", "Nino", 500),
    ]


def test_above_the_exact_limit_it_still_settles_exactly():
    balances = {f"p{i}": (i % 7) - 3 for i in range(EXACT_LIMIT + 4)}
    balances["p0"] -= sum(balances.values())
    assert replay(fewest(balances)) == {k: v for k, v in balances.items() if v}


def test_unbalanced_input_is_refused():
    with pytest.raises(Unbalanced):
        fewest({"a": 5, "b": -4})
    with pytest.raises(Unbalanced):
        split({"a": 1})
