"""The soloist's correction, on simulated players (see scorebook/standings/ratings.py).

Players of known skill play soloist-v-coalition deals; the soloist chose to bid, so a bid
is won more often than the players' skills alone say. Plain sum-of-skills drags the whole
pool down; the correction keeps the pool where it started and the players in skill order.
"""

import math
import random
import statistics

from hypothesis import given
from hypothesis import strategies as st

from scorebook.standings import ratings as rt

BID_WIN_RATE = 0.65  # what choosing to bid is worth, on equal skills


def simulate(corrected: bool, skills: list[float], seed: int, deals: int = 2000):
    rng = random.Random(seed)
    players = range(len(skills))
    bidding = [0.2 + 0.3 * (i % 4) for i in players]  # some bid far more than others
    state: dict[int, tuple[float, float]] = {}
    carry: dict[str, tuple[float, float]] = {}
    for _ in range(deals):
        table = rng.sample(list(players), 3)
        soloist = rng.choices(table, weights=[bidding[p] for p in table])[0]
        coalition = tuple(p for p in table if p != soloist)
        edge = skills[soloist] - statistics.mean(skills[p] for p in coalition)
        odds = math.log(BID_WIN_RATE / (1 - BID_WIN_RATE)) + edge
        won = rng.random() < 1 / (1 + math.exp(-odds))
        contest = rt.Contest(((soloist,), coalition), (0, 1) if won else (1, 0), "solo")
        if not corrected:
            contest = rt.Contest(contest.teams, contest.ranks)  # plain sum of skills
        rt.rate(contest, state, carry)
    return [state[p][0] for p in players]


def test_equal_players_stay_where_they_started_with_the_correction():
    for seed in range(3):
        plain = simulate(False, [0.0] * 6, seed)
        corrected = simulate(True, [0.0] * 6, seed)
        assert statistics.mean(plain) < rt.START_MU - 10  # the bias: the pool sinks
        assert abs(statistics.mean(corrected) - rt.START_MU) < 2.5  # gone


def _rank_agreement(values: list[float], skills: list[float]) -> float:
    pairs = [(i, j) for i in range(len(skills)) for j in range(i + 1, len(skills))]
    right = sum((values[i] < values[j]) == (skills[i] < skills[j]) for i, j in pairs)
    return right / len(pairs)


def test_the_correction_keeps_the_skill_order():
    skills = [-1.5, -0.75, 0.0, 0.75, 1.5, 2.25]
    agreement = [_rank_agreement(simulate(True, skills, seed), skills) for seed in range(3)]
    assert statistics.mean(agreement) >= 0.85


def test_ratings_direction_and_display():
    state: dict[int, tuple[float, float]] = {}
    rt.rate(rt.Contest(((1, 2), (3, 4)), (0, 1)), state, {})
    assert state[1][0] > rt.START_MU > state[3][0]
    assert state[1][1] < rt.START_SIGMA  # more certain after a match
    assert rt.display(*state[1]) == state[1][0] - 3 * state[1][1]
    teams, ranks = rt.ranks_by({7: 3.0, 8: -1.0, 9: 3.0})
    assert (teams, ranks) == (((7,), (9,), (8,)), (0, 0, 1))


pair = st.tuples(st.floats(-20, 60, allow_nan=False), st.floats(0.05, 10, allow_nan=False))


@given(
    st.lists(st.lists(pair, min_size=1, max_size=3), min_size=2, max_size=7).flatmap(
        lambda teams: st.tuples(
            st.just(teams),
            st.lists(st.integers(0, len(teams) - 1), min_size=len(teams), max_size=len(teams)),
        )
    )
)
def test_the_fast_plackett_luce_gives_openskills_floats(game):
    """``plackett_luce`` is openskill's PlackettLuce.rate without its overhead: the very
    same floats, for any teams, sizes and ranks (ties included)."""
    teams, ranks = game
    mine = rt.plackett_luce(teams, [float(r) for r in ranks])
    theirs = rt.MODEL.rate(
        [[rt.MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams],
        ranks=[float(r) for r in ranks],
    )
    assert mine == [[(r.mu, r.sigma) for r in team] for team in theirs]
