"""Rovescino / Traversone: penalties, deal tables, cappotto reversal, the ways it ends."""

from __future__ import annotations

import pytest

from scorebook.rules import Rejection, play_match, score_deal


def per(**seats):
    return {p: {"thirds": th, "tricks": tr} for p, (th, tr) in seats.items()}


TV47 = {
    "players": 4,
    "seats": per(P1=(5, 2), P2=(9, 3), P3=(7, 2), P4=(11, 3)),
    "last_trick": "P4",
}


def score(deal, **rules):
    return score_deal({"game": "rovescino", **deal, **({"rules": rules} if rules else {})})


def codes(deal, game="rovescino", **rules):
    with pytest.raises(Rejection) as caught:
        score_deal({"game": game, **deal, **({"rules": rules} if rules else {})})
    return [(p.code, p.path) for p in caught.value.problems]


@pytest.mark.parametrize(
    "rule,points",
    [
        ("plus_one_floor_rest", {"P1": 1, "P2": 3, "P3": 2, "P4": 4}),
        ("plus_one_and_all_leftovers", {"P1": 1, "P2": 3, "P3": 2, "P4": 5}),
    ],
)
def test_tv47_last_trick_rule(rule, points):
    assert score(TV47, **{"rov.last_trick": rule}).points == points


def test_tv49_partnership_cappotto_reversal():
    deal = {"sides": {"A": {"thirds": 32, "tricks": 10}, "B": {"thirds": 0, "tricks": 0}}}
    result = score_deal({"game": "traversone_pairs", **deal, "last_trick": "A"})
    assert (result.points, result.event) == ({"A": 0, "B": 11}, "cappotto")
    plain = score_deal(
        {"game": "traversone_pairs", **deal, "last_trick": "A", "rules": {"rov.cappotto": "off"}}
    )
    assert plain.points == {"A": 11, "B": 0}


def test_oas_cappotto_charges_everyone_else_11():
    deal = {**TV47, "seats": per(P1=(0, 0), P2=(0, 0), P3=(0, 0), P4=(32, 10))}
    result = score(deal, **{"rov.cappotto": "taker_zero_others_plus_11"})
    assert result.points == {"P1": 11, "P2": 11, "P3": 11, "P4": 0}
    assert score(deal).points["P4"] == 11


@pytest.mark.parametrize(
    "players,each,monte",
    [(4, 10, 0), (5, 8, 0), (6, 6, 4), (7, 5, 5), (8, 5, 0)],
)
def test_dossena_deal_table(players, each, monte):
    seats = [f"P{i}" for i in range(1, players + 1)]
    tricks = dict.fromkeys(seats, 0)
    tricks["P1"] = each
    entry = {p: {"thirds": 32 if p == "P1" else 0, "tricks": tricks[p]} for p in seats}
    result = score({"players": players, "seats": entry, "last_trick": "P1"})
    assert result.facts["monte"] == monte
    assert result.facts["tricks"]["P1"] == each


def test_three_players_announce_the_removed_four():
    deal = {"seats": per(P1=(10, 4), P2=(11, 4), P3=(11, 5)), "last_trick": "P3"}
    assert codes(deal) == [("rov.removed", "removed")]
    assert score({**deal, "removed": ["4c"]}).points == {"P1": 3, "P2": 3, "P3": 4}
    assert codes({**deal, "removed": ["5c"]}) == [("rov.removed", "removed")]


def test_pag_cia_monte_of_one_and_player_count():
    deal = {"seats": per(P1=(10, 4), P2=(11, 4), P3=(11, 5)), "last_trick": "P3"}
    assert score(deal, **{"rov.deal_table": "PAG-CIA"}).facts["monte"] == 1
    six = {"players": 6, "seats": per(**{f"P{i}": (0, 0) for i in range(1, 7)})}
    assert ("rov.table_players", "rules.rov.deal_table") in codes(
        six, **{"rov.deal_table": "PAG-CIA"}
    )


def test_removed_card_cannot_be_captured():
    deck = [f"{r}{s}" for r in "32ARCF" for s in "dcsb"]
    deal = {
        "seats": {
            "P1": {"cards": deck[:8] + ["4c"], "tricks": 4},
            "P2": {"cards": deck[8:16], "tricks": 4},
            "P3": {"cards": deck[16:], "tricks": 5},
        },
        "last_trick": "P3",
        "removed": ["4c"],
    }
    assert ("rov.removed_captured", "seats.P1") in codes(deal)


