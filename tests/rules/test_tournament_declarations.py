"""Declarations as the tournament code reads them (issue 16, "Declarations (accusi)").

Codice del tressette (Enucatl/tressette, ``regole``; reference 2.1.3 and A3): a player who
holds all four cards of a rank must declare four of a kind; declaring three of them is an
under-declaration. By default the entry is refused; under ``t4.decl_error_penalty = PE``
the three scores as declared and the fourth point is lost.
"""

from __future__ import annotations

import random

import pytest

from scorebook.rules import Rejection, games, score_deal
from scorebook.rules.cards import parse_card
from scorebook.rules.games.tressette4 import possible_declarations

#: N holds all four 3s; everyone else as in a deal by suits.
HANDS = {
    "N": ["3d", "3c", "3s", "3b", "Rd", "Cd", "Fd", "7d", "6d", "5d"],
    "W": ["2d", "2c", "Ac", "Rc", "Cc", "Fc", "7c", "6c", "5c", "4c"],
    "S": ["Ad", "2s", "As", "Rs", "Cs", "Fs", "7s", "6s", "5s", "4s"],
    "E": ["4d", "2b", "Ab", "Rb", "Cb", "Fb", "7b", "6b", "5b", "4b"],
}


def _deal(declarations, rules=None):
    return {
        "game": "tressette4",
        "rules": rules or {},
        "dealer": "N",
        "hands": HANDS,
        "tricks": [["4c", "4s", "4b", "3c"]],
        "claim": {"side": "B"},
        "declarations": declarations,
    }


THREE_3S = {"player": "N", "type": "three", "rank": "3", "missing": "b"}


def test_holding_four_a_player_may_not_declare_three():
    with pytest.raises(Rejection) as caught:
        score_deal(_deal([THREE_3S]))
    (problem,) = caught.value.problems
    assert problem.code == "t4.decl_three_of_four"
    assert problem.path == "declarations[0]"
    assert "3 of batons" in problem.en and "quattro" in problem.it


def test_four_of_a_kind_declared_as_four_is_accepted():
    result = score_deal(_deal([{"player": "N", "type": "four", "rank": "3"}]))
    declared = [ln for ln in result.breakdown["A"] if ln.kind == "declaration"]
    assert [ln.points for ln in declared] == [4]


def test_under_pe_the_three_scores_three_and_the_fourth_point_is_lost():
    result = score_deal(_deal([THREE_3S], {"t4.decl_error_penalty": "PE"}))
    (line,) = [ln for ln in result.breakdown["A"] if ln.kind == "declaration"]
    assert line.points == 3
    assert line.detail["under_declared"] == "3b"
    cards = [ln for ln in result.breakdown["A"] if ln.kind == "cards"]
    assert all("forfeited" not in ln.detail for ln in cards)  # only over-declaring costs them


# -- Tressette for two: declarations by a switch (issue 16, "Also") ------------------------

T2_ON = {"t2.declarations": True}
T2_TOTALS = {
    "game": "tressette2",
    "dealer": "P1",
    "seats": {"P1": {"thirds": 20, "tricks": 12}, "P2": {"thirds": 12, "tricks": 8}},
    "last_trick": "P1",
}


def test_tressette_for_two_refuses_declarations_by_default():
    deal = {**T2_TOTALS, "declarations": [{"player": "P2", "type": "napoletana", "suit": "c"}]}
    with pytest.raises(Rejection) as caught:
        score_deal(deal)
    assert [p.code for p in caught.value.problems] == ["ind.no_declarations"]


def test_with_the_switch_a_declaration_scores_for_its_player():
    deal = {
        **T2_TOTALS,
        "rules": T2_ON,
        "declarations": [
            {"player": "P2", "type": "napoletana", "suit": "c"},
            {"player": "P2", "type": "four", "rank": "A"},
        ],
    }
    result = score_deal(deal)
    assert result.points == {"P1": 6 + 1, "P2": 4 + 3 + 4}
    declared = [ln.points for ln in result.breakdown["P2"] if ln.kind == "declaration"]
    assert declared == [3, 4]


