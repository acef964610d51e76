"""Chiamata del Tre / Chiamatre (reference 2.5, 4.5, 6 point 13)."""

from __future__ import annotations

import json

import pytest

from scorebook.rules import Rejection, get_game, play_match, score_deal
from scorebook.rules.cards import DECK40

SIDES = {"callers": {"thirds": 20, "tricks": 6}, "others": {"thirds": 12, "tricks": 4}}
CDT = {
    "dealer": "P1",
    "caller": "P2",
    "called": "d",
    "partner": "P4",
    "sides": SIDES,
    "last_trick": "callers",
}
GG = {"cdt.call": "any_3_or_2_or_non_ace"}

# Four hands that split the deck: P2 (eldest when P1 deals) lacks the 3 of coins (P4).
HANDS = {
    "P1": "3c 2c Ac Rc Cc Fc 7c 6c 5c 4c".split(),
    "P2": "3s 2s As Rs Cs Fs 7s 6s 5s 4s".split(),
    "P3": "3b 2b Ab Rb Cb Fb 7b 6b 5b 4b".split(),
    "P4": "3d 2d Ad Rd Cd Fd 7d 6d 5d 4d".split(),
}


def score(deal, **rules):
    return score_deal({"game": "chiamata", **deal, **({"rules": rules} if rules else {})})


def codes(deal, **rules):
    with pytest.raises(Rejection) as caught:
        score(deal, **rules)
    return [(p.code, p.path) for p in caught.value.problems]


def swap(hands, a, b):
    """Exchange two cards between hands (a copy)."""
    out = {p: list(h) for p, h in hands.items()}
    pa = next(p for p, h in out.items() if a in h)
    pb = next(p for p, h in out.items() if b in h)
    out[pa][out[pa].index(a)] = b
    out[pb][out[pb].index(b)] = a
    return out


# -- scoring ----------------------------------------------------------------------------


def test_each_member_adds_the_side_points():
    result = score(CDT)
    assert result.points == {"P1": 4, "P2": 7, "P3": 4, "P4": 7}
    assert result.facts["members"] == {"callers": ["P2", "P4"], "others": ["P1", "P3"]}
    assert result.facts["side_points"] == {"callers": 7, "others": 4}
    for player, lines in result.breakdown.items():
        assert sum(line.points for line in lines) == result.points[player]


@pytest.mark.parametrize(
    "rounding", ["floor_per_scorer", "remainder_to_last_trick", "round_two_thirds_up"]
)
def test_rounding_two_sides(rounding):
    result = score(CDT, **{"core.rounding": rounding})
    expected = {"callers": 7, "others": 4}
    if rounding == "round_two_thirds_up":  # 20 = 6 + 2/3 -> 7, + last trick
        expected = {"callers": 8, "others": 4}
        assert [w.code for w in result.warnings] == ["ind.total_over_eleven"]
    assert result.facts["side_points"] == expected


def test_caller_defaults_to_the_eldest():
    deal = {k: v for k, v in CDT.items() if k != "caller"}
    assert score(deal).facts["caller"] == "P2"
    assert score({**deal, "dealer": "P4", "partner": "P2"}).facts["caller"] == "P1"


def test_per_player_captures_are_merged_into_the_sides():
    deal = {
        **{k: v for k, v in CDT.items() if k != "sides"},
        "seats": {
            "P1": {"thirds": 6, "tricks": 2},
            "P2": {"thirds": 11, "tricks": 3},
            "P3": {"thirds": 6, "tricks": 2},
            "P4": {"thirds": 9, "tricks": 3},
        },
        "last_trick": "P4",
    }
    result = score(deal)
    assert result.facts["thirds"] == {"callers": 20, "others": 12}
    assert result.facts["last_trick"] == "callers"
    assert result.facts["last_trick_player"] == "P4"
    assert result.points == {"P1": 4, "P2": 7, "P3": 4, "P4": 7}
    assert codes({**deal, "last_trick": "callers"}) == [("last_trick.unknown", "last_trick")]
    assert codes({**deal, "sides": SIDES}) == [("cdt.sides_or_seats", "seats")]


