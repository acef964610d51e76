"""The pure pairing, ranking and money functions, without a database: unit tests and
hypothesis properties over random Swiss tournaments of 4-128 entries."""

import itertools
import random
from decimal import Decimal

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorebook.standings.leagues import knockout
from scorebook.tournaments import pairing, ranking
from scorebook.tournaments.pairing import draw_pairs
from scorebook.tournaments.services.money import prize_plan


def perfect_without_repeat_exists(playing, met):
    """The oracle: is there a pairing of ``playing`` with no pair that has met? Brute
    force up to 10 entries, else a maximum-cardinality matching (no weights)."""
    if len(playing) <= 10:

        def search(left):
            if not left:
                return True
            a, rest = left[0], left[1:]
            return any(
                pairing.met_key(a, b) not in met and search([x for x in rest if x != b])
                for b in rest
            )

        return search(list(playing))
    graph = nx.Graph()
    graph.add_nodes_from(playing)
    graph.add_edges_from(
        (a, b) for a, b in itertools.combinations(playing, 2) if pairing.met_key(a, b) not in met
    )
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(playing)


def simulate(count, rounds, seed, pair=pairing.swiss_pairing):
    """A Swiss tournament of ``count`` entries with random results; yields each round's
    state before pairing and the pairing made."""
    rng = random.Random(seed)
    entries = list(range(count))
    points = dict.fromkeys(entries, 0)
    met, byes = set(), []
    for _ in range(rounds):
        standing = sorted(entries, key=lambda e: (-points[e], e))
        found = pair(standing, points, met, byes)
        yield standing, dict(points), set(met), list(byes), found
        for a, b in found.pairs:
            met.add(pairing.met_key(a, b))
            points[rng.choice((a, b))] += 2
        if found.bye is not None:
            byes.append(found.bye)
            points[found.bye] += 2


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(count=st.integers(4, 128), rounds=st.integers(1, 9), seed=st.integers(0, 2**32))
def test_swiss_rounds_never_repeat_while_a_pairing_without_one_exists(count, rounds, seed):
    for standing, _points, met, byes, found in simulate(count, min(rounds, count + 1), seed):
        playing = [e for e in standing if e != found.bye]
        # every entry plays or rests, once
        seen = [e for p in found.pairs for e in p] + ([found.bye] if found.bye is not None else [])
        assert sorted(seen) == sorted(standing)
        repeats = sum(1 for a, b in found.pairs if pairing.met_key(a, b) in met)
        assert repeats == found.repeats
        if repeats:
            assert not perfect_without_repeat_exists(playing, met)
        # at most one bye per entry while someone has had none
        if found.bye is not None and len(set(byes)) < len(standing):
            assert found.bye not in byes


@settings(max_examples=30, deadline=None)
@given(count=st.integers(4, 64), seed=st.integers(0, 2**32))
def test_the_bye_goes_to_the_lowest_placed_entry_without_one(count, seed):
    count |= 1  # odd: someone rests
    for standing, _points, _met, byes, found in simulate(count, 4, seed):
        without = [e for e in standing if e not in byes]
        assert found.bye == without[-1]


def test_the_matching_beats_the_greedy_pass_where_greedy_strands_a_pair():
    """Four entries; 1 has met 2, and 2 has met 4: the greedy pass takes 1 v 3 and leaves
    2 v 4, who met; the matching finds 1 v 4 and 2 v 3."""
    met = {pairing.met_key(1, 2), pairing.met_key(2, 4)}
    scores = dict.fromkeys([1, 2, 3, 4], 0)
    greedy = pairing.greedy_pairing([1, 2, 3, 4], scores, met)
    assert greedy.repeats == 1 and greedy.pairs == ((1, 3), (2, 4))
    matched = pairing.swiss_pairing([1, 2, 3, 4], scores, met)
    assert matched.repeats == 0
    assert matched.pairs == ((1, 4), (2, 3))


def test_round_one_pairs_neighbours_in_order():
    found = pairing.swiss_pairing(list("abcdef"), {}, set())
    assert found.pairs == (("a", "b"), ("c", "d"), ("e", "f"))


def test_nearest_scores_first():
    """Two on 4 points, two on 2, two on 0: each plays its own score group."""
    scores = {"a": 4, "b": 4, "c": 2, "d": 2, "e": 0, "f": 0}
    found = pairing.swiss_pairing(list("abcdef"), scores, {pairing.met_key("a", "c")})
    assert found.pairs == (("a", "b"), ("c", "d"), ("e", "f"))
    assert pairing.score_gap(found, scores) == 0


