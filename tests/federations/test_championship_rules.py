"""The championships' pure rules: the team result (tables won, then game points), the
forfeit, the table through the leagues' chain, the groups and the knockout's seeding."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scorebook.federations import championship_rules as rules
from scorebook.standings.leagues import tiebreaks

boards = st.lists(
    st.builds(
        rules.Board,
        st.just(True),
        st.sampled_from(["home", "away", None]),
        st.integers(0, 60),
        st.integers(0, 60),
    ),
    min_size=1,
    max_size=6,
)


def test_tables_first_then_game_points():
    one = rules.Board(True, "home", 21, 5)
    two = rules.Board(True, "away", 19, 21)
    assert rules.team_result([one, two], 2).winner == "home"  # level on tables: 40 to 26
    three = rules.Board(True, "away", 0, 21)
    # two tables to one wins, whatever the game points
    assert rules.team_result([rules.Board(True, "home", 21, 20)] * 2 + [three], 3).winner == (
        "home"
    )
    level = rules.team_result(
        [rules.Board(True, "home", 21, 10), rules.Board(True, "away", 10, 21)], 2
    )
    assert level.winner is None


def test_an_unfinished_table_leaves_the_result_incomplete():
    found = rules.team_result([rules.Board(True, "home", 21, 3), rules.Board(False, None, 4, 9)], 2)
    assert not found.complete and found.home_tables == 1
    assert not rules.team_result([rules.Board(True, "home", 21, 3)], 2).complete


@given(boards)
def test_swapping_the_teams_swaps_the_winner(played):
    flipped = [
        rules.Board(
            b.finished,
            {"home": "away", "away": "home"}.get(b.winner or ""),
            b.away_points,
            b.home_points,
        )
        for b in played
    ]
    found = rules.team_result(played, len(played))
    other = rules.team_result(flipped, len(played))
    assert other == found.swapped()
    assert other.winner == {"home": "away", "away": "home", None: None}[found.winner]


@given(st.sampled_from(["home", "away"]), st.integers(1, 8), st.integers(0, 41))
def test_a_forfeit_gives_every_table_to_the_other_team(loser, tables, target):
    found = rules.forfeit_result(loser, tables, target)
    assert (
        found.complete
        and found.winner == ("away" if loser == "home" else "home")
        or (target == 0 and tables == 0)
    )
    assert found.home_tables + found.away_tables == tables


results = st.lists(
    st.tuples(
        st.integers(1, 5),
        st.integers(1, 5),
        st.integers(0, 3),
        st.integers(0, 3),
        st.integers(0, 100),
        st.integers(0, 100),
    ).filter(lambda r: r[0] != r[1]),
    max_size=12,
)


@given(results)
def test_the_table_hands_out_the_points_each_fixture_is_worth(raw):
    scoring = tiebreaks.Scoring(win=3, draw=1, loss=0)
    played = [(h, a, rules.TeamResult(ht, at, hp, ap, True)) for h, a, ht, at, hp, ap in raw]
    table = rules.standings(range(1, 6), played, scoring=scoring)
    expected = sum(2 if r.winner is None else 3 for _, _, r in played)
    assert sum(row.points for row in table) == expected
    assert sum(row.played for row in table) == 2 * len(played)
    assert sum(row.scored for row in table) == sum(row.conceded for row in table)
    # the order the results are given in does not matter
    again = rules.standings(range(1, 6), list(reversed(played)), scoring=scoring)
    assert [(r.entry, r.position) for r in again] == [(r.entry, r.position) for r in table]


def test_incomplete_results_do_not_count():
    table = rules.standings(
        [1, 2], [(1, 2, rules.TeamResult(1, 0, 21, 0, False))], scoring=tiebreaks.Scoring()
    )
    assert all(r.played == 0 for r in table)


@given(st.integers(2, 24), st.integers(1, 8))
def test_groups_share_the_teams_evenly(count, groups):
    teams = list(range(count))
    split = rules.split_groups(teams, groups)
    assert sorted(t for g in split for t in g) == teams
    sizes = [len(g) for g in split]
    assert max(sizes) - min(sizes) <= 1 and min(sizes) >= 2 or len(split) == 1


def test_the_knockout_seeds_the_winners_first():
    assert rules.knockout_seeding([["a1", "a2", "a3"], ["b1", "b2"]], 2) == ["a1", "b1", "a2", "b2"]
    # a group's winner meets the other group's runner-up, at home
    assert rules.first_round(["a1", "b1", "a2", "b2"]) == [("a1", "b2"), ("b1", "a2")]


def test_the_calendar_is_the_leagues_circle_home_and_away():
    rounds = rules.calendar([1, 2, 3, 4], 2)
    pairs = [p for r in rounds for p in r.pairings]
    assert len(rounds) == 6 and len(pairs) == 12 and len(set(pairs)) == 12
