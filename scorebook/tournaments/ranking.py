"""A tournament's standings and the director's tie-break chain (pure Python, no Django).

The criteria are the tournament's own; walking the chain (splitting what is still level,
head to head again inside a part it splits, which criterion placed each row) is the
leagues' code, ``standings.leagues.tiebreaks`` (one piece of code for both).

The chain is applied in order; each criterion splits a group of entries still level:

- ``match_points``: points for each pairing won, drawn or lost (a bye counts as won);
- ``buchholz``: the sum of the match points of the entries it met (byes add nothing):
  who scored the same against stronger opposition goes first (Bruno Buchholz, Swiss
  chess tournaments, 1932);
- ``point_difference``: game points made minus game points conceded;
- ``head_to_head``: match points in the pairings between the level entries only,
  applied again inside a group it splits (as ``standings.leagues.tiebreaks`` does);
- ``lot``: the drawing of lots made at the start (lower first); it must be last.

Each row says which criterion placed it: the later of those that set it apart from the
entry above and the one below (None: it shares its place, or nothing split it).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from scorebook.standings.leagues import tiebreaks

K = TypeVar("K", bound=Hashable)

MATCH_POINTS = "match_points"
BUCHHOLZ = "buchholz"
POINT_DIFFERENCE = "point_difference"
HEAD_TO_HEAD = "head_to_head"
LOT = "lot"
CRITERIA = (MATCH_POINTS, BUCHHOLZ, POINT_DIFFERENCE, HEAD_TO_HEAD, LOT)


@dataclass(frozen=True)
class Scoring:
    win: int = 2
    draw: int = 1
    loss: int = 0


@dataclass(frozen=True)
class Result(Generic[K]):
    """A decided pairing: ``winner`` (None: drawn) and the game points each made. A bye
    has no ``away``: ``home`` wins it, no game points."""

    home: K
    away: K | None
    winner: K | None
    home_points: int = 0
    away_points: int = 0

    @property
    def bye(self) -> bool:
        return self.away is None


@dataclass
class Row(Generic[K]):
    entry: K
    position: int | None = None
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    byes: int = 0
    match_points: int = 0
    buchholz: int = 0
    scored: int = 0
    conceded: int = 0
    decided_by: str | None = None
    shared: bool = False
    opponents: list[K] = field(default_factory=list)

    @property
    def difference(self) -> int:
        return self.scored - self.conceded


def check_chain(chain: Iterable[str]) -> tuple[str, ...]:
    """The chain as a tuple, or ValueError (in words): known criteria, each once, match
    points first, the lot (if any) last (the leagues' check, with this chain's words)."""
    return tiebreaks.check_chain_of(
        chain,
        CRITERIA,
        first=MATCH_POINTS,
        last=LOT,
        first_words="match points",
        last_words="the lot",
    )


def tally(
    entries: Iterable[K],
    results: Iterable[Result[K]],
    scoring: Scoring = Scoring(),  # noqa: B008
) -> dict[K, Row[K]]:
    """Every entry's row before ranking: games, match and game points, Buchholz."""
    rows = {e: Row(e) for e in entries}
    counted = [r for r in results if r.home in rows and (r.away is None or r.away in rows)]
    for r in counted:
        if r.away is None:
            row = rows[r.home]
            row.byes += 1
            row.won += 1
            row.match_points += scoring.win
            continue
        for me, them, mine, theirs in (
            (r.home, r.away, r.home_points, r.away_points),
            (r.away, r.home, r.away_points, r.home_points),
        ):
            row = rows[me]
            row.played += 1
            row.opponents.append(them)
            row.scored += mine
            row.conceded += theirs
            if r.winner is None:
                row.drawn += 1
                row.match_points += scoring.draw
            elif r.winner == me:
                row.won += 1
                row.match_points += scoring.win
            else:
                row.lost += 1
                row.match_points += scoring.loss
    for row in rows.values():
        row.buchholz = sum(rows[o].match_points for o in row.opponents)
    return rows


def rank(
    entries: Iterable[K],
    results: Iterable[Result[K]],
    *,
    chain: Iterable[str] = CRITERIA,
    lots: Mapping[K, int] | None = None,
    scoring: Scoring = Scoring(),  # noqa: B008 - frozen
) -> list[Row[K]]:
    """The ordered standings of ``entries``. The order depends on the results and the
    lots only, never on the order either is given in."""
    chain = check_chain(chain)
    lots = lots or {}
    results = list(results)
    rows = tally(sorted(set(entries), key=repr), results, scoring)

    def head_to_head(group: list[K]) -> Callable[[K], int | None]:
        inside = set(group)
        mini = dict.fromkeys(group, 0)
        for r in results:
            if r.away is not None and r.home in inside and r.away in inside:
                for me in (r.home, r.away):
                    if r.winner is None:
                        mini[me] += scoring.draw
                    else:
                        mini[me] += scoring.win if r.winner == me else scoring.loss
        return mini.__getitem__

    def key_of(criterion: str, group: list[K]) -> Callable[[K], int | None]:
        if criterion == HEAD_TO_HEAD:
            return head_to_head(group)
        if criterion == LOT:
            return lambda e: -lots[e] if e in lots else None
        return {
            MATCH_POINTS: lambda e: rows[e].match_points,
            BUCHHOLZ: lambda e: rows[e].buchholz,
            POINT_DIFFERENCE: lambda e: rows[e].difference,
        }[criterion]

    return tiebreaks.place(tiebreaks.order_by_chain(list(rows), chain, key_of), rows, chain)
