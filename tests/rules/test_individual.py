"""Tressette for two, for three and for four all against all (reference 2.2-2.4, 5.2)."""

from __future__ import annotations

import json

import pytest

from scorebook.rules import Rejection, get_game, play_match, score_deal
from scorebook.rules.__main__ import run


def per(**seats):
    return {p: {"thirds": th, "tricks": tr} for p, (th, tr) in seats.items()}


def score(game, deal, **rules):
    return score_deal({"game": game, **deal, **({"rules": rules} if rules else {})})


def codes(game, deal, **rules):
    with pytest.raises(Rejection) as caught:
        score(game, deal, **rules)
    return [(p.code, p.path) for p in caught.value.problems]


TV21 = {"seats": per(P1=(19, 10), P2=(13, 10)), "last_trick": "P2"}
TV22 = {"seats": per(P1=(11, 4), P2=(10, 5), P3=(11, 4)), "last_trick": "P2"}
TV23 = {"seats": per(P1=(8, 2), P2=(8, 2), P3=(8, 2), P4=(8, 4)), "last_trick": "P4"}

# TV22 at the cards level: only the counting cards are listed (11, 10 and 11 thirds).
TV22_CARDS = {
    "seats": {
        "P1": {"cards": "Ad Ac 3d 2d Rd Cd Fd".split(), "tricks": 4},
        "P2": {"cards": "As 3c 2c Rc Cc Fc Rs Cs".split(), "tricks": 5},
        "P3": {"cards": "Ab 3s 2s Fs 3b 2b Rb Cb Fb".split(), "tricks": 4},
    },
    "last_trick": "P2",
}


# -- section 5.2 test vectors -----------------------------------------------------------


@pytest.mark.parametrize(
    "game,deal,rounding,points",
    [
        ("tressette2", TV21, "floor_per_scorer", {"P1": 6, "P2": 5}),
        ("tressette2", TV21, "remainder_to_last_trick", {"P1": 6, "P2": 5}),
        ("tressette3", TV22, "floor_per_scorer", {"P1": 3, "P2": 4, "P3": 3}),
        ("tressette3", TV22, "remainder_to_last_trick", {"P1": 3, "P2": 5, "P3": 3}),
        ("tressette3", TV22_CARDS, "floor_per_scorer", {"P1": 3, "P2": 4, "P3": 3}),
        ("tressette3", TV22_CARDS, "remainder_to_last_trick", {"P1": 3, "P2": 5, "P3": 3}),
        ("tressette4i", TV23, "floor_per_scorer", {"P1": 2, "P2": 2, "P3": 2, "P4": 3}),
        ("tressette4i", TV23, "remainder_to_last_trick", {"P1": 2, "P2": 2, "P3": 2, "P4": 5}),
    ],
    ids=[
        "TV21",
        "TV21-rem",
        "TV22",
        "TV22-rem",
        "TV22-cards",
        "TV22-cards-rem",
        "TV23",
        "TV23-rem",
    ],
)
def test_reference_vectors(game, deal, rounding, points):
    result = score(game, deal, **{"core.rounding": rounding})
    assert result.points == points
    for scorer, lines in result.breakdown.items():
        assert sum(line.points for line in lines) == points[scorer]


def test_tv22_through_the_cli():
    body = json.dumps(
        {"game": "tressette3", "rules": {"profile": "ti_two_rounds"}, "removed": "4c", **TV22}
    )
    code, out = run("score", body)
    assert code == 0 and out["result"]["points"] == {"P1": 3, "P2": 5, "P3": 3}


def test_cards_level_derives_thirds_and_level():
    result = score("tressette3", TV22_CARDS)
    assert result.level == "cards"
    assert result.facts["thirds"] == {"P1": 11, "P2": 10, "P3": 11}
    assert result.facts["dropped_thirds"] == 5  # 2 + 1 + 2: S2, (32 - 5) / 3 = 9 card points


def test_remainder_rule_gives_the_leftover_to_the_last_trick():
    lines = score("tressette4i", TV23, profile="ti_leftover").breakdown["P4"]
    assert [(ln.kind, ln.points) for ln in lines] == [
        ("cards", 2),
        ("last_trick", 1),
        ("leftover", 2),
    ]


def test_round_two_thirds_up_may_pass_eleven_with_a_warning():
    result = score("tressette3", TV22, **{"core.rounding": "round_two_thirds_up"})
    assert result.points == {"P1": 4, "P2": 4, "P3": 4}
    assert [w.code for w in result.warnings] == ["ind.total_over_eleven"]