def deals_for(loser_points):
    """Deals in which P1 takes everything (4 players): 11 penalty points to P1 each time."""
    deal = {"seats": per(P1=(32, 10), P2=(0, 0), P3=(0, 0), P4=(0, 0)), "last_trick": "P1"}
    return [deal] * loser_points


def test_first_to_target_loses_and_pays_each_other_player():
    match = play_match({"game": "rovescino", "players": 4, "deals": deals_for(2)})
    outcome = match.state.outcome
    assert outcome.losers == ("P1",)
    assert outcome.units == {"P1": -3, "P2": 1, "P3": 1, "P4": 1}


def test_lowest_when_target_reached_wins_plays_on_while_tied():
    rules = {"rov.end": "lowest_when_target_reached_wins"}
    match = play_match({"game": "rovescino", "players": 4, "rules": rules, "deals": deals_for(2)})
    assert not match.state.finished  # P2, P3, P4 tied on 0


def test_fixed_number_of_deals():
    rules = {"rov.end": "fixed_number_of_deals", "rov.deals": 1}
    deal = {"seats": per(P1=(5, 2), P2=(9, 3), P3=(7, 2), P4=(11, 3)), "last_trick": "P4"}
    match = play_match({"game": "rovescino", "players": 4, "rules": rules, "deals": [deal]})
    assert match.state.outcome.winners == ("P1",)
    assert match.state.outcome.reason == "deals"


def test_elimination_until_three_remain():
    rules = {"rov.end": "elimination_until_three_remain", "rov.target": 11}
    deal = {"seats": per(P1=(32, 10), P2=(0, 0), P3=(0, 0), P4=(0, 0)), "last_trick": "P1"}
    match = play_match({"game": "rovescino", "players": 4, "rules": rules, "deals": [deal]})
    assert match.state.extra["out"] == ["P1"]
    assert not match.state.finished  # P2, P3, P4 tied on 0: play on among the three


def test_elimination_of_everyone_in_one_deal_ranks_those_who_played_it():
    rules = {"rov.end": "elimination_until_three_remain", "rov.target": 1}
    deal = {"seats": per(P1=(9, 3), P2=(9, 3), P3=(6, 2), P4=(8, 2)), "last_trick": "P4"}
    match = play_match({"game": "rovescino", "players": 4, "rules": rules, "deals": [deal]})
    assert match.state.totals == {"P1": 3, "P2": 3, "P3": 2, "P4": 3}
    assert match.state.outcome.winners == ("P3",)
    assert match.state.outcome.reason == "elimination"


def test_elimination_never_leaves_two_players_level():
    """A deal that put two out and left the other two level on the lowest left a match
    that neither ended nor took a deal ("The DOS deal table covers 3, 4, 5, 6, 7, 8
    players, not 2"). Nobody drops out when fewer than three would stay: the four play
    another deal, and the lowest then wins."""
    rules = {"rov.end": "elimination_until_three_remain", "rov.target": 5}
    both = {"seats": per(P1=(17, 4), P2=(15, 4), P3=(0, 1), P4=(0, 1)), "last_trick": "P1"}
    match = play_match({"game": "rovescino", "players": 4, "rules": rules, "deals": [both]})
    assert match.state.totals == {"P1": 6, "P2": 5, "P3": 0, "P4": 0}
    assert not match.state.finished and match.state.extra.get("out", []) == []
    after = {"seats": per(P1=(12, 3), P2=(11, 3), P3=(9, 3), P4=(0, 1)), "last_trick": "P1"}
    rules_deals = {"game": "rovescino", "players": 4, "rules": rules, "deals": [both, after]}
    match = play_match(rules_deals)
    assert match.state.totals == {"P1": 11, "P2": 8, "P3": 3, "P4": 0}
    assert (match.state.outcome.reason, match.state.outcome.winners) == ("elimination", ("P4",))


def test_three_left_level_on_the_lowest_play_one_more_deal():
    """Three left after the elimination, level on the lowest: the next deal is decided by
    the lowest total, as a tie at the target plays one more deal (it waited for someone
    to reach the target again, and two could then be left level)."""
    rules = {"rov.end": "elimination_until_three_remain", "rov.target": 11}
    first = {"seats": per(P1=(32, 10), P2=(0, 0), P3=(0, 0), P4=(0, 0)), "last_trick": "P1"}
    second = {
        "seats": per(P2=(9, 4), P3=(8, 4), P4=(15, 5)),
        "last_trick": "P4",
        "removed": ["4d"],
    }
    body = {"game": "rovescino", "players": 4, "rules": rules, "deals": [first, second]}
    match = play_match(body)
    assert match.state.totals == {"P1": 11, "P2": 3, "P3": 2, "P4": 6}
    assert (match.state.outcome.reason, match.state.outcome.winners) == ("elimination", ("P3",))
    assert match.state.outcome.units == {"P1": -1, "P2": -1, "P3": 3, "P4": -1}


