"""``Game.stop``: a match with no end of its own (a chips session of no set number of deals:
Terziglio's chips, Chiamata's WB scoring, Calabrasella's and Spinado's open sessions) is
ended by the club at the night's close with its scores as they stand (issue 31 item 10).

The result is the one the game's own end gives when a set number of deals ends after the
same deals; a match that ends by itself (a target, a set number of deals) is refused, as
is one already over."""

from __future__ import annotations

import copy
import random

import pytest

from scorebook.rules import Rejection, games

#: The switch that sets a session's number of deals (0: open), per game that has one.
DEALS_SWITCH = {
    "terziglio": "terz.deals",
    "chiamata": "cdt.deals",
    "calabrasella": "cav.deals",
    "spinado": "spin.deals",
}


def _specs(game):
    """The house rules to try: the defaults, each profile, each switch's every choice (a
    number's both ends)."""
    yield {}
    for profile in game.profiles:
        yield {"profile": profile}
    for switch in game.switches:
        for value in switch.between or switch.choices:
            yield {switch.key: value}


def _open_spec(game):
    """The first house rules under which a match of ``game`` is open-ended, or None."""
    for spec in _specs(game):
        if game.open_ended(game.rules(spec)):
            return spec
    return None


def test_exactly_the_sessions_of_no_set_length_are_open_ended():
    found = {key for key, game in games().items() if _open_spec(game) is not None}
    assert found == set(DEALS_SWITCH)
    for key, switch in DEALS_SWITCH.items():
        game = games()[key]
        spec = _open_spec(game)
        assert not game.open_ended(game.rules({**spec, switch: 5}))  # a set number of deals


@pytest.mark.parametrize("key", sorted(DEALS_SWITCH))
def test_stopping_gives_the_result_of_the_session_ending_there(key):
    """Random sessions of 1-12 deals, stopped: the same winners, losers, units and
    reason as the game's own end after those deals under a set number of deals."""
    game = games()[key]
    spec = _open_spec(game)
    rules = game.rules(spec)
    rng = random.Random(key)
    compared = 0
    for _ in range(30):
        state = game.new_match(rules)
        wanted = rng.randint(1, 12)
        own = None
        while own is None or state.deals_played < wanted:
            result = game.add_deal(state, game.random_deal(rng, rules, state, "totals"), rules)
            # the same deals, the session set to end at one deal: the game's own end now
            # (none while every deal was passed out: Terziglio counts only deals played)
            ended = copy.deepcopy(state)
            own = game.finish(ended, result, game.rules({**spec, DEALS_SWITCH[key]: 1}))
            assert state.deals_played < 100
        assert not state.finished
        outcome = game.stop(state, rules)
        assert (outcome.reason, outcome.winners, outcome.losers, dict(outcome.units)) == (
            own.reason,
            own.winners,
            own.losers,
            dict(own.units),
        )
        assert {k: v for k, v in outcome.detail.items() if k != "stopped"} == own.detail
        assert outcome.detail["stopped"] is True
        assert state.finished and state.outcome == outcome
        compared += 1
    assert compared == 30


@pytest.mark.parametrize("key", sorted(DEALS_SWITCH))
def test_a_stopped_match_takes_no_further_deal_and_is_not_stopped_twice(key):
    game = games()[key]
    rules = game.rules(_open_spec(game))
    rng = random.Random(1)
    state = game.new_match(rules)
    game.add_deal(state, game.random_deal(rng, rules, state, "totals"), rules)
    game.stop(state, rules)
    with pytest.raises(Rejection) as rejected:
        game.add_deal(state, game.random_deal(rng, rules, state, "totals"), rules)
    assert rejected.value.problems[0].code == "match.finished"
    with pytest.raises(Rejection) as rejected:
        game.stop(state, rules)
    assert rejected.value.problems[0].code == "match.finished"


@pytest.mark.parametrize("key", sorted(games()))
def test_a_match_that_ends_by_itself_is_refused_in_words(key):
    game = games()[key]
    spec = next((s for s in _specs(game) if not game.open_ended(game.rules(s))), None)
    if spec is None:  # pragma: no cover - every game has rules with an end
        pytest.fail(f"{key}: every house rule is open-ended")
    rules = game.rules(spec)
    state = game.new_match(rules)
    with pytest.raises(Rejection) as rejected:
        game.stop(state, rules)
    problem = rejected.value.problems[0]
    assert problem.code == "match.has_end"
    assert "ends by itself" in problem.as_dict("en")["message"]
    assert "finisce da sé" in problem.as_dict("it")["message"]
    assert not state.finished
