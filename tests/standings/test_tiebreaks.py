"""League tables: the tie-break chain, shared places, lots and withdrawals."""

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorebook.standings.leagues.tiebreaks import (
    DEFAULT_CHAIN,
    Result,
    Scoring,
    check_chain,
    rank_table,
)

THREE_ONE = Scoring(win=3, draw=1, loss=0)


def table(entries, results, **kw):
    return [
        (r.entry, r.position, r.points, r.decided_by) for r in rank_table(entries, results, **kw)
    ]


def test_three_way_tie_decided_by_head_to_head_among_the_tied_only():
    """A, B and C finish on 7 points. Among the three only, B beat A and drew with C, A beat
    C: B 4, A 3, C 1. The game-point difference (C +33, B +21, A +2) would give the
    reverse order, and E's and D's results play no part in the mini-table."""
    results = [
        Result("A", "B", 0, 1, 30, 41),
        Result("A", "C", 1, 0, 41, 35),
        Result("A", "D", 1, 0, 41, 39),
        Result("A", "E", 1, 1, 70, 65),  # two matches, one each: a drawn fixture
        Result("B", "C", 1, 1, 72, 72),
        Result("B", "D", 1, 0, 41, 10),
        Result("B", "E", 0, 1, 20, 41),
        Result("C", "D", 1, 0, 41, 5),
        Result("C", "E", 1, 0, 41, 38),
        Result("D", "E", 1, 1, 60, 60),
    ]
    rows = rank_table("ABCDE", results, scoring=THREE_ONE)
    assert [(r.entry, r.position, r.points, r.difference, r.decided_by) for r in rows] == [
        ("B", 1, 7, 21, "head_to_head"),
        ("A", 2, 7, 2, "head_to_head"),
        ("C", 3, 7, 33, "head_to_head"),
        ("E", 4, 5, 13, "points"),
        ("D", 5, 1, -69, "points"),
    ]
    assert [r.head_to_head for r in rows[:3]] == [4, 3, 1]
    # the same table without head-to-head goes by the difference
    chain = ("points", "point_difference")
    assert [e for e, *_ in table("ABCDE", results, scoring=THREE_ONE, chain=chain)][:3] == [
        "C",
        "B",
        "A",
    ]


def test_head_to_head_is_applied_again_among_those_still_level():
    """F, B, E and C finish on 8. Among the four: F 6, B 4, E 4, C 2. B and E are still
    level, so head-to-head is applied again between them alone: B beat E."""
    won = {("A", "D"), ("B", "E"), ("C", "D"), ("E", "F")}
    lost = {("A", "B"), ("A", "C"), ("A", "E"), ("B", "F"), ("C", "F")}
    results = []
    for h, a in combinations("ABCDEF", 2):
        wins = (1, 0) if (h, a) in won else (0, 1) if (h, a) in lost else (1, 1)
        results.append(Result(h, a, *wins))
    rows = table("ABCDEF", results, scoring=THREE_ONE, chain=("points", "head_to_head"))
    assert rows == [
        ("F", 1, 8, "head_to_head"),
        ("B", 2, 8, "head_to_head"),
        ("E", 3, 8, "head_to_head"),
        ("C", 4, 8, "head_to_head"),
        ("A", 5, 4, "points"),
        ("D", 6, 3, "points"),
    ]


def test_entries_level_on_every_criterion_share_a_position():
    results = [Result(1, 2, 1, 1, 50, 50), Result(3, 1, 0, 1, 10, 41), Result(3, 2, 0, 1, 10, 41)]
    chain = ("points", "head_to_head", "point_difference", "points_scored")
    assert table([3, 2, 1], results, chain=chain) == [
        (1, 1, 3, None),
        (2, 1, 3, None),
        (3, 3, 0, "points"),
    ]


def test_recorded_lots_decide_what_nothing_else_does():
    results = [Result(1, 2, 1, 1, 50, 50)]
    assert table([1, 2], results, lots={1: 2, 2: 1}) == [(2, 1, 1, "lots"), (1, 2, 1, "lots")]
    assert table([1, 2], results, lots={1: 1, 2: 2}) == [(1, 1, 1, "lots"), (2, 2, 1, "lots")]