# -- switches ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "switch,value",
    [
        ("core.direction", "anticlockwise"),
        ("core.direction", "clockwise"),
        ("core.french_court_order", "Q_above_J"),
        ("core.french_court_order", "J_above_Q"),
        ("core.first_lead", "eldest"),
        ("core.first_lead", "holder_of_4d"),
        ("core.first_lead", "holder_of_4d_first_deal_only"),
    ],
)
@pytest.mark.parametrize(
    "game,deal", [("tressette2", TV21), ("tressette3", TV22), ("tressette4i", TV23)]
)
def test_core_switches_that_do_not_change_the_score(game, deal, switch, value):
    assert score(game, deal, **{switch: value}).points == score(game, deal).points


@pytest.mark.parametrize("mode", ["stock", "two_rounds_no_stock"])
@pytest.mark.parametrize("shown", [True, False])
def test_t2_mode_and_drawn_card(mode, shown):
    result = score("tressette2", TV21, **{"t2.mode": mode, "t2.show_drawn_card": shown})
    assert result.points == {"P1": 6, "P2": 5}
    assert result.facts["mode"] == mode
    assert result.facts.get("drawn_cards_shown", shown) is shown


@pytest.mark.parametrize(
    "rounding,points",
    [
        ("floor_per_scorer", {"P1": 7, "P2": 5}),
        ("remainder_to_last_trick", {"P1": 7, "P2": 5}),
    ],
)
def test_t2_two_rounds_with_a_last_trick_point_each_round_totals_12(rounding, points):
    deal = {**TV21, "last_trick_round1": "P1"}
    result = score(
        "tressette2", deal, profile="two_rounds_point_each_round", **{"core.rounding": rounding}
    )
    assert result.points == points
    assert ("last_trick", 1) in [(ln.kind, ln.points) for ln in result.breakdown["P1"]]
    assert result.facts["last_trick_round1"] == "P1"
    assert not result.warnings


def test_t2_two_rounds_once_per_deal_is_11():
    rules = {"t2.mode": "two_rounds_no_stock", "t2.two_rounds_last_trick": "once_per_deal"}
    assert sum(score("tressette2", TV21, **rules).points.values()) == 11
    assert codes("tressette2", {**TV21, "last_trick_round1": "P1"}, **rules) == [
        ("t2.round1.not_played", "last_trick_round1")
    ]


def test_t2_round1_last_trick_required_and_checked():
    rules = {"profile": "two_rounds_point_each_round"}
    assert codes("tressette2", TV21, **rules) == [("t2.round1.missing", "last_trick_round1")]
    assert codes("tressette2", {**TV21, "last_trick_round1": "P3"}, **rules) == [
        ("last_trick.unknown", "last_trick_round1")
    ]
    sweep = {"seats": per(P1=(32, 20), P2=(0, 0)), "last_trick": "P1", "last_trick_round1": "P2"}
    found = codes("tressette2", sweep, **rules)
    assert ("last_trick.no_tricks", "last_trick_round1") in found
    assert ("last_trick.all_tricks", "last_trick_round1") in found


@pytest.mark.parametrize("mode", ["39_cards_13_each", "39_cards_rounds_7_then_6"])
def test_t3_modes_with_39_cards_score_alike(mode):
    result = score("tressette3", TV22, **{"t3.mode": mode})
    assert result.points == {"P1": 3, "P2": 4, "P3": 3}
    assert result.facts["mode"] == mode


@pytest.mark.parametrize(
    "rule,removed,facts",
    [
        ("4b", None, ["4b"]),
        ("4b", "4b", ["4b"]),
        ("4s", None, ["4s"]),
        ("any_announced", "4c", ["4c"]),
        ("any_announced", "4D", ["4d"]),
    ],
)
def test_t3_removed_four(rule, removed, facts):
    deal = dict(TV22, **({"removed": removed} if removed else {}))
    assert score("tressette3", deal, **{"t3.removed_four": rule}).facts["removed"] == facts


@pytest.mark.parametrize(
    "rule,removed,code",
    [
        ("any_announced", None, "t3.removed.missing"),
        ("any_announced", "3c", "t3.removed.not_a_four"),
        ("4b", "Xx", "t3.removed.not_a_four"),
        ("4b", ["4b"], "t3.removed.not_a_four"),
        ("4b", "4c", "t3.removed.fixed"),
        ("4s", "4b", "t3.removed.fixed"),
    ],
)
def test_t3_removed_four_rejections(rule, removed, code):
    deal = dict(TV22, **({"removed": removed} if removed else {}))
    assert codes("tressette3", deal, **{"t3.removed_four": rule}) == [(code, "removed")]