def test_cards_level_with_hands_derives_the_partner():
    counters = [c.code for c in DECK40 if c.thirds]
    deal = {
        "dealer": "P1",
        "called": "d",
        "hands": HANDS,
        "sides": {
            "callers": {"cards": counters[:12], "tricks": 5},
            "others": {"cards": counters[12:], "tricks": 5},
        },
        "last_trick": "others",
        "level": "cards",
    }
    result = score(deal)
    assert result.level == "cards"
    assert result.facts["partner"] == "P4"
    assert result.points == {"P1": 6, "P2": 5, "P3": 6, "P4": 5}


# -- the call ---------------------------------------------------------------------------


def test_gg_call_of_any_non_ace():
    result = score({**CDT, "called": "Rs", "partner": "P3"}, **GG)
    assert result.facts["called"] == "Rs"
    assert result.points == {"P1": 4, "P2": 7, "P3": 7, "P4": 4}


@pytest.mark.parametrize("call", ["d", "3d"])
def test_pen_call_names_a_suit_or_its_3(call):
    assert score({**CDT, "called": call}).facts["called"] == "3d"


def test_caller_holds_called_alone_against_three():
    result = score({**CDT, "called": "Rs", "partner": "P2"}, **GG)
    assert result.facts["alone"] is True
    assert result.facts["members"] == {"callers": ["P2"], "others": ["P1", "P3", "P4"]}
    assert result.points == {"P1": 4, "P2": 7, "P3": 4, "P4": 4}


def test_caller_holds_called_rejected():
    rules = {**GG, "cdt.caller_holds_called": "rejected"}
    assert codes({**CDT, "called": "Rs", "partner": "P2"}, **rules) == [
        ("cdt.partner.caller_holds_called", "partner")
    ]
    deal = {**CDT, "called": "Rs", "hands": HANDS}
    del deal["partner"]
    assert codes(deal, **rules) == [("cdt.partner.caller_holds_called", "partner")]


def test_all_threes_held_call_a_two():
    hands = swap(swap(swap(HANDS, "2s", "3d"), "Rs", "3c"), "Cs", "3b")  # P2 holds all 3s
    deal = {**CDT, "called": "2c", "hands": hands}
    del deal["partner"]
    result = score(deal)
    assert result.facts["called"] == "2c" and result.facts["partner"] == "P1"
    assert codes({**deal, "called": "d"}) == [("cdt.call.caller_holds", "called")]
    assert codes({**deal, "hands": HANDS}) == [("cdt.call.two_without_all_threes", "called")]
    assert codes({**deal, "called": "none"}) == [("cdt.call.must_call", "called")]
    rules = {"cdt.all_threes_held": "alone_against_three"}
    assert codes(deal, **rules) == [("cdt.call.bad_suit", "called")]
    alone = score({**deal, "called": "none"}, **rules)
    assert alone.facts["alone"] and alone.facts["called"] is None
    assert codes({**deal, "called": "none", "hands": HANDS}, **rules) == [
        ("cdt.call.must_call", "called")
    ]


def test_no_call_at_the_totals_level():
    deal = {**CDT, "called": "none", "partner": "P2"}
    assert score(deal).facts["alone"] is True
    assert score({k: v for k, v in deal.items() if k != "partner"}).facts["partner"] == "P2"
    assert codes({**deal, "partner": "P3"}) == [("cdt.partner.no_call", "partner")]
    assert codes(deal, **GG) == [("cdt.call.bad_card", "called")]


