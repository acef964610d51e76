"""Properties every game keeps, whatever the game: legal random deals score, breakdowns add
up, stakes are zero-sum, matches end and refuse further deals, and no input of any shape
gets anything but a result or a structured rejection."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorebook.rules import Rejection, games, score_deal
from scorebook.rules.result import DealResult

GAME_LEVELS = [(key, level) for key, game in sorted(games().items()) for level in game.levels]
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-50, 50)
    | st.text(max_size=6)
    | st.sampled_from(["Ad", "3c", "A", "B", "N", "P1", "P2", "soloist", "pass", "solo"]),
    lambda children: (
        st.lists(children, max_size=5)
        | st.dictionaries(
            st.text(max_size=8)
            | st.sampled_from(
                [
                    "sides",
                    "thirds",
                    "tricks",
                    "cards",
                    "last_trick",
                    "declarations",
                    "bids",
                    "claim",
                ]
            ),
            children,
            max_size=5,
        )
    ),
    max_leaves=20,
)


def check_result(result: DealResult) -> None:
    for scorer, lines in result.breakdown.items():
        assert sum(line.points for line in lines) == result.points.get(scorer, 0), scorer
    assert all(type(v) is int for v in result.points.values())
    assert sum(result.units.values()) + sum(result.pots.values()) == 0
    assert result.multiplier >= 1


@pytest.mark.skipif(not GAME_LEVELS, reason="no games registered yet")
@pytest.mark.parametrize("key,level", GAME_LEVELS)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_random_legal_deals_score(key, level, seed):
    game = games()[key]
    rules = game.rules(None)
    state = game.new_match(rules)
    deal = game.random_deal(random.Random(seed), rules, state, level)
    check_result(game.score_deal(deal, rules, state))


@pytest.mark.skipif(not GAME_LEVELS, reason="no games registered yet")
@pytest.mark.parametrize("key,level", GAME_LEVELS)
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1))
def test_random_matches_fold_and_refuse_deals_after_the_end(key, level, seed):
    game = games()[key]
    rules = game.rules(None)
    state = game.new_match(rules)
    rng = random.Random(seed)
    results = []
    for _ in range(60):
        if state.finished:
            break
        deal = game.random_deal(rng, rules, state, level)
        results.append(game.add_deal(state, deal, rules))
        check_result(results[-1])
    played = [d for d in results if not d.annulled]
    assert state.deals_played == len(results)
    assert state.deals_counted == len(played)
    if game.settlement == "match" and not any("pots" in d.facts for d in played):
        for scorer in state.scorers:
            assert state.totals[scorer] == sum(d.points.get(scorer, 0) for d in played)
    if state.finished:
        assert state.outcome is not None
        assert sum(state.outcome.units.values()) == 0
        with pytest.raises(Rejection) as caught:
            game.add_deal(state, game.random_deal(rng, rules, state, level), rules)
        assert "match.finished" in [p.code for p in caught.value.problems]


@pytest.mark.skipif(not GAME_LEVELS, reason="no games registered yet")
@pytest.mark.parametrize("key", sorted(games()))
@SETTINGS
@given(body=st.dictionaries(st.text(max_size=10), json_values, max_size=6))
def test_any_json_object_gets_a_result_or_a_rejection(key, body):
    try:
        score_deal({**body, "game": key})
    except Rejection as rejection:
        assert rejection.problems
        for problem in rejection.problems:
            assert problem.code and problem.en and problem.it


@pytest.mark.skipif(not GAME_LEVELS, reason="no games registered yet")
@pytest.mark.parametrize("key,level", GAME_LEVELS)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_one_mutated_field_gets_a_result_or_a_rejection(key, level, seed, data):
    game = games()[key]
    rules = game.rules(None)
    state = game.new_match(rules)
    deal = game.random_deal(random.Random(seed), rules, state, level)
    mutated = _mutate(deal, data)
    try:
        check_result(game.score_deal(mutated, rules, state))
    except Rejection as rejection:
        assert rejection.problems


def _mutate(value, data):
    """Replace, drop or descend into one randomly chosen place of a JSON value."""
    if isinstance(value, dict) and value:
        key = data.draw(st.sampled_from(sorted(value, key=str)))
        action = data.draw(st.sampled_from(["replace", "drop", "descend"]))
        out = dict(value)
        if action == "drop":
            del out[key]
        elif action == "replace":
            out[key] = data.draw(json_values)
        else:
            out[key] = _mutate(value[key], data)
        return out
    if isinstance(value, list) and value:
        i = data.draw(st.integers(0, len(value) - 1))
        out = list(value)
        out[i] = _mutate(value[i], data) if data.draw(st.booleans()) else data.draw(json_values)
        return out
    return data.draw(json_values)
