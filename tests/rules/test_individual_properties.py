"""Hypothesis: random legal deals of Tressette for 2, 3 and 4 individual players and of
Chiamata del Tre validate and keep the invariants of sections 4.1, 4.3, 4.5 and 4.7;
malformed input of any shape yields a result or a Rejection, never another exception."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorebook.rules import Rejection, get_game, score_deal
from scorebook.rules.cards import DECK40
from scorebook.rules.tricks import may_annul

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))

# Every mode of every game, with the rounding rules that matter for it.
CONFIGS = [
    ("tressette2", {}),
    ("tressette2", {"profile": "ti_two_rounds"}),
    ("tressette2", {"profile": "two_rounds_point_each_round"}),
    ("tressette2", {"core.first_lead": "holder_of_4d", "core.french_court_order": "J_above_Q"}),
    ("tressette3", {}),
    ("tressette3", {"profile": "ti_two_rounds"}),
    ("tressette3", {"t3.removed_four": "4s", "core.rounding": "round_two_thirds_up"}),
    ("tressette3", {"profile": "col_morto"}),
    ("tressette3", {"t3.mode": "col_morto", "t3.morto_partner": "announced"}),
    ("tressette4i", {}),
    ("tressette4i", {"profile": "ti_leftover", "core.first_lead": "holder_of_4d"}),
    ("chiamata", {}),
    ("chiamata", {"profile": "pen", "cdt.all_threes_held": "alone_against_three"}),
    ("chiamata", {"profile": "gg_torneo"}),
    ("chiamata", {"cdt.call": "any_3_or_2_or_non_ace", "cdt.caller_holds_called": "rejected"}),
    ("chiamata", {"core.first_lead": "holder_of_4d_first_deal_only"}),
]
IDS = [f"{key}-{'-'.join(str(v) for v in spec.values()) or 'default'}" for key, spec in CONFIGS]
TRICKS = {"tressette2": 20, "tressette3": 13, "tressette4i": 10, "chiamata": 10}


def setup(key, spec, level, seed):
    game = get_game(key)
    rules = game.rules(spec)
    state = game.new_match(rules)
    deal = game.random_deal(random.Random(seed), rules, state, level)
    return game, rules, state, deal


@pytest.mark.parametrize("key,spec", CONFIGS, ids=IDS)
@pytest.mark.parametrize("level", ["totals", "cards"])
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_random_legal_deals_keep_the_invariants(key, spec, level, seed):
    game, rules, state, deal = setup(key, spec, level, seed)
    result = game.score_deal(deal, rules, state)
    assert result.level == level or (level == "totals" and result.level == "totals")
    for scorer, lines in result.breakdown.items():
        assert sum(line.points for line in lines) == result.points[scorer]  # breakdown adds up
        assert all(type(line.points) is int for line in lines)  # S4
    thirds = result.facts["thirds"]
    tricks = result.facts["tricks"]
    assert sum(thirds.values()) == 32  # D5
    paired = "side_points" in result.facts  # chiamata, col morto: 4 hands of 10
    assert sum(tricks.values()) == (10 if paired else TRICKS[key])  # D7
    assert tricks[result.facts["last_trick"]] >= 1  # D10
    rounding = rules["core.rounding"]
    card_points = sum(t // 3 for t in thirds.values())
    if len(thirds) == 2:  # S1: two sides always make 10 card points
        assert card_points == 10
        side_points = result.facts.get("side_points") or result.points
        extra = 1 if result.facts.get("last_trick_round1") else 0
        if rounding != "round_two_thirds_up":
            assert sum(side_points.values()) == 11 + extra
    else:  # S2
        dropped = sum(t % 3 for t in thirds.values())
        assert card_points == (32 - dropped) // 3 and card_points in (8, 9, 10)
        if rounding == "floor_per_scorer":
            assert sum(result.points.values()) == card_points + 1
        elif rounding == "remainder_to_last_trick":
            assert sum(result.points.values()) == 11
        else:
            assert sum(result.points.values()) >= card_points + 1  # S5: may pass 11
    if key == "chiamata":
        members = result.facts["members"]
        assert result.facts["caller"] in members["callers"]
        assert len(members["callers"]) in (1, 2)
        for side, players in members.items():
            for player in players:
                assert result.points[player] == result.facts["side_points"][side]


@pytest.mark.parametrize("key,spec", CONFIGS, ids=IDS)
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1))
def test_random_matches_end_at_the_target_and_refuse_more_deals(key, spec, seed):
    game = get_game(key)
    rules = game.rules(spec)
    state = game.new_match(rules)
    rng = random.Random(seed)
    prefix = {"tressette2": "t2", "tressette3": "t3", "tressette4i": "t4i", "chiamata": "cdt"}[key]
    target = rules[f"{prefix}.target"]
    for _ in range(200):
        if state.finished:
            break
        before = dict(state.totals)
        game.add_deal(
            state, game.random_deal(rng, rules, state, rng.choice(["totals", "cards"])), rules
        )
        assert all(state.totals[s] >= before[s] for s in before)  # G1
    assert state.finished
    outcome = state.outcome
    (winner,) = outcome.winners
    assert state.totals[winner] >= target
    assert state.totals[winner] == max(state.totals.values())
    assert [s for s in state.totals if state.totals[s] == state.totals[winner]] == [winner]
    assert outcome.units[winner] == len(state.seats) - 1
    assert sum(outcome.units.values()) == 0
    with pytest.raises(Rejection) as caught:  # G2
        game.add_deal(state, game.random_deal(rng, rules, state, "totals"), rules)
    assert caught.value.problems[0].code == "match.finished"


@pytest.mark.parametrize(
    "key,spec", CONFIGS[:2] + CONFIGS[4:6] + CONFIGS[9:12], ids=IDS[:2] + IDS[4:6] + IDS[9:12]
)
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1))
def test_both_levels_of_the_same_deal_score_alike(key, spec, seed):
    game, rules, state, by_cards = setup(key, spec, "cards", seed)
    by_totals = setup(key, spec, "totals", seed)[3]
    assert (
        game.score_deal(by_cards, rules, state).points
        == game.score_deal(by_totals, rules, state).points
    )


@pytest.mark.parametrize("rule", ["no_carico_and_lt3_figures", "less_than_one_point"])
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_chiamata_annul_accepts_exactly_the_hands_the_rule_allows(rule, seed):
    rng = random.Random(seed)
    deck = list(DECK40)
    rng.shuffle(deck)
    hand = deck[:10]
    deal = {
        "game": "chiamata",
        "rules": {"cdt.annul_rule": rule},
        "annulled_by": "P3",
        "hand": [c.code for c in hand],
    }
    if may_annul(hand, rule):  # N1, N2
        result = score_deal(deal)
        assert result.annulled and result.same_dealer and set(result.points.values()) == {0}
    else:
        with pytest.raises(Rejection) as caught:
            score_deal(deal)
        assert [p.code for p in caught.value.problems] == ["cdt.annul.not_allowed"]


# -- malformed input --------------------------------------------------------------------

KEYS = [
    "seats", "sides", "thirds", "tricks", "cards", "points", "last_trick", "last_trick_round1",
    "removed", "dummy_partner", "caller", "called", "partner", "hands", "hand", "annulled_by",
    "level", "dealer", "declarations", "P1", "P2", "P3", "P4", "A", "B", "callers", "others",
]  # fmt: skip
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 45)
    | st.floats(allow_nan=True)
    | st.text(max_size=4)
    | st.sampled_from(
        ["Ad", "3c", "4b", "4d", "d", "none", "P1", "P2", "P5", "A", "callers", "cards"]
    ),
    lambda children: (
        st.lists(children, max_size=5)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=4), children, max_size=6)
    ),
    max_leaves=15,
)
GAME_KEYS = ["tressette2", "tressette3", "tressette4i", "chiamata"]


def outcome_of(deal):
    try:
        return score_deal(deal)
    except Rejection as rejection:
        assert rejection.problems
        for problem in rejection.problems:
            assert problem.en and problem.it and isinstance(problem.path, str)
        return rejection


@pytest.mark.parametrize("key", GAME_KEYS)
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=st.dictionaries(st.sampled_from(KEYS), json_values, max_size=8))
def test_random_json_is_scored_or_rejected(key, body):
    outcome_of({**body, "game": key})


@pytest.mark.parametrize("key", GAME_KEYS)
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=json_values)
def test_any_json_value_as_the_deal(key, body):
    if isinstance(body, dict):
        body = {**body, "game": key}
    outcome_of(body)


def paths(value, prefix=()):
    """Every path into a JSON value (keys and list indexes)."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from paths(v, (*prefix, i))


@pytest.mark.parametrize("key,spec", CONFIGS, ids=IDS)
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_single_field_mutations_of_legal_deals(key, spec, seed, data):
    _, _, _, deal = setup(key, spec, data.draw(st.sampled_from(["totals", "cards"])), seed)
    deal = {"game": key, "rules": spec, **deal}
    where = data.draw(
        st.sampled_from([p for p in paths(deal) if p and p[0] not in ("game", "rules")])
    )
    mutated = copy.deepcopy(deal)
    parent = mutated
    for step in where[:-1]:
        parent = parent[step]
    if data.draw(st.booleans()) and isinstance(parent, dict):
        del parent[where[-1]]
    else:
        parent[where[-1]] = data.draw(json_values)
    outcome_of(mutated)
