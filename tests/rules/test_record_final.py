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


# -- house rules the totals must be read under (issue 31 item 8) ---------------------------


def closed(key, spec, totals, winner=None, players=None):
    """``record_final`` on a new match of ``key`` under ``spec``: its outcome."""
    game = games()[key]
    rules = game.rules(spec)
    state = game.new_match(rules, players)
    return game.record_final(state, totals, rules, winner=winner)


def refused(key, spec, totals, winner=None, players=None):
    """The refusal's problems (code, path), and the match is left as it was."""
    game = games()[key]
    rules = game.rules(spec)
    state = game.new_match(rules, players)
    before = state.as_dict()
    with pytest.raises(Rejection) as rejected:
        game.record_final(state, totals, rules, winner=winner)
    assert state.as_dict() == before
    return rejected.value.problems


CARRY = {"t4.carry_over_excess": "on_except_won_by_declarations_alone"}
FIRST = {"t4.reaching_target": "first_in_trick_order"}


def test_a_final_under_carry_over_is_read_without_guessing_the_carry():
    """It raised KeyError (the final's empty last deal has no breakdown): a 500 in the
    import. Whether the game was won by declarations alone is the last deal's, which a
    final score does not say: the result has no carry-over rather than a guessed one."""
    outcome = closed("tressette4", CARRY, {"A": 25, "B": 13})
    assert (outcome.winners, outcome.reason, outcome.units["N"]) == (("N", "S"), "target", 1)
    assert "carry_over" not in outcome.detail


def test_first_in_trick_order_both_past_the_target_asks_the_winner():
    """Under ``first_in_trick_order`` the first side to reach the target in the order of
    the tricks wins, whatever the totals: A 23 B 22 may be B's match. The engine picked
    the higher total before (70 of 227 random matches the other side's)."""
    problems = refused("tressette4", FIRST, {"A": 23, "B": 22})
    assert [(p.code, p.path) for p in problems] == [("final.winner_needed", "winner")]
    assert "A 23, B 22" in problems[0].en and "first, in the order of the tricks" in problems[0].en
    assert "Indica chi ha vinto (A, B)" in problems[0].it
    outcome = closed("tressette4", FIRST, {"A": 23, "B": 22}, winner="B")
    assert outcome.winners == ("E", "W") and outcome.units == {"E": 1, "W": 1, "N": -1, "S": -1}
    assert outcome.detail["final_winner"] == "B" and outcome.detail["winning_side"] == "B"


def test_a_tied_final_that_ended_a_match_is_accepted_with_its_winner():
    """A 21 B 21 ends a match under ``first_in_trick_order`` (both reached 21 in the last
    deal, one first): it was refused as "not over"."""
    assert refused("tressette4", FIRST, {"A": 21, "B": 21})[0].code == "final.winner_needed"
    assert closed("tressette4", FIRST, {"A": 21, "B": 21}, winner="A").winners == ("N", "S")
    # Where the higher total wins, a tie plays another deal: it ends no match.
    assert refused("tressette4", {}, {"A": 21, "B": 21}, winner="A")[0].code == "final.not_over"


def test_a_winner_the_totals_rule_out_is_refused():
    for spec in ({}, FIRST):  # one side past the target: it won, whoever was first
        problems = refused("tressette4", spec, {"A": 22, "B": 19}, winner="B")
        assert [(p.code, p.path) for p in problems] == [("final.winner_contradicts", "winner")]
        assert "say that A won" in problems[0].en and "ha vinto A, non B" in problems[0].it
        assert closed("tressette4", spec, {"A": 22, "B": 19}, winner="A").winners == ("N", "S")
    problems = refused("tressette4", FIRST, {"A": 22, "B": 21}, winner="N")
    assert [(p.code, p.path) for p in problems] == [("final.bad_winner", "winner")]
    assert refused("tressette2", {}, {"P1": 22, "P2": 3}, winner=1)[0].code == "final.bad_winner"


