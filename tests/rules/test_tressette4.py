"""Tressette for four in pairs: the reference's worked examples (5.1), every switch value,
every rejection code, and the match: claims, events, annulled deals, the end."""

from __future__ import annotations

import pytest

from scorebook.rules import Rejection, play_match, score_deal


def sides(a, ta, b, tb):
    return {"A": {"thirds": a, "tricks": ta}, "B": {"thirds": b, "tricks": tb}}


def seats(**per):
    return {p: {"thirds": th, "tricks": tr} for p, (th, tr) in per.items()}


def napoletana(player, suit):
    return {"player": player, "type": "napoletana", "suit": suit}


def three(player, rank, missing):
    return {"player": player, "type": "three", "rank": rank, "missing": missing}


def four(player, rank):
    return {"player": player, "type": "four", "rank": rank}


def score(deal, **rules):
    return score_deal({"game": "tressette4", **deal, **({"rules": rules} if rules else {})})


def codes(deal, **rules):
    with pytest.raises(Rejection) as caught:
        score(deal, **rules)
    return [(p.code, p.path) for p in caught.value.problems]


# -- section 5.1 -------------------------------------------------------------------------


def test_tv01_plain_deal():
    result = score({"sides": sides(14, 4, 18, 6), "last_trick": "B"})
    assert result.points == {"A": 4, "B": 7}
    assert result.breakdown["A"][0].detail == {"thirds": 14, "dropped_thirds": 2}


@pytest.mark.parametrize("rounding", ["floor_per_scorer", "remainder_to_last_trick"])
def test_tv02_rounding_switches_agree_for_two_sides(rounding):
    result = score({"sides": sides(20, 5, 12, 5), "last_trick": "A"}, **{"core.rounding": rounding})
    assert result.points == {"A": 7, "B": 4}


def test_tv03_one_card_in_two_declarations():
    deal = {
        "sides": sides(17, 5, 15, 5),
        "last_trick": "A",
        "declarations": [napoletana("N", "c"), four("N", "2")],
    }
    assert score(deal).points == {"A": 13, "B": 5}


def test_tv04_cross_player_consistency_that_passes():
    deal = {
        "sides": sides(16, 5, 16, 5),
        "last_trick": "B",
        "declarations": [napoletana("N", "d"), three("E", "3", "d")],
    }
    assert score(deal).points == {"A": 8, "B": 9}


def test_tv05_cross_player_conflict_names_cards_and_players():
    deal = {
        "sides": sides(16, 5, 16, 5),
        "last_trick": "B",
        "declarations": [four("N", "3"), napoletana("E", "s")],
    }
    with pytest.raises(Rejection) as caught:
        score(deal)
    problem = caught.value.problems[0]
    assert (problem.code, problem.path) == ("decl.cross_player_conflict", "declarations[1]")
    assert problem.en == (
        "N declared four 3s and E declared napoletana in swords: both would hold the 3 of swords."
    )
    assert "tre di spade" in problem.it


def test_tv06_same_player_conflict():
    deal = {
        "sides": sides(16, 5, 16, 5),
        "last_trick": "B",
        "declarations": [napoletana("N", "d"), three("N", "3", "d")],
    }
    assert ("decl.same_player_conflict", "declarations[1]") in codes(deal)


def test_tv06b_three_plus_napoletana_in_another_suit():
    deal = {
        "sides": sides(16, 5, 16, 5),
        "last_trick": "B",
        "declarations": [napoletana("N", "d"), three("N", "3", "c")],
    }
    assert score(deal).points == {"A": 5 + 6, "B": 6}


def test_tv07_cdg_example():
    deal = {
        "sides": sides(16, 5, 16, 5),
        "last_trick": "B",
        "declarations": [napoletana("S", "c"), three("S", "2", "d")],
    }
    assert score(deal).points["A"] == 5 + 6


def test_tv08_maximum_declaration_is_19():
    decls = [napoletana("W", s) for s in "dcs"]
    decls += [four("W", "3"), three("W", "2", "b"), three("W", "A", "b")]
    deal = {"sides": sides(16, 5, 16, 5), "last_trick": "B", "declarations": decls}
    assert score(deal).points == {"A": 5, "B": 6 + 19}