def test_t3_removed_card_cannot_be_captured():
    deal = json.loads(json.dumps(TV22_CARDS))
    deal["seats"]["P1"]["cards"].append("4b")
    assert codes("tressette3", deal) == [("t3.removed.captured", "seats.P1")]
    deal["seats"]["P1"]["cards"][-1] = "4s"
    assert score("tressette3", deal).points == {"P1": 3, "P2": 4, "P3": 3}


COL_MORTO = {
    "sides": {"A": {"thirds": 20, "tricks": 6}, "B": {"thirds": 12, "tricks": 4}},
    "last_trick": "A",
    "dealer": "P2",
}


def test_col_morto_scores_as_pairs_with_individual_totals():
    result = score("tressette3", COL_MORTO, profile="col_morto")
    assert result.points == {"P1": 4, "P2": 7, "P3": 4}
    assert result.facts["dummy_partner"] == "P2"
    assert result.facts["side_points"] == {"A": 7, "B": 4}
    assert result.facts["sides"] == {"A": ["P2"], "B": ["P1", "P3"]}


def test_col_morto_partner_switch():
    announced = {"t3.mode": "col_morto", "t3.morto_partner": "announced"}
    assert score("tressette3", {**COL_MORTO, "dummy_partner": "P3"}, **announced).points == {
        "P1": 4,
        "P2": 4,
        "P3": 7,
    }
    assert codes("tressette3", COL_MORTO, **announced) == [("input.missing", "dummy_partner")]
    assert codes("tressette3", {**COL_MORTO, "dummy_partner": "P9"}, profile="col_morto") == [
        ("t3.morto.partner_unknown", "dummy_partner")
    ]
    assert codes("tressette3", {**COL_MORTO, "dummy_partner": "P1"}, profile="col_morto") == [
        ("t3.morto.partner_not_dealer", "dummy_partner")
    ]
    assert (
        score("tressette3", {**COL_MORTO, "dummy_partner": "P2"}, profile="col_morto").points["P2"]
        == 7
    )


def test_col_morto_cards_level_and_field_checks():
    deck = [f"{r}{s}" for s in "dcsb" for r in ("3", "2", "A", "R", "C", "F")]
    deal = {
        "sides": {"A": {"cards": deck[:12], "tricks": 5}, "B": {"cards": deck[12:], "tricks": 5}},
        "last_trick": "B",
    }
    result = score("tressette3", deal, profile="col_morto")
    assert result.level == "cards" and result.facts["thirds"] == {"A": 16, "B": 16}
    assert result.points == {"P1": 5, "P2": 6, "P3": 6}
    assert ("input.unknown_field", "removed") in codes(
        "tressette3", {**deal, "removed": "4b"}, profile="col_morto"
    )
    assert ("capture.missing_scorer", "sides.B") in codes(
        "tressette3", {**deal, "sides": {"A": deal["sides"]["A"]}}, profile="col_morto"
    )


# -- rejections -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game,change,expected",
    [
        (
            "tressette2",
            {"declarations": [{"player": "P1", "type": "napoletana", "suit": "d"}]},
            ("ind.no_declarations", "declarations"),
        ),
        ("tressette3", {"level": "cards"}, ("ind.level_cards", "seats.P1")),
        ("tressette3", {"level": "play"}, ("input.missing", "hands")),
        ("tressette3", {"level": "tricks"}, ("input.bad_choice", "level")),
        ("tressette4i", {"bid": 3}, ("input.unknown_field", "bid")),
        ("tressette2", {"seats": per(P1=(19, 10), P2=(12, 10))}, ("capture.thirds_total", "")),
        ("tressette2", {"seats": per(P1=(19, 10), P2=(13, 9))}, ("capture.tricks_total", "")),
        (
            "tressette3",
            {"seats": per(P1=(11, 0), P2=(10, 9), P3=(11, 4))},
            ("capture.thirds_without_tricks", "seats.P1"),
        ),
        (
            "tressette2",
            {"seats": per(P1=(32, 5), P2=(0, 15)), "last_trick": "P2"},
            ("capture.thirds_over_tricks", "seats.P1"),
        ),
        (
            "tressette2",
            {"seats": {"P1": {"thirds": 19, "tricks": 10}}},
            ("capture.missing_scorer", "seats.P2"),
        ),
        ("tressette2", {"last_trick": "P3"}, ("last_trick.unknown", "last_trick")),
        ("tressette2", {"last_trick": None}, ("last_trick.missing", "last_trick")),
        (
            "tressette4i",
            {"seats": per(P1=(8, 0), P2=(8, 3), P3=(8, 3), P4=(8, 4)), "last_trick": "P1"},
            ("last_trick.no_tricks", "last_trick"),
        ),
    ],
)
def test_rejections(game, change, expected):
    base = {"tressette2": TV21, "tressette3": TV22, "tressette4i": TV23}[game]
    assert expected in codes(game, {**base, **change})


