"""Skill ratings with openskill's Plackett-Luce model (see docs/standings.md for why).

A finished match becomes one or more *contests*, each a ranking of teams of players:

- pairs (Tressette in 4, Traversone, Rovescino in pairs): the two sides, by the result;
- free-for-all (individual Tressette, Rovescino, Trappola): every player ranked by the
  stake units the match paid them; Spinado by the chips (units) each won;
- the Chiamata partnership: each deal, caller and called partner against the others, by
  the deal's side points;
- soloist against coalition (Terziglio, Calabrasella): each deal, with the bias correction
  below.

The soloist's correction. The soloist chose to bid on a hand they judged strong, so a bid
is won far more often than two equal players against one would suggest, and summing the
coalition's skills makes it worse: the model expects the coalition to win nearly always,
and each lost bid that the model did not expect drains every player's rating (a pool of
equal players sinks by 30 points over a few thousand deals). The correction rates each
contract as a fair one-against-one contest between the soloist and the coalition's
*average* player (mean mu, root-mean-square sigma; the change is shared by each member),
with the bid itself as the soloist's teammate: a pseudo-player per contract, starting at
mu 0, that learns how much choosing to bid is worth. Its ratings are carried from match to
match (``carry``) and are not anyone's rating. ``tests/standings/test_ratings.py``
simulates players to show the drift gone and the skill order kept.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
START_MU = MODEL.mu
START_SIGMA = MODEL.sigma

Pair = tuple[float, float]  # (mu, sigma)


@dataclass(frozen=True)
class Contest:
    """Teams of player ids, the rank of each team (0 best, equal ranks a draw), and for
    a soloist contest the contract (team 0 is the soloist alone)."""

    teams: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]
    contract: str | None = None

    def as_list(self) -> list[object]:
        return [[list(t) for t in self.teams], list(self.ranks), self.contract]


def fingerprint(contests: Iterable[Contest]) -> str:
    """What was rated for a match: a correction that changes it re-rates from there."""
    data = json.dumps([c.as_list() for c in contests], separators=(",", ":"))
    return hashlib.sha256(data.encode()).hexdigest()


def display(mu: float, sigma: float) -> float:
    """The conservative value shown: mu - 3 sigma (openskill's ordinal)."""
    return mu - 3 * sigma


TAU_SQUARED = MODEL.tau * MODEL.tau
BETA_SQUARED = MODEL.beta**2
KAPPA = MODEL.kappa


def plackett_luce(teams: list[list[Pair]], ranks: list[float]) -> list[list[Pair]]:
    """``MODEL.rate(teams, ranks=ranks)`` for the model's defaults (tau, no margin, no
    weights, no balance, sigma not limited), on (mu, sigma) pairs: the same arithmetic in
    the same order, so the same floats (``tests/standings/test_ratings.py`` checks it
    against openskill on random games), without the library's argument checks, deep
    copies and rating objects, which cost 95% of its time (250 us a call; a full rebuild
    rates one contest per Terziglio deal)."""
    order = sorted(range(len(teams)), key=lambda i: ranks[i])  # stable, as openskill's
    rank = [int(ranks[i]) for i in order]
    players = [
        [(mu, math.sqrt(sigma * sigma + TAU_SQUARED)) for mu, sigma in teams[i]] for i in order
    ]
    team_mu, team_s2 = [], []
    for team in players:
        mu_sum = s2_sum = 0.0
        for mu, sigma in sorted(team, key=lambda p: p[0] - 3 * p[1], reverse=True):
            mu_sum += mu
            s2_sum += sigma**2
        team_mu.append(mu_sum)
        team_s2.append(s2_sum)
    k = len(players)
    c = 0.0
    for s2 in team_s2:
        c += s2 + BETA_SQUARED
    c = math.sqrt(c)
    exps = [math.exp(mu / c) for mu in team_mu]
    sum_q = [0.0] * k
    for i in range(k):
        for q in range(k):
            if rank[i] >= rank[q]:
                sum_q[q] += exps[i]
    a = [sum(1 for q in rank if q == r) for r in rank]
    out: list[list[Pair]] = []
    for i in range(k):
        omega = delta = 0.0
        e = exps[i]
        for q in range(k):
            share = e / sum_q[q]
            if rank[q] <= rank[i]:
                delta += share * (1 - share) / a[q]
                if q == i:
                    omega += (1 - share) / a[q]
                else:
                    omega -= share / a[q]
        s2 = team_s2[i]
        omega *= s2 / c
        delta *= s2 / c**2
        delta *= math.sqrt(s2) / c
        team = []
        for mu, sigma in players[i]:
            mu += (sigma**2 / s2) * omega * 1.0
            sigma *= math.sqrt(max(1 - (sigma**2 / s2) * delta * 1.0, KAPPA))
            team.append((mu, sigma))
        out.append(team)
    back: list[list[Pair]] = [[] for _ in teams]
    for place, i in enumerate(order):
        back[i] = out[place]
    return back


def rate(contest: Contest, ratings: dict[int, Pair], carry: dict[str, Pair]) -> None:
    """Apply one contest to ``ratings`` (player id -> (mu, sigma)) and ``carry`` (the
    contracts' pseudo-players), in place. Unknown players start at openskill's default."""
    for team in contest.teams:
        for pid in team:
            ratings.setdefault(pid, (START_MU, START_SIGMA))
    ranks = [float(r) for r in contest.ranks]
    if contest.contract is None:
        teams = [[ratings[pid] for pid in team] for team in contest.teams]
        new = plackett_luce(teams, ranks)
        for team, rated in zip(contest.teams, new, strict=True):
            for pid, pair in zip(team, rated, strict=True):
                ratings[pid] = pair
        return
    (soloist,), coalition = contest.teams
    hand = carry.get(contest.contract, (0.0, START_SIGMA))
    mus = [ratings[pid][0] for pid in coalition]
    sigmas = [ratings[pid][1] for pid in coalition]
    average = (sum(mus) / len(mus), math.sqrt(sum(s * s for s in sigmas) / len(sigmas)))
    (solo_new, hand_new), (avg_new,) = plackett_luce([[ratings[soloist], hand], [average]], ranks)
    ratings[soloist] = solo_new
    carry[contest.contract] = hand_new
    shift, shrink = avg_new[0] - average[0], avg_new[1] / average[1]
    for pid in coalition:
        mu, sigma = ratings[pid]
        ratings[pid] = (mu + shift, sigma * shrink)


def ranks_by(scores: Mapping[int, float]) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Free-for-all: one team per player, ranked by score (higher first, ties share)."""
    order = sorted(scores, key=lambda pid: (-scores[pid], pid))
    distinct = sorted(set(scores.values()), reverse=True)
    return tuple((pid,) for pid in order), tuple(distinct.index(scores[pid]) for pid in order)