def test_a_player_cannot_declare_more_cards_than_a_hand_holds():
    decls = [napoletana("W", s) for s in "dcsb"]  # 12 cards
    deal = {"sides": sides(16, 5, 16, 5), "last_trick": "B", "declarations": decls}
    found = codes(deal)
    assert ("decl.too_many_cards", "declarations[3]") in found


HANDS = {  # TV09
    "H1": "Rd Fc 7d 7c 6s 6b 5d 5c 4s 4b",
    "H2": "3s Rd 7d 7c 6s 6b 5d 5c 4s 4b",
    "H3": "Rd Cc Fs 7d 7c 6s 6b 5d 5c 4s",
    "H4": "Ad 7d 7c 6s 6b 5d 5c 4s 4b 7s",
}


@pytest.mark.parametrize(
    "hand,rule,allowed",
    [
        ("H1", "less_than_one_point", True),
        ("H2", "less_than_one_point", True),
        ("H3", "less_than_one_point", False),
        ("H4", "less_than_one_point", False),
        ("H1", "no_carico_and_lt3_figures", True),
        ("H2", "no_carico_and_lt3_figures", False),
        ("H3", "no_carico_and_lt3_figures", False),
        ("H4", "no_carico_and_lt3_figures", False),
    ],
)
def test_tv09_annul_rules(hand, rule, allowed):
    deal = {"annulled_by": "E", "hand": HANDS[hand].split()}
    if allowed:
        result = score(deal, **{"t4.annul_rule": rule})
        assert result.annulled and result.same_dealer and result.points == {"A": 0, "B": 0}
    else:
        assert codes(deal, **{"t4.annul_rule": rule}) == [("t4.annul_not_allowed", "hand")]


TV13 = {
    "sides": sides(32, 10, 0, 0),
    "last_trick": "A",
    "declarations": [three("E", "A", "c")],
}


@pytest.mark.parametrize(
    "rules,points,multiplier,ends",
    [
        ({}, {"A": 11, "B": 3}, 2, True),
        ({"t4.multipliers": "PE"}, {"A": 11, "B": 3}, 4, True),
        ({"t4.special_event_effect": "score_points_only"}, {"A": 11, "B": 3}, 1, False),
        (
            {"t4.special_event_effect": "score_points_only", "t4.decl_void_on_cappotto": "void"},
            {"A": 11, "B": 0},
            1,
            False,
        ),
    ],
)
def test_tv13_cappotto_with_a_declaration_on_the_losing_side(rules, points, multiplier, ends):
    result = score(TV13, **rules)
    assert result.event == "cappotto"
    assert (result.points, result.multiplier, result.ends_match) == (points, multiplier, ends)


@pytest.mark.parametrize("table,multiplier", [("PEN", 6), ("PE", 8), ("SPZ", 2)])
def test_tv18_cappottone(table, multiplier):
    deal = {
        "seats": seats(N=(32, 10), S=(0, 0), E=(0, 0), W=(0, 0)),
        "last_trick": "A",
    }
    result = score(deal, **{"t4.multipliers": table})
    assert result.event == "cappottone"
    assert result.points == {"A": 11, "B": 0}
    assert result.multiplier == multiplier


def test_without_per_player_detail_all_tricks_by_one_player_is_a_cappotto():
    result = score({"sides": sides(32, 10, 0, 0), "last_trick": "A"})
    assert (result.event, result.multiplier) == ("cappotto", 2)


# -- stramazzo and stramazzone -------------------------------------------------------------


@pytest.mark.parametrize(
    "rule,loser_thirds,event",
    [
        ("strict_zero_counters", 0, "stramazzo"),
        ("strict_zero_counters", 1, None),
        ("lt_one_point", 2, "stramazzo"),
        ("lt_one_point", 3, None),
    ],
)
def test_stramazzo_definitions(rule, loser_thirds, event):
    deal = {"sides": sides(32 - loser_thirds, 8, loser_thirds, 2), "last_trick": "A"}
    result = score(deal, **{"t4.stramazzo_def": rule})
    assert result.event == event
    assert result.multiplier == (3 if event else 1)


@pytest.mark.parametrize(
    "rule,points",
    [("loser_point_void", {"A": 10, "B": 0}), ("loser_point_to_winner", {"A": 11, "B": 0})],
)
def test_stramazzo_losers_last_trick_point(rule, points):
    deal = {"sides": sides(32, 9, 0, 1), "last_trick": "B"}
    result = score(deal, **{"t4.stramazzo_last_trick": rule})
    assert result.event == "stramazzo"
    assert result.points == points