def test_first_to_target_loses_two_past_it_in_one_deal_the_higher_loses():
    """Two players past the target in the same deal: the one with the higher total loses
    alone (the first to reach it is the worst: PEN), level ones lose together."""
    rules = {"rov.target": 5}
    both = {"seats": per(P1=(17, 4), P2=(15, 4), P3=(0, 1), P4=(0, 1)), "last_trick": "P1"}
    match = play_match({"game": "rovescino", "players": 4, "rules": rules, "deals": [both]})
    outcome = match.state.outcome
    assert (outcome.losers, outcome.winners) == (("P1",), ("P2", "P3", "P4"))
    assert outcome.units == {"P1": -3, "P2": 1, "P3": 1, "P4": 1}
    level = {"seats": per(P1=(15, 4), P2=(15, 4), P3=(2, 1), P4=(0, 1)), "last_trick": "P3"}
    match = play_match({"game": "rovescino", "players": 4, "rules": rules, "deals": [level]})
    outcome = match.state.outcome
    assert (outcome.losers, outcome.winners) == (("P1", "P2"), ("P3", "P4"))
    assert outcome.units == {"P1": -2, "P2": -2, "P3": 2, "P4": 2}


def test_eliminated_player_cannot_play_on():
    rules = {"rov.end": "elimination_until_three_remain", "rov.target": 11}
    first = {"seats": per(P1=(32, 10), P2=(0, 0), P3=(0, 0), P4=(0, 0)), "last_trick": "P1"}
    second = {"seats": per(P1=(10, 3), P2=(10, 3), P3=(12, 4), P4=(0, 0)), "last_trick": "P3"}
    with pytest.raises(Rejection) as caught:
        play_match({"game": "rovescino", "players": 4, "rules": rules, "deals": [first, second]})
    assert "rov.out_player" in [p.code for p in caught.value.problems]


@pytest.mark.parametrize("profile", ["pen_21", "traversone_31", "oas_41", "37no"])
def test_profiles(profile):
    from scorebook.rules import get_game

    assert get_game("rovescino").rules({"profile": profile}).profile == profile


def test_oas_cappotto_is_all_11_points_not_all_32_thirds():
    """Reference 2.6 (OAS): the last-trick taker "has all 11 points". Under the leftover
    rule the others' odd thirds are his, so 2 thirds each for the others is still a
    cappotto (the engine used to demand all 32 thirds)."""
    deal = {**TV47, "seats": per(P1=(2, 1), P2=(2, 1), P3=(2, 1), P4=(26, 7))}
    result = score(deal, profile="oas_41")
    assert (result.points, result.event) == ({"P1": 11, "P2": 11, "P3": 11, "P4": 0}, "cappotto")
    # Under the floor rule the same cards give P4 9 of the 11 points: no cappotto.
    floor = score(deal, **{"rov.cappotto": "taker_zero_others_plus_11"})
    assert (floor.points, floor.event) == ({"P1": 0, "P2": 0, "P3": 0, "P4": 9}, None)
    # 30 thirds and the last trick are 11 points under the floor rule too (R3).
    thirty = {**TV47, "seats": per(P1=(2, 1), P2=(0, 1), P3=(0, 1), P4=(30, 7))}
    assert score(thirty, **{"rov.cappotto": "taker_zero_others_plus_11"}).event == "cappotto"
    # The last-trick taker with most but not all of the points: no cappotto.
    short = {**TV47, "seats": per(P1=(3, 1), P2=(0, 1), P3=(0, 1), P4=(29, 7))}
    assert score(short, profile="oas_41").points == {"P1": 1, "P2": 0, "P3": 0, "P4": 10}


def test_core_rounding_remainder_to_last_trick_is_the_leftover_rule():
    """Reference 3.1 lists OAS, LOL and 37NO (Traversone) under
    core.rounding = remainder_to_last_trick: the same choice as rov.last_trick (3.6), so
    either switch gives TV47's 1, 3, 2, 5 (the engine used to ignore core.rounding)."""
    result = score(TV47, **{"core.rounding": "remainder_to_last_trick"})
    assert result.points == {"P1": 1, "P2": 3, "P3": 2, "P4": 5}
    assert sum(result.points.values()) == 11  # R2


