"""The rules reference (shared/rules/REFERENCE.md) statement by statement, where the other
modules of tests/rules leave one open: each test quotes the section it pins and goes
through the engine's front door (``score_deal``), with the reference's own figures."""

from __future__ import annotations

import pytest

from scorebook.rules import Rejection, score_deal


def sides(a, ta, b, tb):
    return {"A": {"thirds": a, "tricks": ta}, "B": {"thirds": b, "tricks": tb}}


def score(game, deal, **rules):
    return score_deal({"game": game, **deal, **({"rules": rules} if rules else {})})


def refused(game, deal, **rules):
    with pytest.raises(Rejection) as caught:
        score(game, deal, **rules)
    return caught.value.problems


def codes(game, deal, **rules):
    return [(p.code, p.path) for p in refused(game, deal, **rules)]


# -- 1.3 and D4/D9: what the pack's cards can hold ----------------------------------------
# 4 aces of 3 thirds, 20 cards of 1, 16 of 0: n cards hold at most the aces then the
# figures, and at least a counter for every card beyond the 16 blanks.


@pytest.mark.parametrize(
    "a,ta,b,tb,ok",
    [
        (0, 4, 32, 6, True),  # 16 cards: all the 7s, 6s, 5s and 4s
        (0, 5, 32, 5, False),  # 20 cards: at least 4 of them count
        (4, 5, 28, 5, True),
        (16, 2, 16, 8, True),  # 8 cards: 4 aces + 4 figures
        (17, 2, 15, 8, False),  # more than the pack puts in 8 cards (D9 said 24)
    ],
)
def test_d4_d9_a_sides_thirds_fit_the_cards_of_its_tricks(a, ta, b, tb, ok):
    deal = {"sides": sides(a, ta, b, tb), "last_trick": "B"}
    if ok:
        assert sum(score("tressette4", deal).points.values()) in (10, 11)
    else:
        found = codes("tressette4", deal)
        assert found[0][1] == "sides.A"
        assert found[0][0] in ("capture.thirds_under_cards", "capture.thirds_over_tricks")


def test_d4_the_refusal_says_why_in_both_languages():
    problem = refused("tressette4", {"sides": sides(0, 5, 32, 5), "last_trick": "B"})[0]
    assert problem.code == "capture.thirds_under_cards"
    assert "20 cards" in problem.en and "16" in problem.en and "at least 4" in problem.en
    assert "20 carte" in problem.it and "almeno 4 terzi" in problem.it
    one = refused("tressette4", {"sides": sides(13, 1, 19, 9), "last_trick": "B"})[0]
    assert one.code == "capture.thirds_over_tricks"
    assert "won 1 trick," in one.en and "1 presa" in one.it  # not "1 tricks", "1 prese"


def test_d9_a_trick_and_the_monte_hold_seven_cards_in_terziglio():
    """2.7.4: the last trick's winner takes the monte (4 cards) too: one trick and the
    monte are 7 cards, at most 4 aces and 3 figures (15 thirds)."""
    bids = [{"player": "P1", "bid": "solo"}, {"player": "P2", "bid": "pass"}]
    bids.append({"player": "P3", "bid": "pass"})
    deal = {"dealer": "P3", "bids": bids, "last_trick": "soloist"}
    ok = {"soloist": {"thirds": 15, "tricks": 1}, "coalition": {"thirds": 17, "tricks": 11}}
    assert score("terziglio", {**deal, "sides": ok}).facts["side_points"]["soloist"] == 6
    over = {"soloist": {"thirds": 16, "tricks": 1}, "coalition": {"thirds": 16, "tricks": 11}}
    # and the coalition's 33 cards then hold too few: 17 of them at least count
    assert codes("terziglio", {**deal, "sides": over}) == [
        ("capture.thirds_over_tricks", "sides.soloist"),
        ("capture.thirds_under_cards", "sides.coalition"),
    ]
    # Tricks not counted (each side took some): no bound from counts nobody gave.
    bare = {"soloist": {"thirds": 32}, "coalition": {"thirds": 0}}
    assert score("terziglio", {**deal, "sides": bare}).event == "stramazzo"


def test_d9_two_players_twenty_cards_hold_four_thirds_at_least():
    """2.2: 20 tricks of 2 cards; a player's 10 tricks are 20 cards."""
    seats = {"P1": {"thirds": 3, "tricks": 10}, "P2": {"thirds": 29, "tricks": 10}}
    # P2's 29 in 20 cards is too many as well: at most 4 aces and 16 figures, 28.
    assert codes("tressette2", {"seats": seats, "last_trick": "P2"}) == [
        ("capture.thirds_under_cards", "seats.P1"),
        ("capture.thirds_over_tricks", "seats.P2"),
    ]
    seats = {"P1": {"thirds": 4, "tricks": 10}, "P2": {"thirds": 28, "tricks": 10}}
    assert score("tressette2", {"seats": seats, "last_trick": "P2"}).points == {
        "P1": 1,
        "P2": 10,
    }


