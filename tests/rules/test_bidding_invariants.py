"""Hypothesis: random legal Terziglio and Calabrasella deals keep Z4, Z5, Z7, K1, K2."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorebook.rules import games


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("settlement", ["race_points", "chips_zero_sum"])
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_terziglio_soloist_and_coalition_make_eleven(players, settlement, seed):
    game = games()["terziglio"]
    rules = game.rules({"terz.settlement": settlement})
    state = game.new_match(rules, players)
    result = game.score_deal(
        game.random_deal(random.Random(seed), rules, state, "cards"), rules, state
    )
    if result.facts.get("pass_out"):
        return
    side = result.facts["side_points"]
    assert side["soloist"] + side["coalition"] == 11  # Z4
    assert result.facts["soloist_won"] == (side["soloist"] >= 6)
    assert sum(result.facts["tricks"].values()) == 12  # Z5
    assert result.event in (None, "cappotto", "stramazzo")
    if settlement == "chips_zero_sum":
        assert sum(result.units.values()) == 0  # Z7
        soloist = result.facts["soloist"]
        assert abs(result.units[soloist]) == result.facts["value"] * (
            len(result.units) - 1 - (1 if players == 4 else 0)
        )


@pytest.mark.parametrize("players", [3, 4])
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_calabrasella_totals_35_and_result_is_odd(players, seed):
    game = games()["calabrasella"]
    rules = game.rules(None)
    state = game.new_match(rules, players)
    result = game.score_deal(
        game.random_deal(random.Random(seed), rules, state, "cards"), rules, state
    )
    if "result" not in result.facts:
        return
    points = result.facts["points"]
    assert points["bidder"] + points["opponents"] == 35  # K1
    b = points["bidder"]
    assert result.facts["result"] in (2 * b - 35, 70, -70)  # K2
    assert result.facts["result"] % 2 == 1 or abs(result.facts["result"]) == 70
    assert sum(result.units.values()) == 0
