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


def _rating(pair: Pair):
    return MODEL.rating(mu=pair[0], sigma=pair[1])


def rate(contest: Contest, ratings: dict[int, Pair], carry: dict[str, Pair]) -> None:
    """Apply one contest to ``ratings`` (player id -> (mu, sigma)) and ``carry`` (the
    contracts' pseudo-players), in place. Unknown players start at openskill's default."""
    for team in contest.teams:
        for pid in team:
            ratings.setdefault(pid, (START_MU, START_SIGMA))
    ranks = [float(r) for r in contest.ranks]
    if contest.contract is None:
        teams = [[_rating(ratings[pid]) for pid in team] for team in contest.teams]
        new = MODEL.rate(teams, ranks=ranks)
        for team, rated in zip(contest.teams, new, strict=True):
            for pid, r in zip(team, rated, strict=True):
                ratings[pid] = (r.mu, r.sigma)
        return
    (soloist,), coalition = contest.teams
    hand = carry.get(contest.contract, (0.0, START_SIGMA))
    mus = [ratings[pid][0] for pid in coalition]
    sigmas = [ratings[pid][1] for pid in coalition]
    average = (sum(mus) / len(mus), math.sqrt(sum(s * s for s in sigmas) / len(sigmas)))
    new = MODEL.rate([[_rating(ratings[soloist]), _rating(hand)], [_rating(average)]], ranks=ranks)
    (solo_new, hand_new), (avg_new,) = new
    ratings[soloist] = (solo_new.mu, solo_new.sigma)
    carry[contest.contract] = (hand_new.mu, hand_new.sigma)
    shift, shrink = avg_new.mu - average[0], avg_new.sigma / average[1]
    for pid in coalition:
        mu, sigma = ratings[pid]
        ratings[pid] = (mu + shift, sigma * shrink)


def ranks_by(scores: Mapping[int, float]) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Free-for-all: one team per player, ranked by score (higher first, ties share)."""
    order = sorted(scores, key=lambda pid: (-scores[pid], pid))
    distinct = sorted(set(scores.values()), reverse=True)
    return tuple((pid,) for pid in order), tuple(distinct.index(scores[pid]) for pid in order)