def test_two_players_cannot_both_declare_the_same_rank():
    deal = {
        **T2_TOTALS,
        "rules": T2_ON,
        "declarations": [
            {"player": "P1", "type": "three", "rank": "3", "missing": "d"},
            {"player": "P2", "type": "three", "rank": "3", "missing": "c"},
        ],
    }
    with pytest.raises(Rejection) as caught:
        score_deal(deal)
    assert "decl.cross_player_conflict" in [p.code for p in caught.value.problems]


def _t2_play(seed):
    """A random legal Tressette-for-two deal with the stock, at the play level."""
    game = games()["tressette2"]
    rules = game.rules(T2_ON)
    state = game.new_match(rules, 2)
    return game, rules, state, game.random_deal(random.Random(seed), rules, state, "play")


def test_at_the_play_level_a_declaration_held_in_the_ten_dealt_cards_scores():
    for seed in range(2000):
        game, rules, state, deal = _t2_play(seed)
        held = possible_declarations({"P2": [parse_card(c) for c in deal["hands"]["P2"]]})
        if held:
            break
    deal["declarations"] = held[:1]
    result = game.score_deal(deal, rules, state)
    (line,) = [ln for ln in result.breakdown["P2"] if ln.kind == "declaration"]
    assert line.points == {"napoletana": 3, "three": 3, "four": 4}[held[0]["type"]]


def test_at_the_play_level_cards_drawn_from_the_stock_do_not_declare():
    game, rules, state, deal = _t2_play(7)
    dealt = set(deal["hands"]["P2"])
    suit = next(s for s in "dcsb" if not {f"3{s}", f"2{s}", f"A{s}"} <= dealt)
    deal["declarations"] = [{"player": "P2", "type": "napoletana", "suit": suit}]
    with pytest.raises(Rejection) as caught:
        game.score_deal(deal, rules, state)
    assert [p.code for p in caught.value.problems] == ["decl.not_in_hand"]


def test_combinations_implied_by_three_declared_ones_count_when_the_switch_says_so():
    """The tournament code: declarations implied by three or more declared combinations
    count as declared. Three napoletane (cups, coins, swords) show three 3s, three 2s and
    three aces, each missing batons."""
    from scorebook.rules import score_deal

    declared = [{"player": "N", "type": "napoletana", "suit": s} for s in ("c", "d", "s")]
    deal = {
        "game": "tressette4",
        "sides": {"A": {"thirds": 20, "tricks": 6}, "B": {"thirds": 12, "tricks": 4}},
        "last_trick": "A",
        "declarations": declared,
    }
    plain = score_deal(deal)
    counted = score_deal({**deal, "rules": {"t4.implied_declarations": "counted"}})
    assert counted.points["A"] == plain.points["A"] + 9
    implied = [ln.as_dict() for ln in counted.breakdown["A"] if ln.detail.get("implied")]
    assert [(d["type"], d["rank"], d["missing"]) for d in implied] == [
        ("three", "3", "b"),
        ("three", "2", "b"),
        ("three", "A", "b"),
    ]
    # Two declared combinations imply nothing.
    two = {**deal, "declarations": declared[:2], "rules": {"t4.implied_declarations": "counted"}}
    assert score_deal(two).points == score_deal({**deal, "declarations": declared[:2]}).points


def test_three_groups_missing_one_suit_imply_three_napoletane():
    from scorebook.rules import score_deal

    declared = [
        {"player": "E", "type": "three", "rank": r, "missing": "d"} for r in ("3", "2", "A")
    ]
    deal = {
        "game": "tressette4",
        "rules": {"t4.implied_declarations": "counted"},
        "sides": {"A": {"thirds": 20, "tricks": 6}, "B": {"thirds": 12, "tricks": 4}},
        "last_trick": "A",
        "declarations": declared,
    }
    result = score_deal(deal)
    suits = sorted(ln.detail["suit"] for ln in result.breakdown["B"] if ln.detail.get("implied"))
    assert suits == ["b", "c", "s"]
    assert result.points["B"] == 4 + 9 + 9