def test_uncounted_seat_tricks_are_not_bounded():
    """A paper sheet writes points, not tricks: TV47 without tricks still scores."""
    seats = {f"P{i}": {"thirds": t} for i, t in enumerate((5, 9, 7, 11), 1)}
    result = score("rovescino", {"players": 4, "seats": seats, "last_trick": "P4"})
    assert result.points == {"P1": 1, "P2": 3, "P3": 2, "P4": 4}


# -- 1.4: two sides always make 10 card points and 11 in the deal --------------------------


@pytest.mark.parametrize("a", range(1, 32))
def test_1_4_two_sides_card_points_total_ten_for_every_split(a):
    result = score(
        "tressette4", {"sides": {"A": {"thirds": a}, "B": {"thirds": 32 - a}}, "last_trick": "A"}
    )
    assert sum(result.points.values()) == 11
    assert result.points["A"] == a // 3 + 1 and result.points["B"] == (32 - a) // 3


# -- 2.1.3 and A6: declarations --------------------------------------------------------------


def test_a6_a_side_may_declare_21():
    """N 18 (three napoletane and three of a kind x3, each missing batons), S the fourth
    napoletana: the side's maximum, 21."""
    decl = [{"player": "N", "type": "napoletana", "suit": s} for s in "dcs"]
    decl += [{"player": "N", "type": "three", "rank": r, "missing": "b"} for r in "32A"]
    decl.append({"player": "S", "type": "napoletana", "suit": "b"})
    deal = {"sides": sides(20, 5, 12, 5), "last_trick": "A", "declarations": decl}
    assert score("tressette4", deal).points == {"A": 7 + 21, "B": 4}


@pytest.mark.parametrize(
    "first,second",
    [
        ({"type": "napoletana", "suit": "d"}, {"type": "three", "rank": "3", "missing": "c"}),
        (
            {"type": "three", "rank": "A", "missing": "d"},
            {"type": "three", "rank": "A", "missing": "c"},
        ),
        ({"type": "decima", "suit": "d"}, {"type": "three", "rank": "A", "missing": "c"}),
    ],
    ids=["napoletana-needs-the-missing-suit", "same-rank-twice", "decima"],
)
def test_a5_cross_player_conflicts(first, second):
    decl = [{"player": "N", **first}, {"player": "E", **second}]
    deal = {"sides": sides(20, 5, 12, 5), "last_trick": "A", "declarations": decl}
    assert codes("tressette4", deal) == [("decl.cross_player_conflict", "declarations[1]")]


# -- 2.1.7, E3, E6: special events -------------------------------------------------------------


@pytest.mark.parametrize(
    "rules,points",
    [
        ({}, {"A": 10, "B": 0}),
        ({"t4.stramazzo_last_trick": "loser_point_to_winner"}, {"A": 11, "B": 0}),
    ],
)
def test_e3_stramazzo_stands_when_the_losers_took_the_last_trick(rules, points):
    """PE: "it remains a stramazzo even if that pair took the last trick"; PEN: the losers
    cannot score the last-trick point."""
    rules = {"t4.special_event_effect": "score_points_only", **rules}
    result = score("tressette4", {"sides": sides(32, 9, 0, 1), "last_trick": "B"}, **rules)
    assert result.event == "stramazzo" and result.points == points


@pytest.mark.parametrize("b,event", [(2, "stramazzo"), (3, None)])
def test_e3_loose_stramazzo_is_less_than_a_point_without_an_ace(b, event):
    deal = {"sides": sides(32 - b, 9, b, 1), "last_trick": "B"}
    assert score("tressette4", deal, **{"t4.stramazzo_def": "lt_one_point"}).event == event


def test_e2_cappotto_by_points_is_not_one_when_the_losers_took_the_last_trick():
    rules = {"t4.cappotto_def": "all_points"}
    assert (
        score("tressette4", {"sides": sides(30, 9, 2, 1), "last_trick": "A"}, **rules).event
        == "cappotto"
    )
    assert (
        score("tressette4", {"sides": sides(30, 9, 2, 1), "last_trick": "B"}, **rules).event is None
    )


