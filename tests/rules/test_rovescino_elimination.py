"""Rovescino under ``rov.end = elimination_until_three_remain`` always either ends or takes
another deal (issue 31 item 8): a deal that put two out and left the other two level on
the lowest once left a match that did neither ("The 37NO deal table covers 3 players, not
2").

After every deal of a random match (any deal table and number of players it covers, any
target from 1, which puts players out several at a time, any level and house rules of the
deal's points) the match is finished, or at least three players are still in, the deal
table covers them, and a next deal is accepted at every level. Hypothesis draws the
matches; a fixed sweep makes sure they meet the cases the property is about.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorebook.rules import Rejection, games
from scorebook.rules.errors import Problems
from scorebook.rules.result import MatchState

GAME: Any = games()["rovescino"]
TABLES = ("DOS", "PAG-CIA", "OAS")
#: Deals before a match is left (most end well before: the targets are small).
MOST_DEALS = 80


def counts(table: str) -> list[int]:
    rules = GAME.rules({"rov.deal_table": table})
    return [n for n in GAME.player_counts if GAME.layout(rules, n, Problems()) is not None]


def goes_on(state: MatchState, rules: Any, rng: random.Random) -> None:
    """The match is over, or it takes a deal at every level (each on a copy)."""
    if state.finished:
        assert state.outcome is not None and state.outcome.reason == "elimination"
        return
    playing = GAME.playing(state)
    assert len(playing) >= 3, (playing, state.totals)
    assert GAME.layout(rules, len(playing), Problems()) is not None, playing
    for level in GAME.levels:
        copy = MatchState.from_dict(state.as_dict())
        deal = GAME.random_deal(rng, rules, copy, level)
        try:
            GAME.add_deal(copy, deal, rules)
        except Rejection as refused:  # pragma: no cover - the failure's words
            raise AssertionError(f"{level} deal refused with {playing} in: {refused}") from None


def play(spec: dict[str, Any], players: int, seed: int) -> tuple[str, int]:
    """A random match, checked after every deal: how it ended and how many went out."""
    rules = GAME.rules({**spec, "rov.end": "elimination_until_three_remain"})
    state = GAME.new_match(rules, players)
    rng = random.Random(seed)
    goes_on(state, rules, rng)
    for _ in range(MOST_DEALS):
        if state.finished:
            break
        level = rng.choice(GAME.levels)
        GAME.add_deal(state, GAME.random_deal(rng, rules, state, level), rules)
        goes_on(state, rules, rng)
    out = len(state.extra.get("out", ()))
    return ("ended" if state.finished else "going on"), out


@st.composite
def matches(draw: st.DrawFn) -> tuple[dict[str, Any], int]:
    table = draw(st.sampled_from(TABLES))
    spec = {
        "rov.deal_table": table,
        "rov.target": draw(st.integers(1, 25)),
        "rov.last_trick": draw(
            st.sampled_from(("plus_one_floor_rest", "plus_one_and_all_leftovers"))
        ),
        "rov.cappotto": draw(st.sampled_from(("off", "taker_zero_others_plus_11"))),
        "core.rounding": draw(
            st.sampled_from(("floor_per_scorer", "remainder_to_last_trick", "round_two_thirds_up"))
        ),
    }
    return spec, draw(st.sampled_from(counts(table)))


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(match=matches(), seed=st.integers(0, 2**32 - 1))
def test_the_elimination_always_ends_or_takes_a_deal(match, seed):
    spec, players = match
    play(spec, players, seed)


def test_the_sweep_meets_several_out_at_once_and_three_left_level():
    """Every table, every number of players it covers, targets 1 to 6: the matches end
    (none is left going on), some with players out, some with several out in one deal."""
    found: Counter[str] = Counter()
    for table in TABLES:
        for players in counts(table):
            for target in range(1, 7):
                for seed in range(3):
                    spec = {"rov.deal_table": table, "rov.target": target}
                    ended, out = play(spec, players, seed)
                    found[ended] += 1
                    found["with players out"] += out > 0
                    found["several out"] += out > 1
    assert found["going on"] == 0, found
    assert found["with players out"] >= 50 and found["several out"] >= 20, found
