"""Tressette for two, three and four individual players, and Chiamata del Tre."""

from __future__ import annotations

import pytest

from scorebook.rules import Rejection, play_match, score_deal


def per(**seats):
    return {p: {"thirds": th, "tricks": tr} for p, (th, tr) in seats.items()}


def score(game, deal, **rules):
    return score_deal({"game": game, **deal, **({"rules": rules} if rules else {})})


def codes(game, deal, **rules):
    with pytest.raises(Rejection) as caught:
        score(game, deal, **rules)
    return [(p.code, p.path) for p in caught.value.problems]


def test_tv21_two_players_with_stock():
    deal = {"seats": per(P1=(19, 10), P2=(13, 10)), "last_trick": "P2"}
    assert score("tressette2", deal).points == {"P1": 6, "P2": 5}


def test_two_rounds_with_a_last_trick_point_each_round_totals_12():
    deal = {"seats": per(P1=(19, 10), P2=(13, 10)), "last_trick": "P2", "last_trick_round1": "P1"}
    rules = {"t2.mode": "two_rounds_no_stock", "t2.two_rounds_last_trick": "each_round"}
    result = score("tressette2", deal, **rules)
    assert result.points == {"P1": 7, "P2": 5}
    del deal["last_trick_round1"]
    assert codes("tressette2", deal, **rules) == [("ind.round1_last_trick", "last_trick_round1")]
    deal["last_trick_round1"] = "P1"
    assert codes("tressette2", deal) == [("ind.round1_not_played", "last_trick_round1")]


@pytest.mark.parametrize(
    "rounding,points",
    [
        ("floor_per_scorer", {"P1": 3, "P2": 4, "P3": 3}),
        ("remainder_to_last_trick", {"P1": 3, "P2": 5, "P3": 3}),
    ],
)
def test_tv22_three_players_39_cards(rounding, points):
    deal = {"seats": per(P1=(11, 4), P2=(10, 5), P3=(11, 4)), "last_trick": "P2"}
    assert score("tressette3", deal, **{"core.rounding": rounding}).points == points


@pytest.mark.parametrize(
    "rounding,points",
    [
        ("floor_per_scorer", {"P1": 2, "P2": 2, "P3": 2, "P4": 3}),
        ("remainder_to_last_trick", {"P1": 2, "P2": 2, "P3": 2, "P4": 5}),
    ],
)
def test_tv23_four_all_against_all(rounding, points):
    deal = {"seats": per(P1=(8, 2), P2=(8, 2), P3=(8, 2), P4=(8, 4)), "last_trick": "P4"}
    assert score("tressette4i", deal, **{"core.rounding": rounding}).points == points


def test_three_players_removed_four_announced_and_fixed():
    deal = {"seats": per(P1=(11, 4), P2=(10, 5), P3=(11, 4)), "last_trick": "P2"}
    rules = {"t3.removed_four": "any_announced"}
    assert codes("tressette3", deal, **rules) == [("ind.removed_four", "removed")]
    assert score("tressette3", {**deal, "removed": "4c"}, **rules).facts["removed"] == ["4c"]
    assert codes("tressette3", {**deal, "removed": "4c"}) == [("ind.removed_fixed", "removed")]


def test_three_players_removed_card_cannot_be_captured():
    counters = [c for c in "3 2 A R C F".split() for _ in [0]]
    deck_counters = [f"{r}{s}" for r in counters for s in "dcsb"]
    deal = {
        "seats": {
            "P1": {"cards": deck_counters[:8] + ["4b"], "tricks": 4},
            "P2": {"cards": deck_counters[8:16], "tricks": 5},
            "P3": {"cards": deck_counters[16:], "tricks": 4},
        },
        "last_trick": "P2",
    }
    assert ("ind.removed_captured", "seats.P1") in codes("tressette3", deal)


def test_col_morto_scores_as_pairs_with_individual_totals():
    deal = {
        "sides": {"A": {"thirds": 20, "tricks": 6}, "B": {"thirds": 12, "tricks": 4}},
        "last_trick": "A",
        "dealer": "P2",
    }
    result = score("tressette3", deal, profile="col_morto")
    assert result.points == {"P1": 4, "P2": 7, "P3": 4}
    assert ("ind.dummy_partner", "dummy_partner") in codes(
        "tressette3", {**deal, "dummy_partner": "P9"}, profile="col_morto"
    )