def test_groups_are_three_to_five_and_snake_seeded():
    assert pairing.group_sizes(8, 4) == [4, 4]
    assert pairing.group_sizes(10, 4) == [4, 3, 3]
    assert pairing.group_sizes(7, 5) == [4, 3]
    for count in range(3, 80):
        for largest in (3, 4, 5):
            sizes = pairing.group_sizes(count, largest)
            assert sum(sizes) == count and all(3 <= s <= 5 for s in sizes)
            assert max(sizes) - min(sizes) <= 1
            groups = pairing.split_groups(list(range(count)), largest)
            assert sorted(e for g in groups for e in g) == list(range(count))
            assert [len(g) for g in groups] == sizes
    groups = pairing.split_groups(list(range(8)), 4)
    assert groups == [[0, 3, 4, 7], [1, 2, 5, 6]]


def test_knockout_seeds_take_the_winners_first():
    assert pairing.knockout_seeds([[1, 2, 3], [4, 5, 6]], 2) == [1, 4, 2, 5]


def test_the_draw_of_pairs_depends_on_the_seed_only():
    ids = list(range(10, 20))
    assert draw_pairs(ids, 7) == draw_pairs(ids, 7)
    assert sorted(p for pair in draw_pairs(ids, 7) for p in pair) == ids
    assert draw_pairs(ids, 7) != draw_pairs(ids, 8)


# -- ranking ------------------------------------------------------------------------------------


def test_buchholz_separates_equal_match_points():
    R = ranking.Result
    results = [R(1, 2, 1), R(3, 4, 3), R(1, 3, 3), R(2, 4, 2), R(5, None, 5), R(5, None, 5)]
    rows = ranking.rank([1, 2, 3, 4, 5], results, chain=["match_points", "buchholz", "lot"])
    by = {r.entry: r for r in rows}
    assert by[3].match_points == 4 and by[3].position == 1
    assert by[5].match_points == 4 and by[5].buchholz == 0  # byes add nothing
    assert by[5].position == 2 and by[5].decided_by == "buchholz"
    assert by[3].decided_by == "buchholz"


def test_head_to_head_then_lot():
    R = ranking.Result
    results = [R(1, 2, 2, 10, 21), R(1, 3, 1, 21, 5), R(2, 3, 3, 10, 21)]
    rows = ranking.rank(
        [1, 2, 3], results, chain=["match_points", "head_to_head", "lot"], lots={1: 3, 2: 2, 3: 1}
    )
    # all on 2 points, each beat one: head to head leaves them level, the lot decides
    assert [r.entry for r in rows] == [3, 2, 1]
    assert all(r.decided_by == "lot" for r in rows)


def test_a_bad_chain_is_refused():
    for chain in (["buchholz"], ["match_points", "lot", "buchholz"], ["match_points", "x"]):
        with pytest.raises(ValueError):
            ranking.check_chain(chain)


@settings(max_examples=40, deadline=None)
@given(
    count=st.integers(4, 40),
    seed=st.integers(0, 2**32),
    chain=st.permutations(["buchholz", "point_difference", "head_to_head"]),
)
def test_standings_sum_what_the_results_say(count, seed, chain):
    rng = random.Random(seed)
    results = []
    for _standing, _p, _m, _b, found in simulate(count, 4, seed):
        for a, b in found.pairs:
            home, away = rng.randint(0, 30), rng.randint(0, 30)
            winner = a if home > away else b if away > home else None
            results.append(ranking.Result(a, b, winner, home, away))
        if found.bye is not None:
            results.append(ranking.Result(found.bye, None, found.bye))
    rows = ranking.rank(
        range(count),
        results,
        chain=["match_points", *chain, "lot"],
        lots={e: e + 1 for e in range(count)},
    )
    wins = sum(1 for r in results if r.winner is not None)
    draws = sum(1 for r in results if r.winner is None)
    assert sum(r.match_points for r in rows) == 2 * wins + 2 * draws
    assert sum(r.scored for r in rows) == sum(r.home_points + r.away_points for r in results)
    assert sum(r.difference for r in rows) == 0
    assert [r.position for r in rows] == list(range(1, count + 1))  # the lot splits all
    points = [r.match_points for r in rows]
    assert points == sorted(points, reverse=True)
    by = {r.entry: r for r in rows}
    for r in rows:
        assert r.buchholz == sum(by[o].match_points for o in r.opponents)