def test_withdrawn_results_voided_or_kept():
    results = [Result(1, 2, 1, 0, 41, 20), Result(3, 1, 1, 0, 41, 30), Result(2, 3, 1, 0, 41, 0)]
    kept = rank_table([1, 2, 3], results, withdrawn=[3])
    # a circle of wins: all on 2 points, head-to-head level, the difference decides
    assert [(r.entry, r.position, r.difference, r.decided_by, r.withdrawn) for r in kept] == [
        (2, 1, 20, "point_difference", False),
        (1, 2, 10, "point_difference", False),
        (3, 3, -30, "point_difference", True),
    ]
    voided = rank_table([1, 2, 3], results, withdrawn=[3], void_withdrawn=True)
    assert [(r.entry, r.position, r.points, r.played, r.withdrawn) for r in voided] == [
        (1, 1, 2, 1, False),
        (2, 2, 0, 1, False),
        (3, None, 0, 0, True),
    ]


@pytest.mark.parametrize(
    "chain",
    [
        ("head_to_head", "points"),
        ("points", "lots", "points_scored"),
        ("points", "points"),
        ("points", "goal_average"),
        (),
    ],
)
def test_a_chain_must_start_with_points_and_end_with_lots(chain):
    with pytest.raises(ValueError):
        check_chain(chain)


# -- properties --------------------------------------------------------------------------


@st.composite
def leagues(draw):
    n = draw(st.integers(1, 8))
    entries = list(range(1, n + 1))
    results = []
    for h, a in combinations(entries, 2):
        for _ in range(draw(st.integers(0, 2))):
            hw, aw = draw(st.sampled_from([(1, 0), (0, 1), (1, 1), (2, 1), (0, 0)]))
            hp, ap = draw(st.integers(0, 3)), draw(st.integers(0, 3))
            results.append(
                Result(h, a, hw, aw, hp, ap)
                if draw(st.booleans())
                else Result(a, h, aw, hw, ap, hp)
            )
    lots = dict(zip(entries, draw(st.permutations(entries)), strict=True))
    return entries, results, lots


chains = st.sampled_from(
    [
        DEFAULT_CHAIN,
        ("points",),
        ("points", "head_to_head"),
        ("points", "point_difference", "head_to_head", "wins"),
        ("points", "points_scored", "lots"),
    ]
)


VALUES = {
    "points": lambda r: r.points,
    "wins": lambda r: r.won,
    "point_difference": lambda r: r.difference,
    "points_scored": lambda r: r.scored,
}


def snapshot(rows):
    return [(r.entry, r.position, r.points, r.difference, r.decided_by) for r in rows]


@given(leagues(), chains, st.randoms())
def test_the_table_does_not_depend_on_input_order(league, chain, rnd):
    entries, results, lots = league
    before = snapshot(rank_table(entries, results, chain=chain, lots=lots))
    rnd.shuffle(entries)
    rnd.shuffle(results)
    assert snapshot(rank_table(entries, results, chain=chain, lots=lots)) == before


@given(leagues(), chains)
def test_positions_follow_the_chain_and_lots_make_it_total(league, chain):
    entries, results, lots = league
    rows = rank_table(entries, results, chain=chain, lots=lots)
    assert sorted(r.entry for r in rows) == entries
    for i, row in enumerate(rows):
        ahead = [r for r in rows if r.position < row.position]
        assert row.position == len(ahead) + 1
        if i:
            assert rows[i - 1].points >= row.points
    for a, b in combinations(rows, 2):
        if a.position == b.position:
            assert a.shared and b.shared and a.decided_by is None
            for criterion, value in VALUES.items():
                if criterion in chain:
                    assert value(a) == value(b)
    if "lots" in chain:
        assert len({r.position for r in rows}) == len(rows)


@given(leagues())
def test_voided_withdrawals_leave_the_table_of_the_others(league):
    entries, results, _ = league
    gone = entries[-1]
    voided = rank_table(entries, results, withdrawn=[gone], void_withdrawn=True)
    without = rank_table(entries[:-1], [r for r in results if gone not in (r.home, r.away)])
    assert snapshot(voided[:-1]) == snapshot(without)
    assert voided[-1].entry == gone and voided[-1].position is None