# -- rejections -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "change,rules,expected",
    [
        ({"caller": "P3"}, {}, ("cdt.caller.not_eldest", "caller")),
        ({"caller": "P9"}, {}, ("cdt.caller.unknown", "caller")),
        ({"caller": ["P2"]}, {}, ("cdt.caller.unknown", "caller")),
        ({"caller": None}, {"core.first_lead": "holder_of_4d"}, ("input.missing", "caller")),
        ({"called": "x"}, {}, ("cdt.call.bad_suit", "called")),
        (
            {"called": "2d"},
            {"cdt.all_threes_held": "alone_against_three"},
            ("cdt.call.bad_suit", "called"),
        ),
        ({"called": None}, {}, ("input.missing", "called")),
        ({"called": "Ad"}, GG, ("cdt.call.ace", "called")),
        ({"called": "3x"}, GG, ("cdt.call.bad_card", "called")),
        ({"called": {"suit": "d"}}, GG, ("cdt.call.bad_card", "called")),
        ({"partner": "P7"}, {}, ("cdt.partner.unknown", "partner")),
        ({"partner": None}, {}, ("input.missing", "partner")),
        ({"partner": "P2"}, {}, ("cdt.partner.is_caller", "partner")),
        ({"hand": HANDS["P1"]}, {}, ("cdt.hand_without_annul", "hand")),
        ({"level": "cards"}, {}, ("ind.level_cards", "sides.callers")),
        ({"declarations": [{"player": "P1"}]}, {}, ("ind.no_declarations", "declarations")),
        ({"contract": 1}, {}, ("input.unknown_field", "contract")),
        ({"last_trick": "nobody"}, {}, ("last_trick.unknown", "last_trick")),
        ({"sides": {"callers": SIDES["callers"]}}, {}, ("capture.missing_scorer", "sides.others")),
        (
            {
                "sides": {
                    "callers": {"thirds": 20, "tricks": 6},
                    "others": {"thirds": 11, "tricks": 4},
                }
            },
            {},
            ("capture.thirds_total", ""),
        ),
        (
            {
                "sides": {
                    "callers": {"thirds": 20, "tricks": 10},
                    "others": {"thirds": 12, "tricks": 0},
                }
            },
            {},
            ("capture.thirds_without_tricks", "sides.others"),
        ),
    ],
)
def test_rejections(change, rules, expected):
    assert expected in codes({**CDT, **change}, **rules)


def test_hands_are_checked():
    assert ("cdt.partner.not_holder", "partner") in codes({**CDT, "partner": "P3", "hands": HANDS})
    assert codes({**CDT, "called": "s", "hands": HANDS}) == [
        ("cdt.partner.not_holder", "partner"),
        ("cdt.call.caller_holds", "called"),
    ]
    short = {**HANDS, "P3": HANDS["P3"][:9]}
    assert ("cdt.hands.size", "hands.P3") in codes({**CDT, "hands": short})
    twice = {**HANDS, "P3": HANDS["P3"][:9] + ["3d"]}
    assert ("card.duplicate", "hands.P4") in codes({**CDT, "hands": twice})
    missing = {p: h for p, h in HANDS.items() if p != "P1"}
    assert ("input.missing", "hands.P1") in codes({**CDT, "hands": missing})
    assert ("match.unknown_seat", "hands.N") in codes({**CDT, "hands": {**HANDS, "N": []}})
    assert ("input.not_object", "hands") in codes({**CDT, "hands": [1]})


def test_first_lead_by_the_holder_of_the_4_of_coins():
    rules = {"core.first_lead": "holder_of_4d"}
    deal = {**CDT, "caller": "P4", "called": "s", "partner": "P2"}
    assert score(deal, **rules).facts["caller"] == "P4"
    with_hands = {k: v for k, v in deal.items() if k not in ("caller", "partner")}
    assert score({**with_hands, "hands": HANDS}, **rules).facts["caller"] == "P4"
    assert codes({**with_hands, "caller": "P2", "hands": HANDS}, **rules) == [
        ("cdt.caller.not_holder_4d", "caller")
    ]
    # first deal only: the second played deal is called by the eldest again
    first = {"core.first_lead": "holder_of_4d_first_deal_only"}
    match = play_match(
        {
            "game": "chiamata",
            "rules": first,
            "deals": [deal, {**CDT, "dealer": "P2", "caller": "P3"}],
        }
    )
    assert [r.facts["caller"] for r in match.results] == ["P4", "P3"]