def test_e6_precedence():
    """collatondrione > cappottone > cappotto > stramazzone > stramazzo."""
    decima = [{"player": "N", "type": "decima", "suit": "d"}]
    deal = {"sides": sides(32, 10, 0, 0), "last_trick": "A", "declarations": decima}
    result = score("tressette4", deal)
    assert (result.event, result.multiplier) == ("collatondrione", 16)
    seats = {
        "N": {"thirds": 32, "tricks": 6},  # the 24 counters are 6 tricks at least
        "S": {"thirds": 0, "tricks": 2},
        "E": {"thirds": 0, "tricks": 2},
        "W": {"thirds": 0, "tricks": 0},
    }
    deal = {"seats": seats, "last_trick": "A"}
    assert score("tressette4", deal).event == "stramazzone"
    both = score("tressette4", deal, **{"t4.cappotto_def": "all_points"})
    assert (both.event, both.multiplier) == ("cappotto", 2)


def test_spz_multipliers_pay_a_single_players_event_as_the_sides():
    """SPZ names cappotto x2 and stramazzo x3 only: one player's all-tricks or all-counters
    deal is still a cappotto or a stramazzo."""
    alone = {p: {"thirds": 0, "tricks": 0} for p in "SEW"}
    seats = {"N": {"thirds": 32, "tricks": 10}, **alone}
    assert (
        score(
            "tressette4", {"seats": seats, "last_trick": "A"}, **{"t4.multipliers": "SPZ"}
        ).multiplier
        == 2
    )


# -- 2.8, K1: Calabrasella's last trick is 3 points --------------------------------------------

CAV = {
    "dealer": "P3",
    "bids": [{"player": "P1", "bid": "stand"}],
    "called": "3s",
    "called_from": "P2",
    "discards": 2,
}


def cav_sides(b, bt, o, ot):
    return {"bidder": {"points": b, "tricks": bt}, "opponents": {"points": o, "tricks": ot}}


def test_k1_the_side_with_the_last_trick_has_its_3_points():
    """FOS: "last trick = 3": a bidder who won it cannot end on 2."""
    problems = refused(
        "calabrasella", {**CAV, "sides": cav_sides(2, 1, 33, 11), "last_trick": "bidder"}
    )
    assert (problems[0].code, problems[0].path) == ("cav.last_trick_points", "sides.bidder.points")
    assert "3 points" in problems[0].en and "3 punti" in problems[0].it
    result = score(
        "calabrasella", {**CAV, "sides": cav_sides(3, 1, 32, 11), "last_trick": "bidder"}
    )
    assert result.units == {"P1": -58, "P2": 29, "P3": 29}  # |2 * 3 - 35| = 29 to each


def test_k1_the_side_without_a_trick_cannot_take_the_last_one_said_in_italian():
    deal = {**CAV, "sides": cav_sides(30, 12, 5, 0), "last_trick": "opponents"}
    problem = next(
        p for p in refused("calabrasella", deal) if p.code == "cav.last_trick_without_tricks"
    )
    assert problem.it == "Gli avversari: nessuna presa, quindi nemmeno l'ultima."


@pytest.mark.parametrize(
    "b,bt,o,ot,last,code",
    [
        # one trick and the stock are 7 cards: 4 aces and 3 figures, 15, and the last trick 3
        (18, 1, 17, 11, "bidder", None),
        (19, 1, 16, 11, "bidder", "cav.points_over_tricks"),
        # and the other side's 11 tricks are 33 cards: 17 of them at least count
        (19, 1, 16, 11, "bidder", "cav.points_under_cards"),
        # 11 tricks and the stock are 37 cards: 20 figures and an ace at least, + 3
        (9, 1, 26, 11, "opponents", None),
        (10, 1, 25, 11, "opponents", "cav.points_under_cards"),
    ],
)
def test_k1_points_fit_the_cards_of_the_tricks(b, bt, o, ot, last, code):
    """2.8: A = 3, 3/2/K/Q/J = 1, 7-4 = 0; the stock goes with the last trick."""
    deal = {**CAV, "sides": cav_sides(b, bt, o, ot), "last_trick": last}
    if code is None:
        assert sum(score("calabrasella", deal).units.values()) == 0
    else:
        assert code in [p.code for p in refused("calabrasella", deal)]


@pytest.mark.parametrize(
    "rule,points", [("none", {"A": 7, "B": 4}), ("11_deck_points_to_opponents", {"A": 0, "B": 11})]
)
def test_collatondrione_played_out_pe_credits_the_deck_to_the_opponents(rule, points):
    """2.1.7, PE: "x16, but the 11 deck points are credited to the opposing pair": when the
    hand is played out anyway, its 11 points are the opponents', not added to what each
    side took (PEN, SPZ: no points extra, the cards score as taken)."""
    decima = [{"player": "N", "type": "decima", "suit": "d"}]
    deal = {"sides": sides(20, 5, 12, 5), "last_trick": "A", "declarations": decima}
    result = score("tressette4", deal, **{"t4.collatondrione_points": rule})
    assert (result.event, result.multiplier, result.points) == ("collatondrione", 16, points)
