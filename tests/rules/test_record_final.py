"""``Game.record_final``: a match with no deals closed by its final totals gets the result
the game's end gives those totals. For every game settled once per match, a match played
to its target with random legal deals, then recorded by its final totals alone, ends the
same: the same winners, losers, stake units and reason (matches ended by an event or a
claim are left out: a final score does not say there was one)."""

from __future__ import annotations

import random

import pytest

from scorebook.rules import Rejection, games

ONCE_PER_MATCH = sorted(
    key for key, g in games().items() if not g.settles_per_deal(g.rules({})) and not g.deal_contest
)
PER_DEAL = sorted(
    key for key, g in games().items() if g.settles_per_deal(g.rules({})) or g.deal_contest
)


@pytest.mark.parametrize("key", ONCE_PER_MATCH)
def test_the_final_totals_give_the_result_the_deals_gave(key):
    game = games()[key]
    rules = game.rules({})
    rng = random.Random(key)
    compared = 0
    for _ in range(40):
        state = game.new_match(rules)
        while not state.finished and state.deals_played < 500:
            game.add_deal(state, game.random_deal(rng, rules, state, "totals"), rules)
        if not state.finished or state.outcome.reason not in ("target", "deals", "deal"):
            continue
        recorded = game.new_match(rules)
        outcome = game.record_final(recorded, dict(state.totals), rules)
        live = state.outcome
        assert (outcome.winners, outcome.losers, dict(outcome.units), outcome.reason) == (
            live.winners,
            live.losers,
            dict(live.units),
            live.reason,
        )
        assert recorded.finished and outcome.detail["final_score"] is True
        compared += 1
    assert compared >= 10


@pytest.mark.parametrize("key", PER_DEAL)
def test_a_game_settled_or_rated_per_deal_refuses_a_final_score(key):
    game = games()[key]
    rules = game.rules({})
    state = game.new_match(rules)
    with pytest.raises(Rejection) as rejected:
        game.record_final(state, dict.fromkeys(state.scorers, 10), rules)
    assert rejected.value.problems[0].code in ("final.per_deal", "final.per_deal_contest")


def test_totals_that_end_no_match_and_wrong_scorers_are_refused():
    game = games()[ONCE_PER_MATCH[0]]
    rules = game.rules({})
    state = game.new_match(rules)
    with pytest.raises(Rejection) as rejected:
        game.record_final(state, dict.fromkeys(state.scorers, 0), rules)
    assert [p.code for p in rejected.value.problems] == ["final.not_over"]
    with pytest.raises(Rejection) as rejected:
        game.record_final(state, {"X": 1}, rules)
    assert [p.code for p in rejected.value.problems] == ["final.scorers"]
    assert not state.finished