def test_points_entered_are_checked_s3():
    deal = json.loads(json.dumps(TV22))
    deal["seats"]["P2"]["points"] = 4
    assert score("tressette3", deal).points["P2"] == 4
    deal["seats"]["P2"]["points"] = 5
    rejection = codes("tressette3", deal)
    assert rejection == [("ind.points_mismatch", "seats.P2.points")]
    assert (
        score("tressette3", deal, **{"core.rounding": "remainder_to_last_trick"}).points["P2"] == 5
    )
    deal["seats"]["P2"]["points"] = "5"
    assert codes("tressette3", deal) == [("input.not_integer", "seats.P2.points")]


def test_rejection_messages_name_cards_and_players_in_both_languages():
    deal = json.loads(json.dumps(TV22_CARDS))
    deal["seats"]["P3"]["cards"].append("4b")
    with pytest.raises(Rejection) as caught:
        score("tressette3", deal)
    (problem,) = caught.value.problems
    assert "4 of batons" in problem.en and "P3" in problem.en
    assert "quattro di bastoni" in problem.it


def test_cards_level_counters_and_duplicates():
    deal = json.loads(json.dumps(TV22_CARDS))
    deal["seats"]["P3"]["cards"].remove("Ab")
    assert ("capture.counters_missing", "") in codes("tressette3", deal)
    deal["seats"]["P3"]["cards"].append("Ad")
    assert ("card.duplicate", "seats.P3.cards") in codes("tressette3", deal)
    deal["seats"]["P3"]["cards"][-1] = "Zz"
    assert ("card.unknown", "seats.P3.cards[8]") in codes("tressette3", deal)


# -- the match --------------------------------------------------------------------------


def test_first_to_target_wins_and_is_paid_by_each_other_player():
    deal = {"seats": per(P1=(19, 10), P2=(13, 10)), "last_trick": "P1"}
    match = play_match({"game": "tressette2", "deals": [deal] * 3})
    assert match.state.totals == {"P1": 21, "P2": 12}
    assert match.state.finished and match.results[-1].ends_match
    assert match.state.outcome.winners == ("P1",)
    assert match.state.outcome.units == {"P1": 1, "P2": -1}
    with pytest.raises(Rejection) as caught:
        play_match({"game": "tressette2", "deals": [deal] * 4})
    assert [(p.code, p.path) for p in caught.value.problems] == [("match.finished", "deals[3]")]


@pytest.mark.parametrize(
    "game,deal,prefix,target",
    [("tressette2", TV21, "t2", 6), ("tressette3", TV22, "t3", 4), ("tressette4i", TV23, "t4i", 3)],
)
def test_custom_target_and_units_for_every_loser(game, deal, prefix, target):
    rules = {f"{prefix}.target": target}
    match = play_match({"game": game, "rules": rules, "deals": [deal]})
    winner = match.state.outcome.winners[0]
    assert match.state.outcome.units[winner] == len(match.state.seats) - 1
    assert sum(match.state.outcome.units.values()) == 0


def test_dealer_rotates_and_is_checked():
    deals = [{**TV22, "dealer": d} for d in ("P1", "P2", "P3", "P1")]
    assert play_match({"game": "tressette3", "deals": deals}).state.dealer == "P2"
    with pytest.raises(Rejection) as caught:
        play_match({"game": "tressette3", "deals": [TV22, {**TV22, "dealer": "P3"}]})
    assert ("deal.wrong_dealer", "deals[1].dealer") in [
        (p.code, p.path) for p in caught.value.problems
    ]


def test_exact_tie_at_the_top_plays_on():
    deal = {"seats": per(P1=(16, 10), P2=(16, 10)), "last_trick": "P1"}
    other = {"seats": per(P1=(16, 10), P2=(16, 10)), "last_trick": "P2"}
    match = play_match({"game": "tressette2", "deals": [deal, other] * 2})
    assert match.state.totals == {"P1": 22, "P2": 22}
    assert not match.state.finished
    match = play_match({"game": "tressette2", "deals": [deal, other] * 2 + [deal]})
    assert match.state.outcome.winners == ("P1",)