def test_individual_match_first_to_target_wins_and_pays_each_loser():
    deal = {"seats": per(P1=(19, 10), P2=(13, 10)), "last_trick": "P1"}
    match = play_match({"game": "tressette2", "deals": [deal] * 3})
    assert match.state.totals == {"P1": 21, "P2": 12}
    assert match.state.outcome.units == {"P1": 1, "P2": -1}


def test_exact_tie_at_the_top_plays_on():
    deal = {"seats": per(P1=(16, 10), P2=(16, 10)), "last_trick": "P1"}
    other = {"seats": per(P1=(16, 10), P2=(16, 10)), "last_trick": "P2"}
    match = play_match({"game": "tressette2", "deals": [deal, other] * 2})
    assert match.state.totals == {"P1": 22, "P2": 22}
    assert not match.state.finished


CDT = {
    "dealer": "P1",
    "caller": "P2",
    "called": "d",
    "partner": "P4",
    "sides": {"callers": {"thirds": 20, "tricks": 6}, "others": {"thirds": 12, "tricks": 4}},
    "last_trick": "callers",
}


def test_chiamata_each_member_adds_the_side_points():
    assert score("chiamata", CDT).points == {"P1": 4, "P2": 7, "P3": 4, "P4": 7}


@pytest.mark.parametrize(
    "change,rules,code",
    [
        ({"caller": "P3"}, {}, ("cdt.caller", "caller")),
        ({"called": "3d"}, {}, ("cdt.called_suit", "called")),
        ({"called": "Ad"}, {"cdt.call": "any_3_or_2_or_non_ace"}, ("cdt.called_card", "called")),
        ({"partner": "P7"}, {}, ("cdt.partner", "partner")),
        (
            {"partner": "P2"},
            {"cdt.caller_holds_called": "rejected"},
            ("cdt.caller_holds_called", "partner"),
        ),
        (
            {"hand": "3d 2d Ad 7c 6c 5c 4c 7s 6s 5s".split()},
            {},
            ("cdt.caller_has_called_three", "called"),
        ),
        ({"last_trick": "nobody"}, {}, ("last_trick.unknown", "last_trick")),
    ],
)
def test_chiamata_rejections(change, rules, code):
    assert code in codes("chiamata", {**CDT, **change}, **rules)


def test_chiamata_caller_alone_against_three():
    result = score("chiamata", {**CDT, "partner": "P2"})
    assert result.facts["alone"] is True
    assert result.points == {"P1": 4, "P2": 7, "P3": 4, "P4": 4}


@pytest.mark.parametrize(
    "rule,hand,ok",
    [
        ("no_carico_and_lt3_figures", "Rd Fc 7d 7c 6s 6b 5d 5c 4s 4b", True),
        ("no_carico_and_lt3_figures", "3s Rd 7d 7c 6s 6b 5d 5c 4s 4b", False),
        ("less_than_one_point", "3s Rd 7d 7c 6s 6b 5d 5c 4s 4b", True),
    ],
)
def test_chiamata_annul(rule, hand, ok):
    deal = {"annulled_by": "P3", "hand": hand.split()}
    if ok:
        assert score("chiamata", deal, **{"cdt.annul_rule": rule}).annulled
    else:
        assert codes("chiamata", deal, **{"cdt.annul_rule": rule}) == [
            ("cdt.annul_not_allowed", "hand")
        ]


def test_chiamata_annul_off_and_with_play():
    assert ("cdt.annul_off", "annulled_by") in codes(
        "chiamata", {"annulled_by": "P3"}, **{"cdt.annul_rule": "off"}
    )
    assert ("cdt.annul_with_play", "sides") in codes("chiamata", {"annulled_by": "P3", "sides": {}})


@pytest.mark.parametrize(
    "game,profile",
    [
        ("tressette2", "classic_21"),
        ("tressette2", "ti_two_rounds"),
        ("tressette3", "vc_13_each"),
        ("tressette4i", "floor"),
        ("tressette4i", "ti_leftover"),
        ("chiamata", "pen"),
        ("chiamata", "gg_torneo"),
    ],
)
def test_profiles_resolve(game, profile):
    from scorebook.rules import get_game

    game_obj = get_game(game)
    assert game_obj.rules({"profile": profile}).profile == profile