@pytest.mark.parametrize("table,multiplier", [("PEN", 8), ("PE", 6), ("SPZ", 3)])
def test_stramazzone(table, multiplier):
    deal = {
        "seats": seats(N=(32, 7), S=(0, 1), E=(0, 1), W=(0, 1)),
        "last_trick": "A",
    }
    result = score(deal, **{"t4.multipliers": table})
    assert (result.event, result.multiplier) == ("stramazzone", multiplier)


def test_cappotto_all_points_definition():
    deal = {"sides": sides(30, 8, 2, 2), "last_trick": "A"}
    assert score(deal).event is None
    result = score(deal, **{"t4.cappotto_def": "all_points"})
    assert (result.event, result.points) == ("cappotto", {"A": 11, "B": 0})


# -- collatondrione -------------------------------------------------------------------


@pytest.mark.parametrize(
    "rule,points", [("none", {"A": 0, "B": 0}), ("11_deck_points_to_opponents", {"A": 0, "B": 11})]
)
def test_collatondrione_wins_the_game_times_16(rule, points):
    deal = {"declarations": [{"player": "N", "type": "decima", "suit": "d"}]}
    result = score(deal, **{"t4.collatondrione_points": rule})
    assert (result.event, result.multiplier, result.ends_match) == ("collatondrione", 16, True)
    assert result.points == points


def test_decima_excludes_other_declarations_of_that_suit():
    deal = {
        "declarations": [
            {"player": "N", "type": "decima", "suit": "d"},
            napoletana("E", "d"),
        ]
    }
    assert ("decl.cross_player_conflict", "declarations[1]") in codes(deal)


# -- claims ---------------------------------------------------------------------------


def test_a_correct_claim_wins_the_game():
    deal = {
        "sides": sides(20, 6, 0, 1),
        "claim": {"side": "A", "after_trick": 7},
        "before": {"A": 15, "B": 18},
    }
    result = score(deal)
    assert result.claim == {"side": "A", "after_trick": 7, "total": 21, "target": 21, "holds": True}
    assert result.ends_match


def test_a_false_claim_loses_the_game():
    match = play_match(
        {
            "game": "tressette4",
            "deals": [
                {"sides": sides(14, 4, 18, 6), "last_trick": "B"},
                {"sides": sides(20, 6, 0, 1), "claim": {"side": "A", "after_trick": 7}},
            ],
        }
    )
    outcome = match.state.outcome
    assert outcome.reason == "false_claim"
    assert outcome.winners == ("E", "W")
    assert outcome.units == {"E": 1, "W": 1, "N": -1, "S": -1}


def test_claim_counts_last_trick_only_when_trick_ten_is_done():
    deal = {
        "sides": sides(17, 6, 15, 4),
        "last_trick": "A",
        "claim": {"side": "A", "after_trick": 10},
        "before": {"A": 15},
    }
    assert score(deal).claim["total"] == 15 + 5 + 1


@pytest.mark.parametrize(
    "rules,claim,code",
    [
        ({"t4.claim_mode": "off"}, {"side": "A", "after_trick": 5}, ("t4.claim_off", "claim")),
        (
            {"t4.claim_mode": "only_when_on_lead"},
            {"side": "A", "after_trick": 5},
            ("t4.claim_not_on_lead", "claim.on_lead"),
        ),
        ({}, {"side": "C", "after_trick": 5}, ("t4.claim_bad_side", "claim.side")),
    ],
)
def test_claim_rejections(rules, claim, code):
    deal = {"sides": sides(10, 3, 2, 2), "claim": claim}
    assert code in codes(deal, **rules)


def test_claim_when_on_lead_is_accepted():
    deal = {"sides": sides(10, 3, 2, 2), "claim": {"side": "A", "after_trick": 5, "on_lead": True}}
    assert score(deal, **{"t4.claim_mode": "only_when_on_lead"}).ends_match