P1_DEAL = {"seats": per(P1=(20, 6), P2=(6, 3), P3=(6, 4)), "last_trick": "P1"}  # 7, 2, 2
P2_DEAL = {"seats": per(P1=(6, 3), P2=(20, 6), P3=(6, 4)), "last_trick": "P2"}  # 2, 7, 2
BOTH = {"seats": per(P1=(17, 6), P2=(15, 5), P3=(0, 2)), "last_trick": "P1"}  # 6, 5, 0


@pytest.mark.parametrize("rule", ["higher_total_wins", "play_another_deal"])
def test_exact_tie_on_the_top_total_plays_another_deal_under_both_rules(rule):
    game = {"game": "tressette3", "rules": {"t3.target": 18, "t3.both_reach_target": rule}}
    match = play_match({**game, "deals": [P1_DEAL, P2_DEAL, P1_DEAL, P2_DEAL]})
    assert match.state.totals == {"P1": 18, "P2": 18, "P3": 8}
    assert not match.state.finished
    match = play_match({**game, "deals": [P1_DEAL, P2_DEAL, P1_DEAL, P2_DEAL, P1_DEAL]})
    assert match.state.outcome.winners == ("P1",)


def test_several_reach_the_target_in_one_deal_higher_total_wins():
    game = {"game": "tressette3", "rules": {"t3.target": 10}}
    match = play_match({**game, "deals": [BOTH, BOTH]})
    assert match.state.totals == {"P1": 12, "P2": 10, "P3": 0}
    assert match.state.outcome.winners == ("P1",)
    assert match.state.outcome.units == {"P1": 2, "P2": -1, "P3": -1}


def test_several_reach_the_target_in_one_deal_play_another_deal():
    game = {
        "game": "tressette3",
        "rules": {"t3.target": 10, "t3.both_reach_target": "play_another_deal"},
    }
    match = play_match({**game, "deals": [BOTH, BOTH]})
    assert not match.state.finished and match.state.extra["overtime"]
    match = play_match({**game, "deals": [BOTH, BOTH, P2_DEAL]})
    assert match.state.totals == {"P1": 14, "P2": 17, "P3": 2}
    assert match.state.outcome.winners == ("P2",)


def test_stand_alone_deal_with_before_totals_says_whether_it_ends_the_match():
    deal = {"game": "tressette4i", **TV23}
    assert not score_deal(deal).ends_match
    assert score_deal({**deal, "before": {"P4": 18}}).ends_match
    assert not score_deal({**deal, "before": {"P3": 19, "P4": 18}}).ends_match  # tie at 21


# -- profiles ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game,profile,values",
    [
        ("tressette2", "classic_21", {"t2.mode": "stock", "t2.target": 21}),
        (
            "tressette2",
            "ti_two_rounds",
            {"t2.mode": "two_rounds_no_stock", "core.rounding": "remainder_to_last_trick"},
        ),
        ("tressette2", "two_rounds_point_each_round", {"t2.two_rounds_last_trick": "each_round"}),
        ("tressette3", "vc_13_each", {"t3.mode": "39_cards_13_each", "t3.removed_four": "4b"}),
        (
            "tressette3",
            "ti_two_rounds",
            {"t3.mode": "39_cards_rounds_7_then_6", "t3.removed_four": "any_announced"},
        ),
        ("tressette3", "col_morto", {"t3.mode": "col_morto"}),
        ("tressette4i", "floor", {"core.rounding": "floor_per_scorer"}),
        ("tressette4i", "ti_leftover", {"core.rounding": "remainder_to_last_trick"}),
    ],
)
def test_profiles(game, profile, values):
    rules = get_game(game).rules({"profile": profile})
    assert rules.profile == profile
    for key, value in values.items():
        assert rules[key] == value


@pytest.mark.parametrize(
    "game,defaults",
    [
        (
            "tressette2",
            {
                "t2.mode": "stock",
                "t2.show_drawn_card": True,
                "t2.two_rounds_last_trick": "once_per_deal",
                "t2.target": 21,
                "t2.both_reach_target": "higher_total_wins",
            },
        ),
        (
            "tressette3",
            {
                "t3.mode": "39_cards_13_each",
                "t3.removed_four": "4b",
                "t3.morto_partner": "dealer",
                "t3.target": 21,
            },
        ),
        (
            "tressette4i",
            {
                "t4i.target": 21,
                "t4i.both_reach_target": "higher_total_wins",
                "t4i.declarations": True,
                "core.rounding": "floor_per_scorer",
            },
        ),
    ],
)
def test_defaults(game, defaults):
    rules = get_game(game).rules(None)
    assert {k: rules[k] for k in defaults} == defaults


