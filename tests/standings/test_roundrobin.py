"""The circle method: everyone meets everyone, once per leg, at most once per round."""

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorebook.standings.leagues.roundrobin import circle_rounds

entries = st.lists(st.integers(0, 10_000), min_size=0, max_size=24, unique=True)


@given(entries, st.sampled_from([1, 2]))
def test_every_pair_meets_once_per_leg_and_nobody_twice_in_a_round(teams, legs):
    rounds = circle_rounds(teams, legs=legs)
    n = len(teams)
    assert len(rounds) == (0 if n < 2 else (n - 1 + n % 2) * legs)
    met = Counter()
    for r in rounds:
        playing = [e for pair in r.pairings for e in pair]
        assert len(playing) == len(set(playing)), "an entry plays twice in one round"
        resting = set(teams) - set(playing)
        assert resting == ({r.bye} if r.bye is not None else set())
        assert (r.bye is not None) == (n % 2 == 1)
        for home, away in r.pairings:
            met[frozenset((home, away))] += 1
    assert set(met) == {frozenset(p) for p in combinations(teams, 2)}
    assert set(met.values()) <= {legs}


@given(entries)
def test_odd_counts_rest_each_entry_exactly_once_per_leg(teams):
    byes = Counter(r.bye for r in circle_rounds(teams, legs=2) if r.bye is not None)
    if len(teams) % 2 and len(teams) > 1:
        assert byes == dict.fromkeys(teams, 2)
    else:
        assert not byes


@given(entries)
def test_home_and_away_are_balanced(teams):
    home, away = Counter(), Counter()
    for r in circle_rounds(teams):
        for h, a in r.pairings:
            home[h] += 1
            away[a] += 1
    for e in teams:
        assert abs(home[e] - away[e]) <= 1


@given(entries)
def test_the_second_leg_swaps_every_home(teams):
    rounds = circle_rounds(teams, legs=2)
    half = len(rounds) // 2
    first = {p for r in rounds[:half] for p in r.pairings}
    second = {p for r in rounds[half:] for p in r.pairings}
    assert second == {(a, h) for h, a in first}
    assert [r.leg for r in rounds] == [1] * half + [2] * half
    assert [r.number for r in rounds] == list(range(1, len(rounds) + 1))


def test_five_entries_worked_example():
    rounds = circle_rounds("ABCDE")
    assert [(r.pairings, r.bye) for r in rounds] == [
        ((("B", "E"), ("D", "C")), "A"),
        ((("C", "A"), ("E", "D")), "B"),
        ((("D", "B"), ("A", "E")), "C"),
        ((("E", "C"), ("B", "A")), "D"),
        ((("A", "D"), ("C", "B")), "E"),
    ]


def test_refuses_duplicates_and_odd_legs():
    with pytest.raises(ValueError):
        circle_rounds([1, 1, 2])
    with pytest.raises(ValueError):
        circle_rounds([1, 2], legs=3)
