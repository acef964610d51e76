"""``Game.random_deal`` builds only deals the engine accepts, under every house rule
(issue 31 item 8): the benches, the history bench's file and the properties build their
matches from it, so a deal it makes that the engine refuses is a hole in all of them.

Every game, every value of every switch (``switch_forms``), every level: a random match
deal by deal, each deal accepted, until the match ends or ``DEALS`` deals are in. Then
hypothesis combines several switch values at once.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorebook.rules import Rejection, games
from tests.rules.switch_forms import combined_spec, forms, player_counts

#: Deals per random match (most matches end before; a chips match never ends by itself).
DEALS = 12


def play(key: str, spec: dict[str, Any], players: int, level: str, seed: int, deals: int) -> int:
    """A random match, deal by deal: the number of deals the engine accepted (all of
    those ``random_deal`` made, or the refusal fails the test)."""
    game = games()[key]
    rules = game.rules(spec)
    state = game.new_match(rules, players)
    rng = random.Random(seed)
    played = 0
    while not state.finished and played < deals:
        deal = game.random_deal(rng, rules, state, level)
        try:
            game.add_deal(state, deal, rules)
        except Rejection as refused:  # pragma: no cover - the failure's words
            pytest.fail(f"{key} {spec} {players}p {level}: {deal} refused: {refused}")
        played += 1
    return played


@pytest.mark.parametrize("key", sorted(games()))
def test_every_house_rule_value_at_every_level(key):
    game = games()[key]
    accepted = 0
    for index, (_, spec) in enumerate(forms(key)):
        allowed = player_counts(game, spec)
        for shift, level in enumerate(game.levels):
            players = allowed[(index + shift) % len(allowed)]
            accepted += play(key, spec, players, level, index, DEALS)
    assert accepted >= len(forms(key)) * len(game.levels)


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_combined_house_rules(data, seed):
    key = data.draw(st.sampled_from(sorted(games())), label="game")
    spec = data.draw(combined_spec(key), label="rules")
    game = games()[key]
    try:
        game.rules(spec)
    except Rejection:
        return
    allowed = player_counts(game, spec)
    if not allowed:
        return
    players = data.draw(st.sampled_from(allowed), label="players")
    level = data.draw(st.sampled_from(game.levels), label="level")
    play(key, spec, players, level, seed, 30)