# -- 2.4: four all against all, "Declarations per player" -------------------------------


def test_four_all_against_all_scores_declarations_per_player():
    """Reference 2.4: declarations per player, each on top of his own card points (the
    engine refused them with ind.no_declarations). TV03's pair of declarations by one
    player: napoletana in cups + four 2s = 7, the 2 of cups in both (2.1.3)."""
    deal = {
        **TV23,
        "declarations": [
            {"player": "P2", "type": "napoletana", "suit": "c"},
            {"player": "P2", "type": "four", "rank": "2"},
            {"player": "P3", "type": "three", "rank": "3", "missing": "c"},
        ],
    }
    result = score("tressette4i", deal)
    assert result.points == {"P1": 2, "P2": 2 + 7, "P3": 2 + 3, "P4": 3}
    assert [ln.points for ln in result.breakdown["P2"] if ln.kind == "declaration"] == [3, 4]


@pytest.mark.parametrize(
    "declarations,code",
    [
        # A5: the 3 of swords needed by both players.
        (
            [
                {"player": "P1", "type": "four", "rank": "3"},
                {"player": "P2", "type": "napoletana", "suit": "s"},
            ],
            "decl.cross_player_conflict",
        ),
        # A3 (TV06): one player's napoletana in coins and three 3s missing coins.
        (
            [
                {"player": "P1", "type": "napoletana", "suit": "d"},
                {"player": "P1", "type": "three", "rank": "3", "missing": "d"},
            ],
            "decl.same_player_conflict",
        ),
    ],
)
def test_four_all_against_all_declarations_are_checked(declarations, code):
    assert code in [c for c, _ in codes("tressette4i", {**TV23, "declarations": declarations})]


def test_four_all_against_all_declarations_can_be_switched_off():
    deal = {**TV23, "declarations": [{"player": "P1", "type": "napoletana", "suit": "d"}]}
    assert codes("tressette4i", deal, **{"t4i.declarations": False}) == [
        ("ind.no_declarations", "declarations")
    ]
    assert score("tressette4i", deal).points["P1"] == 2 + 3


def test_four_all_against_all_declarations_at_the_play_level_come_from_the_dealt_hand():
    import random

    game = get_game("tressette4i")
    rules = game.rules(None)
    state = game.new_match(rules, 4)
    deal = game.random_deal(random.Random(3), rules, state, "play")
    dealt = set(deal["hands"]["P1"])
    suit = next(s for s in "dcsb" if not {f"3{s}", f"2{s}", f"A{s}"} <= dealt)
    deal["declarations"] = [{"player": "P1", "type": "napoletana", "suit": suit}]
    with pytest.raises(Rejection) as caught:
        game.score_deal(deal, rules, state)
    assert [p.code for p in caught.value.problems] == ["decl.not_in_hand"]
    # The same deal without the declaration scores.
    del deal["declarations"]
    assert sum(game.score_deal(deal, rules, state).points.values()) <= 11


@pytest.mark.parametrize("key,players", [("tressette2", 2), ("tressette3", 3), ("tressette4i", 4)])
def test_a_deal_in_thirds_may_leave_every_trick_count_out(key, players):
    """Issue 32: a paper sheet writes each player's points, never his tricks; the engine
    scores the points without them and reports no count it did not see."""
    from scorebook.rules import start_match

    game, rules, state = start_match(key, None, players)
    shares = [25, 7, 0, 0][:players]
    shares[-1] += 32 - sum(shares)
    seats = state.seats
    counted = {s: {"thirds": t} for s, t in zip(seats, shares, strict=True)}
    result = game.score_deal({"seats": counted, "last_trick": seats[0]}, rules, state)
    assert result.points[seats[0]] == 25 // 3 + 1
    assert set(result.facts["tricks"].values()) == {None}
    assert game.table_shape(rules.values, seats).trick_counts == "optional"
    partly = {**counted, seats[0]: {"thirds": 25, "tricks": 3}}  # one count: all are asked
    with pytest.raises(Rejection):
        game.score_deal({"seats": partly, "last_trick": seats[0]}, rules, state)