# -- rejections -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "deal,rules,code",
    [
        ({"sides": sides(14, 4, 17, 6), "last_trick": "B"}, {}, ("capture.thirds_total", "")),
        ({"sides": sides(14, 4, 18, 5), "last_trick": "B"}, {}, ("capture.tricks_total", "")),
        (
            {"sides": sides(14, 4, 18, 6), "last_trick": "C"},
            {},
            ("last_trick.unknown", "last_trick"),
        ),
        ({"sides": sides(14, 4, 18, 6)}, {}, ("last_trick.missing", "last_trick")),
        (
            {"sides": sides(0, 0, 32, 10), "last_trick": "A"},
            {},
            ("last_trick.no_tricks", "last_trick"),
        ),
        (
            {
                "sides": sides(14, 4, 18, 6),
                "last_trick": "B",
                "declarations": [napoletana("N", "d")],
            },
            {"t4.declarations": False},
            ("t4.declarations_off", "declarations"),
        ),
        (
            {
                "sides": sides(14, 4, 18, 6),
                "last_trick": "B",
                "declarations": [{**napoletana("N", "d"), "trick": 2}],
            },
            {},
            ("t4.decl_too_late", "declarations[0]"),
        ),
        (
            {
                "sides": sides(14, 4, 18, 6),
                "last_trick": "B",
                "declarations": [four("N", "3"), three("N", "3", "d")],
            },
            {},
            ("decl.same_rank_twice", "declarations[1]"),
        ),
        (
            {
                "sides": sides(14, 4, 18, 6),
                "last_trick": "B",
                "declarations": [{"player": "N", "type": "trio"}],
            },
            {},
            ("decl.bad_type", "declarations[0].type"),
        ),
        (
            {
                "sides": sides(14, 4, 18, 6),
                "last_trick": "B",
                "declarations": [three("N", "R", "d")],
            },
            {},
            ("decl.bad_rank", "declarations[0].rank"),
        ),
        (
            {
                "sides": sides(14, 4, 18, 6),
                "last_trick": "B",
                "declarations": [{**napoletana("N", "d"), "coda": 2}],
            },
            {},
            ("decl.coda_off", "declarations[0].coda"),
        ),
        ({"annulled_by": "N"}, {"t4.annul_rule": "off"}, ("t4.annul_off", "annulled_by")),
        ({"annulled_by": "N", "last_trick": "A"}, {}, ("t4.annul_with_play", "last_trick")),
        ({"annulled_by": "N", "hand": ["Rd"]}, {}, ("t4.annul_hand_size", "hand")),
        (
            {"hand": ["Rd"], "sides": sides(14, 4, 18, 6), "last_trick": "B"},
            {},
            ("t4.hand_without_annul", "hand"),
        ),
        (
            {"sides": sides(14, 4, 18, 6), "seats": seats(N=(1, 1)), "last_trick": "B"},
            {},
            ("t4.sides_or_players", "seats"),
        ),
        (
            {"sides": sides(14, 4, 18, 6), "last_trick": "B", "colour": 1},
            {},
            ("input.unknown_field", "colour"),
        ),
    ],
)
def test_rejections(deal, rules, code):
    assert code in codes(deal, **rules)


def test_coda_adds_a_point_per_card_when_played():
    deal = {
        "sides": sides(16, 5, 16, 5),
        "last_trick": "B",
        "declarations": [{**napoletana("N", "d"), "coda": 2}],
    }
    assert score(deal, **{"t4.decl_coda": "on_own_cards"}).points["A"] == 5 + 5


def test_cards_level_derives_thirds_and_checks_every_counter():
    a_cards = ["Ad", "Ac", "As", "2d", "3c", "Rs", "Cb", "Fd"]  # 14 thirds (TV01)
    rest = [
        "Ab",
        "3d",
        "3s",
        "3b",
        "2c",
        "2s",
        "2b",
        "Rd",
        "Rc",
        "Rb",
        "Cd",
        "Cc",
        "Cs",
        "Fc",
        "Fs",
        "Fb",
    ]
    deal = {
        "sides": {"A": {"cards": a_cards, "tricks": 4}, "B": {"cards": rest, "tricks": 6}},
        "last_trick": "B",
    }
    result = score(deal)
    assert result.level == "cards"
    assert result.points == {"A": 4, "B": 7}
    deal["sides"]["B"]["cards"] = rest[:-1]
    assert ("capture.counters_missing", "") in codes(deal)
    deal["sides"]["B"]["cards"] = [*rest[:-1], "Ad"]
    assert ("card.duplicate", "sides.B.cards") in codes(deal)


# -- the match --------------------------------------------------------------------------