def test_points_entered_per_side_are_checked():
    sides = json.loads(json.dumps(SIDES))
    sides["callers"]["points"] = 7
    assert score({**CDT, "sides": sides}).points["P2"] == 7
    sides["callers"]["points"] = 6
    assert codes({**CDT, "sides": sides}) == [("ind.points_mismatch", "sides.callers.points")]


def test_messages_are_bilingual_and_name_the_card():
    with pytest.raises(Rejection) as caught:
        score({**CDT, "called": "s", "hands": HANDS, "partner": "P2"})
    problem = next(p for p in caught.value.problems if p.code == "cdt.call.caller_holds")
    assert "P2" in problem.en and "3 of swords" in problem.en
    assert "tre di spade" in problem.it


# -- annul ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rule,hand,ok",
    [
        ("no_carico_and_lt3_figures", "Rd Fc 7d 7c 6s 6b 5d 5c 4s 4b", True),
        ("no_carico_and_lt3_figures", "Rd Fc Cs 7c 6s 6b 5d 5c 4s 4b", False),
        ("no_carico_and_lt3_figures", "3s Rd 7d 7c 6s 6b 5d 5c 4s 4b", False),
        ("less_than_one_point", "3s Rd 7d 7c 6s 6b 5d 5c 4s 4b", True),
        ("less_than_one_point", "3s Rd Fd 7c 6s 6b 5d 5c 4s 4b", False),
        ("less_than_one_point", "As 7c 7d 6d 6s 6b 5d 5c 4s 4b", False),
    ],
)
def test_annul(rule, hand, ok):
    deal = {"annulled_by": "P3", "hand": hand.split()}
    if ok:
        result = score(deal, **{"cdt.annul_rule": rule})
        assert (
            result.annulled
            and result.same_dealer
            and result.points == dict.fromkeys(("P1", "P2", "P3", "P4"), 0)
        )
    else:
        assert codes(deal, **{"cdt.annul_rule": rule}) == [("cdt.annul.not_allowed", "hand")]


def test_annul_with_all_hands_and_other_rejections():
    hands = swap(swap(HANDS, "3b", "7c"), "2b", "6c")  # P3: Ab Rb Cb Fb ...
    hands = swap(swap(hands, "Ab", "5c"), "Rb", "4c")  # P3: Cb Fb + scartine: GG annuls
    assert score({"annulled_by": "P3", "hands": hands}).annulled
    assert codes({"annulled_by": "P3", "hands": HANDS}) == [("cdt.annul.not_allowed", "hands.P3")]
    assert ("cdt.annul.off", "annulled_by") in codes(
        {"annulled_by": "P3"}, **{"cdt.annul_rule": "off"}
    )
    assert ("match.unknown_seat", "annulled_by") in codes({"annulled_by": "P8"})
    assert ("cdt.annul.with_play", "sides") in codes({"annulled_by": "P3", "sides": SIDES})
    assert ("cdt.annul.with_play", "called") in codes({"annulled_by": "P3", "called": "d"})
    assert ("cdt.annul.hand_twice", "hand") in codes(
        {"annulled_by": "P3", "hands": hands, "hand": hands["P3"]}
    )
    assert ("cdt.hands.size", "hand") in codes({"annulled_by": "P3", "hand": ["4b"]})
    assert ("card.duplicate", "hand") in codes(
        {"annulled_by": "P3", "hand": "4b 4b 5d 5c 6s 6b 7d 7c 4s 4c".split()}
    )


def test_annulled_deal_keeps_the_dealer_in_a_match():
    annul = {"dealer": "P1", "annulled_by": "P3"}
    match = play_match({"game": "chiamata", "deals": [annul, CDT]})
    assert match.state.dealer == "P2"
    assert match.state.totals == {"P1": 4, "P2": 7, "P3": 4, "P4": 7}


# -- the match --------------------------------------------------------------------------


def deal_by(dealer, partner):
    seats = ["P1", "P2", "P3", "P4"]
    eldest = seats[(seats.index(dealer) + 1) % 4]
    return {**CDT, "dealer": dealer, "caller": eldest, "partner": partner}