def test_core_rounding_two_thirds_up_in_rovescino_warns_past_11():
    """Reference 1.4 / S5: rounding two thirds up may pass 11; warn, do not reject."""
    deal = {**TV47, "seats": per(P1=(8, 2), P2=(8, 2), P3=(8, 2), P4=(8, 4))}
    result = score(deal, **{"core.rounding": "round_two_thirds_up"})
    assert result.points == {"P1": 3, "P2": 3, "P3": 3, "P4": 4}
    assert [w.code for w in result.warnings] == ["ind.total_over_eleven"]
    assert score(deal).points == {"P1": 2, "P2": 2, "P3": 2, "P4": 3}  # R2: floor, 9


def test_partnership_cappotto_needs_all_11_points():
    """BIS (2.6): a team that takes all 11 points; 30 thirds and the last trick are 11."""
    deal = {"sides": {"A": {"thirds": 30, "tricks": 9}, "B": {"thirds": 2, "tricks": 1}}}
    result = score_deal({"game": "traversone_pairs", **deal, "last_trick": "A"})
    assert (result.points, result.event) == ({"A": 0, "B": 11}, "cappotto")
    deal = {"sides": {"A": {"thirds": 29, "tricks": 9}, "B": {"thirds": 3, "tricks": 1}}}
    result = score_deal({"game": "traversone_pairs", **deal, "last_trick": "A"})
    assert (result.points, result.event) == ({"A": 10, "B": 1}, None)


def test_entered_points_are_checked_against_the_thirds_s3():
    """Reference 4.3 S3: points entered beside the thirds must be what the thirds make
    under the house rules (Rovescino refused a 'points' field outright)."""
    seats = per(P1=(5, 2), P2=(9, 3), P3=(7, 2), P4=(11, 3))
    seats["P1"]["points"], seats["P4"]["points"] = 1, 4
    assert score({**TV47, "seats": seats}).points == {"P1": 1, "P2": 3, "P3": 2, "P4": 4}
    seats["P4"]["points"] = 5  # the leftover rule's figure under the floor rule
    assert codes({**TV47, "seats": seats}) == [("ind.points_mismatch", "seats.P4.points")]
    assert score({**TV47, "seats": seats}, **{"rov.last_trick": "plus_one_and_all_leftovers"})
    # A cappotto sheet may carry the reversed points or the card points.
    full = per(P1=(0, 0), P2=(0, 0), P3=(0, 0), P4=(32, 10))
    rules = {"rov.cappotto": "taker_zero_others_plus_11"}
    for taker in (0, 11):
        full["P4"]["points"] = taker
        assert score({**TV47, "seats": full}, **rules).points["P4"] == 0
    full["P4"]["points"] = 10
    assert codes({**TV47, "seats": full}, **rules) == [("ind.points_mismatch", "seats.P4.points")]


def test_traversone_pairs_entered_points_are_checked_s3():
    deal = {
        "sides": {"A": {"thirds": 20, "tricks": 5, "points": 7}, "B": {"thirds": 12, "tricks": 5}}
    }
    assert score_deal({"game": "traversone_pairs", **deal, "last_trick": "A"}).points == {
        "A": 7,
        "B": 4,
    }
    deal["sides"]["B"]["points"] = 5
    assert codes({**deal, "last_trick": "A"}, game="traversone_pairs") == [
        ("ind.points_mismatch", "sides.B.points")
    ]


def test_a_deal_in_thirds_may_leave_the_trick_counts_out():
    """Issue 32: a paper sheet writes each player's points, not his tricks; the cappotto
    is the points' (2.6), so the engine scores the deal without them and reports none."""
    from scorebook.rules import start_match

    game, rules, state = start_match("rovescino", {"rov.target": 1000}, 4)
    seats = state.seats
    piles = {s: {"thirds": t} for s, t in zip(seats, [25, 7, 0, 0], strict=True)}
    result = game.score_deal({"seats": piles, "last_trick": seats[0]}, rules, state)
    assert result.points == {seats[0]: 9, seats[1]: 2, seats[2]: 0, seats[3]: 0}
    assert set(result.facts["tricks"].values()) == {None}
    assert game.table_shape(rules.values, seats).trick_counts == "optional"