def test_match_reaches_the_target_and_refuses_another_deal():
    deal = {"sides": sides(20, 5, 12, 5), "last_trick": "A"}
    with pytest.raises(Rejection) as caught:
        play_match({"game": "tressette4", "deals": [deal, deal, deal, deal]})
    assert [p.code for p in caught.value.problems] == ["match.finished"]
    assert caught.value.problems[0].path == "deals[3]"
    match = play_match({"game": "tressette4", "deals": [deal, deal, deal]})
    assert match.state.totals == {"A": 21, "B": 12}
    assert match.state.outcome.reason == "target"
    assert match.state.outcome.winners == ("N", "S")


@pytest.mark.parametrize(
    "rule,finished", [("higher_total_wins", True), ("play_another_deal", False)]
)
def test_both_sides_reach_the_target(rule, finished):
    deals = [{"sides": sides(17, 5, 15, 5), "last_trick": "B"}] * 4  # 5 + 6 each deal
    match = play_match(
        {
            "game": "tressette4",
            "rules": {"t4.both_reach_target": rule, "t4.target": 25},
            "deals": deals,
        }
    )
    assert match.state.totals == {"A": 20, "B": 24}
    assert not match.state.finished
    deals = [*deals, {"sides": sides(20, 5, 12, 5), "last_trick": "A"}]  # A 27, B 28
    match = play_match(
        {
            "game": "tressette4",
            "rules": {"t4.both_reach_target": rule, "t4.target": 25},
            "deals": deals,
        }
    )
    assert match.state.finished is finished


def test_annulled_deal_keeps_the_dealer_and_dealing_passes_anticlockwise():
    deals = [
        {"dealer": "N", "annulled_by": "E"},
        {"dealer": "N", "sides": sides(14, 4, 18, 6), "last_trick": "B"},
        {"dealer": "W", "sides": sides(14, 4, 18, 6), "last_trick": "B"},
    ]
    match = play_match({"game": "tressette4", "first_dealer": "N", "deals": deals})
    assert match.state.dealer == "S"


def test_wrong_dealer_is_rejected():
    with pytest.raises(Rejection) as caught:
        play_match({"game": "tressette4", "deals": [{"dealer": "E", "annulled_by": "N"}]})
    assert (caught.value.problems[0].code, caught.value.problems[0].path) == (
        "deal.wrong_dealer",
        "deals[0].dealer",
    )


def test_event_ends_the_game_with_its_multiplier():
    deals = [{"sides": sides(0, 0, 32, 10), "last_trick": "B"}]
    outcome = play_match({"game": "tressette4", "deals": deals}).state.outcome
    assert (outcome.reason, outcome.multiplier, outcome.winners) == ("event", 2, ("E", "W"))
    assert outcome.units == {"E": 2, "W": 2, "N": -2, "S": -2}


def test_carry_over_excess():
    deals = [{"sides": sides(20, 5, 12, 5), "last_trick": "A"}] * 3
    rules = {"t4.carry_over_excess": "on_except_won_by_declarations_alone", "t4.target": 20}
    outcome = play_match({"game": "tressette4", "rules": rules, "deals": deals}).state.outcome
    assert outcome.detail["carry_over"] == 1


@pytest.mark.parametrize("target,carry", [(14, {"carry_over": 3}), (15, {})])
def test_carry_over_at_its_boundary(target, carry):
    """Reference 2.1.6: the excess carries "except when the game was won by declarations
    alone". A 7, then 7 and a napoletana (3): 17. To 14 the cards alone reached it (17 - 3
    = 14): the 3 carry. To 15 only the declaration did: nothing carries."""
    plain = {"sides": sides(20, 5, 12, 5), "last_trick": "A"}
    declared = {**plain, "declarations": [napoletana("N", "c")]}
    rules = {"t4.carry_over_excess": "on_except_won_by_declarations_alone", "t4.target": target}
    body = {"game": "tressette4", "rules": rules, "deals": [plain, declared]}
    outcome = play_match(body).state.outcome
    assert outcome.detail["totals"] == {"A": 17, "B": 8}
    assert {k: v for k, v in outcome.detail.items() if k == "carry_over"} == carry


@pytest.mark.parametrize("profile", ["classic_21", "accusi_31", "accuso_41", "torneo_31", "pe"])
def test_profiles_resolve(profile):
    result = score({"sides": sides(14, 4, 18, 6), "last_trick": "B"}, profile=profile)
    assert result.points == {"A": 4, "B": 7}