# The callers win 7 - 4 every deal.
D1 = deal_by("P1", "P4")  # P2 + P4: 4, 7, 4, 7
D2 = deal_by("P2", "P4")  # P3 + P4: 8, 11, 11, 14
D3 = deal_by("P3", "P2")  # P4 + P2: 12, 18, 15, 21


def test_match_first_to_target_and_units():
    match = play_match({"game": "chiamata", "deals": [D1, D2, D3]})
    assert match.state.totals == {"P1": 12, "P2": 18, "P3": 15, "P4": 21}
    assert match.state.outcome.winners == ("P4",)
    assert match.state.outcome.units == {"P4": 3, "P1": -1, "P2": -1, "P3": -1}
    assert [r.ends_match for r in match.results] == [False, False, True]
    with pytest.raises(Rejection) as caught:
        play_match({"game": "chiamata", "deals": [D1, D2, D3, deal_by("P4", "P2")]})
    assert [(p.code, p.path) for p in caught.value.problems] == [("match.finished", "deals[3]")]


def test_several_reach_the_target_higher_total_wins():
    match = play_match({"game": "chiamata", "rules": {"cdt.target": 11}, "deals": [D1, D2]})
    assert match.state.outcome.winners == ("P4",)  # P2, P3 and P4 reach 11; P4 has 14


def test_several_reach_the_target_play_another_deal():
    rules = {"cdt.target": 11, "cdt.both_reach_target": "play_another_deal"}
    match = play_match({"game": "chiamata", "rules": rules, "deals": [D1, D2]})
    assert not match.state.finished
    match = play_match({"game": "chiamata", "rules": rules, "deals": [D1, D2, D3]})
    assert match.state.outcome.winners == ("P4",)


def test_exact_tie_on_the_top_total_plays_on():
    tie = [deal_by(d, p) for d, p in (("P1", "P4"), ("P2", "P1"), ("P3", "P2"), ("P4", "P3"))]
    match = play_match({"game": "chiamata", "deals": tie})
    assert match.state.totals == dict.fromkeys(("P1", "P2", "P3", "P4"), 22)
    assert not match.state.finished


# -- switches and profiles --------------------------------------------------------------


def test_defaults_and_profiles():
    game = get_game("chiamata")
    rules = game.rules(None)
    assert rules["cdt.call"] == "suit_whose_3_caller_lacks"
    assert rules["cdt.caller_holds_called"] == "alone_against_three"
    assert rules["cdt.all_threes_held"] == "call_a_two"
    assert rules["cdt.scoring"] == "side_points_to_each_member"
    assert rules["cdt.annul_rule"] == "no_carico_and_lt3_figures"
    assert rules["cdt.target"] == 21
    assert rules["cdt.both_reach_target"] == "higher_total_wins"
    pen = game.rules({"profile": "pen"})
    assert pen["cdt.annul_rule"] == "less_than_one_point"
    gg = game.rules({"profile": "gg_torneo"})
    assert gg["cdt.call"] == "any_3_or_2_or_non_ace"
    assert score({**CDT, "called": "2c", "partner": "P1"}, profile="gg_torneo").points["P1"] == 7


@pytest.mark.parametrize(
    "switch,value",
    [
        ("core.direction", "clockwise"),
        ("core.french_court_order", "J_above_Q"),
        ("core.first_lead", "holder_of_4d_first_deal_only"),
        ("cdt.scoring", "side_points_to_each_member"),
    ],
)
def test_switches_without_effect_on_this_deal(switch, value):
    assert score(CDT, **{switch: value}).points == score(CDT).points


def test_unknown_switch_value_is_refused():
    with pytest.raises(Rejection) as caught:
        score(CDT, **{"cdt.call": "anything"})
    assert [(p.code, p.path) for p in caught.value.problems] == [
        ("rules.bad_value", "rules.cdt.call")
    ]


# -- WB's algebraic scoring (2.5 WB, 4.7 G1) --------------------------------------------

WB = {"cdt.scoring": "wb_plus_minus"}
ALL_TRICKS = {"callers": {"thirds": 32, "tricks": 10}, "others": {"thirds": 0, "tricks": 0}}
LOST = {"callers": {"thirds": 15, "tricks": 6}, "others": {"thirds": 17, "tricks": 4}}