# -- knockout -------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(count=st.integers(2, 128), seed=st.integers(0, 2**32))
def test_the_knockouts_winners_are_the_next_rounds_entries(count, seed):
    rng = random.Random(seed)
    winners = {}

    def decide(number, slot, home, away):
        return winners.setdefault((number, slot), rng.choice((home, away)))

    rounds = knockout.bracket(list(range(count)), decide)
    for this, following in itertools.pairwise(rounds):
        went_on = [s.winner for s in this]
        assert [e for s in following for e in (s.home, s.away)] == went_on
    assert rounds[-1][0].winner is not None
    assert len(rounds) == knockout.round_count(count)


# -- money ----------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    pot_cents=st.integers(0, 10**6),
    shares=st.lists(st.integers(0, 60), max_size=5),
    ties=st.lists(st.integers(1, 3), min_size=1, max_size=6),
)
def test_the_prizes_and_the_club_take_the_whole_pot(pot_cents, shares, ties):
    if sum(shares) > 100:
        shares = [s * 100 // (sum(shares) + 1) for s in shares]
    pot = Decimal(pot_cents) / 100
    places, next_place, entry = [], 1, 0
    for size in ties:
        places.append((next_place, list(range(entry, entry + size))))
        next_place += size
        entry += size
    won, club = prize_plan(pot, "percent", [Decimal(s) for s in shares], Decimal(0), places)
    assert sum(won.values(), Decimal(0)) + club == pot
    assert club >= 0 and all(v >= 0 for v in won.values())


def test_fixed_prizes_over_the_pot_are_refused():
    from scorebook.tournaments.refusals import PrizesOverPot

    with pytest.raises(PrizesOverPot):
        prize_plan(
            Decimal("50"), "fixed", [Decimal("40"), Decimal("20")], Decimal(0), [(1, [1]), (2, [2])]
        )


def test_a_shared_place_shares_its_prizes():
    won, club = prize_plan(
        Decimal("100"), "percent", [Decimal(50), Decimal(30), Decimal(11)], Decimal(9),
        [(1, [7]), (2, [8, 9])],
    )  # fmt: skip
    assert won == {7: Decimal("50.00"), 8: Decimal("20.50"), 9: Decimal("20.50")}
    assert club == Decimal("9.00")


def test_the_chain_is_walked_by_the_leagues_code(monkeypatch):
    """One piece of code for both tie-break chains: the tournament's standings are
    ordered and placed by ``standings.leagues.tiebreaks`` (a tournament's ranking had a
    copy of the walk, the check and the placing)."""
    from scorebook.standings.leagues import tiebreaks

    calls = []
    walk, place = tiebreaks.order_by_chain, tiebreaks.place
    monkeypatch.setattr(
        tiebreaks, "order_by_chain", lambda *a, **k: calls.append(1) or walk(*a, **k)
    )
    monkeypatch.setattr(tiebreaks, "place", lambda *a, **k: calls.append(2) or place(*a, **k))
    R = ranking.Result
    rows = ranking.rank([1, 2, 3], [R(1, 2, 1), R(3, None, 3)], lots={1: 1, 2: 2, 3: 3})
    assert calls == [1, 2]
    assert [(r.entry, r.position) for r in rows] == [(1, 1), (3, 2), (2, 3)]
    assert not hasattr(ranking, "_partition")
    with pytest.raises(ValueError, match="the chain starts with match points"):
        ranking.check_chain(["buchholz"])
    with pytest.raises(ValueError, match="the lot comes last"):
        ranking.check_chain(["match_points", "lot", "buchholz"])
    with pytest.raises(ValueError, match="the drawing of lots comes last"):
        tiebreaks.check_chain(["points", "lots", "wins"])


def test_fixed_prizes_and_a_fixed_club_share_over_the_pot_are_refused():
    """With fixed amounts the club's share is an amount kept out of the pot too: prizes
    that fit the pot only by eating the club's share are refused (they were paid, and
    the club got less than its share)."""
    from scorebook.tournaments.refusals import PrizesOverPot

    places = [(1, [1]), (2, [2])]
    with pytest.raises(PrizesOverPot) as refused:
        prize_plan(Decimal("60"), "fixed", [Decimal("40"), Decimal("15")], Decimal("10"), places)
    assert Decimal(refused.value.params["total"]) == 65
    won, club = prize_plan(
        Decimal("60"), "fixed", [Decimal("40"), Decimal("10")], Decimal("10"), places
    )
    assert won == {1: Decimal("40"), 2: Decimal("10")} and club == Decimal("10")