def test_both_past_the_target_under_play_another_deal_are_the_totals_after_it():
    """Under ``play_another_deal`` both sides past the target play one more deal, after
    which the higher total wins: final totals both past it are those after it (a final
    score refused by "not over" here would be a match that never ends)."""
    again = {"t2.both_reach_target": "play_another_deal"}
    assert closed("tressette2", again, {"P1": 25, "P2": 23}).winners == ("P1",)
    assert closed("tressette2", again, {"P1": 22, "P2": 26}).winners == ("P2",)
    assert refused("tressette2", again, {"P1": 24, "P2": 24})[0].code == "final.not_over"
    again = {"t4.both_reach_target": "play_another_deal"}
    assert closed("tressette4", again, {"A": 23, "B": 27}).winners == ("E", "W")


def test_a_match_of_a_set_number_of_deals_is_read_after_its_last_deal():
    """A final score closes the match: after its set number of deals the higher total
    (the lowest, in Rovescino) wins, and a tie would have played on."""
    assert closed("tressette4", {"t4.deals": 8}, {"A": 12, "B": 30}).winners == ("E", "W")
    assert refused("tressette4", {"t4.deals": 8}, {"A": 30, "B": 30})[0].code == "final.not_over"
    fixed = {"rov.end": "fixed_number_of_deals"}
    totals = {"P1": 40, "P2": 12, "P3": 30}
    outcome = closed("rovescino", fixed, totals, players=3)
    assert (outcome.reason, outcome.winners) == ("deals", ("P2",))


ELIMINATION = {"rov.end": "elimination_until_three_remain", "rov.target": 21}


def test_rovescino_elimination_everyone_past_the_target_asks_the_winner():
    """The lowest of those who played the last deal won; who had dropped out before the
    totals do not say (four players or more)."""
    totals = {"P1": 22, "P2": 25, "P3": 23, "P4": 30}
    problems = refused("rovescino", ELIMINATION, totals, players=4)
    assert [(p.code, p.path) for p in problems] == [("final.winner_needed", "winner")]
    assert "the lowest of those still playing at the last deal won" in problems[0].en
    # P1 dropped out first (22), then P3 won among the three left.
    outcome = closed("rovescino", ELIMINATION, totals, winner="P3", players=4)
    assert (outcome.reason, outcome.winners) == ("elimination", ("P3",))
    assert outcome.units == {"P1": -1, "P2": -1, "P3": 3, "P4": -1}
    # P2 had the lowest of the last deal's three or more only if two ended above him.
    problems = refused("rovescino", ELIMINATION, totals, winner="P2", players=4)
    assert [(p.code, p.path) for p in problems] == [("rov.final_winner", "winner")]
    assert "at least two players above him; P2 has 1" in problems[0].en
    # Someone below the target is the lowest of the last deal: the totals tell.
    totals = {"P1": 22, "P2": 25, "P3": 20, "P4": 30}
    assert closed("rovescino", ELIMINATION, totals, players=4).winners == ("P3",)
    # Played by three, nobody drops out: the lowest wins.
    totals = {"P1": 22, "P2": 25, "P3": 23}
    assert closed("rovescino", ELIMINATION, totals, players=3).winners == ("P1",)


def test_final_totals_are_whole_numbers_within_a_hundred_thousand():
    """The bounds are part of the refusal: ±100,000 are read, one more is refused."""
    assert closed("tressette2", {}, {"P1": 100_000, "P2": -100_000}).winners == ("P1",)
    for far in (100_001, -100_001):
        problems = refused("tressette2", {}, {"P1": 21, "P2": far})
        assert [(p.code, p.path) for p in problems] == [("final.bad_total", "final_score.P2")]
    for wrong in (21.0, "21", True, None):
        problems = refused("tressette2", {}, {"P1": wrong, "P2": 3})
        assert [(p.code, p.path) for p in problems] == [("final.bad_total", "final_score.P1")]