@pytest.mark.parametrize(
    "deal,rules,units,multiplier,event",
    [
        # The callers make 7 (>= 6): each winner 1 from each of the 2 opponents.
        (CDT, {}, {"P1": -2, "P2": 2, "P3": -2, "P4": 2}, 1, None),
        # 5 of 11 is not enough: the others win.
        ({**CDT, "sides": LOST, "last_trick": "others"}, {},
         {"P1": 2, "P2": -2, "P3": 2, "P4": -2}, 1, None),
        # Cappotto di chiamata: doubled.
        ({**CDT, "sides": ALL_TRICKS}, {}, {"P1": -4, "P2": 4, "P3": -4, "P4": 4}, 2, "cappotto"),
        # A sola (the caller holds the called card, GG): doubled; 3 opponents pay 2 each.
        ({**CDT, "called": "Rs", "partner": "P2"}, GG,
         {"P1": -2, "P2": 6, "P3": -2, "P4": -2}, 2, None),
        # A sola lost: the caller pays 2 to each of the three.
        ({**CDT, "called": "Rs", "partner": "P2", "sides": LOST, "last_trick": "others"}, GG,
         {"P1": 2, "P2": -6, "P3": 2, "P4": 2}, 2, None),
        # Cappotto di sola: quadrupled.
        ({**CDT, "called": "Rs", "partner": "P2", "sides": ALL_TRICKS}, GG,
         {"P1": -4, "P2": 12, "P3": -4, "P4": -4}, 4, "cappotto"),
    ],
)  # fmt: skip
def test_wb_scoring_each_winner_one_from_each_opponent(deal, rules, units, multiplier, event):
    """Reference 2.5 (WB): the bidder needs 6; the winner scores as many points as there
    are opponents, the losers the negative; cappotto di chiamata or a sola doubles,
    cappotto di sola quadruples. 4.7 G1: zero-sum every deal."""
    result = score(deal, **{**rules, **WB})
    assert dict(result.units) == units
    assert result.points == units
    assert (result.multiplier, result.event) == (multiplier, event)
    assert sum(result.units.values()) == 0
    for player, lines in result.breakdown.items():
        assert sum(line.points for line in lines) == result.points[player]


def test_wb_scoring_settles_every_deal_and_ends_after_the_set_deals():
    game = get_game("chiamata")
    assert game.settles_per_deal(game.rules(WB))
    assert not game.settles_per_deal(game.rules(None))
    second = {**CDT, "dealer": "P2", "caller": "P3", "called": "c", "partner": "P1"}
    deals = [{"dealer": "P1", "annulled_by": "P2"}, CDT, second]  # an annulled deal: not counted
    match = play_match(
        {"game": "chiamata", "rules": {**WB, "cdt.deals": 2}, "first_dealer": "P1", "deals": deals}
    )
    assert match.state.totals == {"P1": 0, "P2": 0, "P3": 0, "P4": 0}
    assert match.state.outcome.reason == "deals"
    assert match.results[-1].ends_match
    # Open-ended (cdt.deals 0): the totals may go below zero and the match goes on.
    third = {**CDT, "dealer": "P3", "caller": "P4", "called": "s", "partner": "P2"}
    open_match = play_match({"game": "chiamata", "rules": WB, "deals": [CDT, second, third]})
    assert open_match.state.totals == {"P1": -2, "P2": 2, "P3": -2, "P4": 2}
    assert not open_match.state.finished


def test_an_unknown_partner_is_said_in_italian_without_a_wrong_article():
    """With no card called the partner's note read "chi ha il carta chiamata"."""
    from scorebook.rules import Rejection, start_match

    game, rules, state = start_match("chiamata", None, 4)
    try:
        game.add_deal(state, {"partner": "X9"}, rules)
    except Rejection as refused:
        words = " ".join(p.as_dict("it")["message"] for p in refused.problems)
    else:
        raise AssertionError("a partner that is not a seat was accepted")
    assert "il carta" not in words and "chi ha in mano" in words, words
