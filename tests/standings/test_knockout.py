"""Series and brackets, pure: best of N, fixed series, la bella, byes, winners going on."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorebook.standings.leagues import knockout
from scorebook.standings.leagues.knockout import BEST_OF, GAMES, MATCHES, UNDECIDED, Series


def test_best_of_three_decided_two_nil_and_two_one():
    best3 = Series(BEST_OF, 3)
    assert best3.outcome(1, 0, 1).winner is None
    two_nil = best3.outcome(2, 0, 2)
    assert (two_nil.winner, two_nil.complete, two_nil.accepts) == ("home", True, False)
    one_one = best3.outcome(1, 1, 2)
    assert (one_one.winner, one_one.complete, one_one.accepts) == (None, False, True)
    two_one = best3.outcome(1, 2, 3)
    assert (two_one.winner, two_one.complete, two_one.bella) == ("away", True, False)
    # two games under way at 0-0: a third may not be linked until one is over
    assert best3.outcome(0, 0, 0, playing=3).accepts is False
    assert best3.to_win == 2


def test_a_fixed_series_plays_every_game():
    four = Series(GAMES, 4)
    assert four.outcome(3, 0, 3).complete is False  # the fourth game is still owed
    done = four.outcome(3, 1, 4)
    assert (done.winner, done.complete, done.counts) == ("home", True, True)
    level = four.outcome(2, 2, 4)
    assert (level.drawn, level.complete) == (True, True)  # round robin: a draw
    assert four.to_win == 4


def test_la_bella_after_one_all_in_a_two_game_knockout_round():
    two = Series(GAMES, 2, bella=True)
    level = two.outcome(1, 1, 2)
    assert (level.winner, level.bella, level.complete, level.accepts) == (None, True, False, True)
    assert two.outcome(1, 1, 2, playing=1).accepts is False  # la bella is being played
    decided = two.outcome(1, 2, 3)
    assert (decided.winner, decided.bella, decided.complete) == ("away", True, True)
    again = two.outcome(1, 1, 3)  # la bella ended with no winner: another one
    assert (again.bella, again.accepts) == (True, True)


def test_todays_series_never_closes_and_a_knockout_match_is_best_of_one():
    today = Series(MATCHES)
    assert today.outcome(5, 4, 9).accepts and today.outcome(1, 1, 2).drawn
    ko = Series(MATCHES, bella=True)
    assert ko.outcome(1, 0, 1).complete
    assert ko.outcome(0, 0, 1).bella  # a match with no winner is played again


def test_seed_order_keeps_the_top_seeds_apart():
    assert knockout.seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert knockout.first_round("ABCDE") == [("A", None), ("D", "E"), ("B", None), ("C", None)]


def test_five_entries_byes_to_the_final():
    """Five entries: three byes (seeds 1-3), 4 v 5 in the first round; the winners go on
    by themselves to the semi-finals and the final."""
    results = {(1, 1): "E", (2, 0): "A", (2, 1): "B", (3, 0): "B"}
    rounds = knockout.bracket(list("ABCDE"), lambda r, s, h, a: results.get((r, s), UNDECIDED))
    assert [[(s.home, s.away, s.winner) for s in r] for r in rounds] == [
        [("A", None, "A"), ("D", "E", "E"), ("B", None, "B"), ("C", None, "C")],
        [("A", "E", "A"), ("B", "C", "B")],
        [("A", "B", "B")],
    ]
    assert [s.bye for s in rounds[0]] == [True, False, True, True]
    assert knockout.placings(rounds) == {
        "B": (1, False),
        "A": (2, False),
        "C": (3, True),
        "E": (3, True),
        "D": (5, True),
    }
    assert knockout.round_name(3, 3) == "final" and knockout.round_name(1, 3) == "quarter_final"


@given(st.integers(2, 40), st.randoms(use_true_random=False), st.floats(0, 1))
def test_each_rounds_winners_are_exactly_the_next_rounds_entries(count, rng, undecided):
    """Any results (including undecided fixtures and slots nobody goes on from) give a
    bracket in which the winners of each round are the entries of the next."""
    entries = list(range(100, 100 + count))

    def decide(number, slot, home, away):
        roll = rng.random()
        if roll < undecided / 2:
            return UNDECIDED
        if roll < undecided / 2 + 0.05:
            return None
        return rng.choice([home, away])

    rounds = knockout.bracket(entries, decide)
    assert len(rounds) == knockout.round_count(count)
    byes = knockout.bracket_size(count) - count
    assert sum(s.bye for s in rounds[0]) == byes  # no first-round slot is two byes
    assert sum(s.ready for s in rounds[0]) == (count - byes) // 2
    first = [e for s in rounds[0] for e in (s.home, s.away) if e is not None]
    assert sorted(first) == entries
    for this, following in zip(rounds, rounds[1:], strict=False):
        assert len(following) * 2 == len(this)
        for s in following:
            for feeder, seat in ((this[2 * s.slot], s.home), (this[2 * s.slot + 1], s.away)):
                assert seat == (feeder.winner if feeder.decided else None)
        winners = {s.winner for s in this if s.decided and s.winner is not None}
        seated = {e for s in following for e in (s.home, s.away) if e is not None}
        assert winners == seated
    for s in (s for r in rounds for s in r):
        assert not s.decided or s.winner in (s.home, s.away, None)


def test_a_bracket_refuses_a_winner_who_does_not_play():
    with pytest.raises(ValueError):
        knockout.bracket(["A", "B"], lambda r, s, h, a: "Z")
