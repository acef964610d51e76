"""A league table and its tie-break chain (pure Python, no Django).

The chain is a list of criteria applied in order; each splits a group of entries that are
still level into ordered sub-groups:

- ``points``: league points (win, draw and loss worth what the league says);
- ``head_to_head``: league points in the fixtures between the tied entries ONLY. When it
  splits a group, it is applied again to each smaller group that is still level, among
  those entries alone (as UEFA does); only when it no longer separates anyone does the
  next criterion get its turn;
- ``wins``: fixtures won;
- ``point_difference``: game points made minus game points conceded;
- ``points_scored``: game points made;
- ``lots``: the drawing of lots, recorded once per entry (lower number first). It must be
  last: it is the only criterion that is not a result.

Entries the chain does not separate share a position (shown in entry order). The table
depends on the results and the recorded lots only, never on the order they are given in.
Each row says which criterion decided its place: the later of the criteria that set it
apart from the entry above and from the entry below (None when it shares its place).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

K = TypeVar("K", int, str)

POINTS = "points"
HEAD_TO_HEAD = "head_to_head"
WINS = "wins"
POINT_DIFFERENCE = "point_difference"
POINTS_SCORED = "points_scored"
LOTS = "lots"
CRITERIA = (POINTS, HEAD_TO_HEAD, WINS, POINT_DIFFERENCE, POINTS_SCORED, LOTS)
DEFAULT_CHAIN = (POINTS, HEAD_TO_HEAD, POINT_DIFFERENCE, POINTS_SCORED, LOTS)


@dataclass(frozen=True)
class Scoring:
    """League points for a fixture won, drawn and lost; with ``per_game`` (a fixed
    series of games), league points per game won instead."""

    win: int = 2
    draw: int = 1
    loss: int = 0
    per_game: int | None = None

    def points(self, mine: int, theirs: int) -> int:
        if self.per_game is not None:
            return mine * self.per_game
        if mine > theirs:
            return self.win
        if mine == theirs:
            return self.draw
        return self.loss


@dataclass(frozen=True)
class Result(Generic[K]):
    """A fixture that counts: matches won by each entry (more wins the fixture, equal
    draws it) and the game points each made in them."""

    home: K
    away: K
    home_wins: int
    away_wins: int
    home_points: int = 0
    away_points: int = 0


@dataclass
class Row(Generic[K]):
    entry: K
    position: int | None = None
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    points: int = 0
    scored: int = 0
    conceded: int = 0
    decided_by: str | None = None
    withdrawn: bool = False
    shared: bool = False
    #: league points among the entries it was level with (the last head-to-head applied)
    head_to_head: int | None = None

    @property
    def difference(self) -> int:
        return self.scored - self.conceded


def check_chain(chain: Iterable[str]) -> tuple[str, ...]:
    """The chain as a tuple, or ValueError: known criteria, each once, points first,
    lots (if any) last."""
    return check_chain_of(
        chain,
        CRITERIA,
        first=POINTS,
        last=LOTS,
        first_words="points",
        last_words="the drawing of lots",
    )


def check_chain_of(
    chain: Iterable[str],
    criteria: Iterable[str],
    *,
    first: str,
    last: str,
    first_words: str,
    last_words: str,
) -> tuple[str, ...]:
    """Any tie-break chain (a league's, a tournament's) as a tuple, or ValueError in
    words: criteria of ``criteria`` only, each once, ``first`` first, ``last`` (if
    present) last."""
    chain = tuple(chain)
    known = set(criteria)
    unknown = [c for c in chain if c not in known]
    if unknown:
        raise ValueError(f"unknown tie-break {unknown[0]!r}")
    if len(set(chain)) != len(chain):
        raise ValueError("each tie-break may appear once")
    if not chain or chain[0] != first:
        raise ValueError(f"the chain starts with {first_words}")
    if last in chain and chain[-1] != last:
        raise ValueError(f"{last_words} comes last")
    return chain


class Placed(Protocol):
    """What :func:`place` writes on a row: a league's row or a tournament's."""

    position: int | None
    shared: bool
    decided_by: str | None


H = TypeVar("H", bound=Hashable)
Blocks = list[tuple[list[H], str | None]]


def order_by_chain(
    entries: list[H],
    chain: Sequence[str],
    key_of: Callable[[str, list[H]], Callable[[H], int | None]],
    *,
    again: str = HEAD_TO_HEAD,
) -> Blocks[H]:
    """``entries`` in ordered blocks of entries still level, each block with the
    criterion that set it apart from the block before it (None for the first). Each
    criterion splits what is still level (``key_of(criterion, group)``: the value to
    rank ``group`` by, highest first, None last); ``again`` (head to head) is applied
    once more inside each part it splits, among that part alone, before the chain goes
    on. The one chain walk of the leagues' tables and the tournaments' standings."""

    def order(group: list[H], level: int) -> Blocks[H]:
        if len(group) == 1 or level == len(chain):
            return [(group, None)]
        criterion = chain[level]
        parts = _partition(group, key_of(criterion, group))
        if len(parts) == 1:
            return order(group, level + 1)
        blocks: Blocks[H] = []
        for j, part in enumerate(parts):
            repeat = criterion == again and len(part) > 1
            inner = order(part, level if repeat else level + 1)
            inner[0] = (inner[0][0], criterion if j else None)
            blocks.extend(inner)
        return blocks

    return order(list(entries), 0) if entries else []


R = TypeVar("R", bound=Placed)


def place(blocks: Blocks[H], rows: Mapping[H, R], chain: Sequence[str]) -> list[R]:
    """The rows in the blocks' order with their positions: a block shares one position;
    a row alone in its block is placed by the later (in the chain) of the criteria that
    set it apart from the block above and the block below."""
    rank = {c: i for i, c in enumerate(chain)}
    table: list[R] = []
    for j, (block, before) in enumerate(blocks):
        after = blocks[j + 1][1] if j + 1 < len(blocks) else None
        position = len(table) + 1
        for e in block:
            row = rows[e]
            row.position = position
            row.shared = len(block) > 1
            if not row.shared:
                sides = [c for c in (before, after) if c is not None]
                row.decided_by = max(sides, key=rank.__getitem__) if sides else None
            table.append(row)
    return table


def rank_table(
    entries: Iterable[K],
    results: Iterable[Result[K]],
    *,
    scoring: Scoring = Scoring(),  # noqa: B008 - frozen, so sharing the default is safe
    chain: Iterable[str] = DEFAULT_CHAIN,
    lots: Mapping[K, int] | None = None,
    withdrawn: Iterable[K] = (),
    void_withdrawn: bool = False,
) -> list[Row[K]]:
    """The ordered table. Withdrawn entries keep their results unless
    ``void_withdrawn``; then every result of theirs is struck out and they are listed
    at the foot without a position."""
    chain = check_chain(chain)
    lots = lots or {}
    out = set(withdrawn)
    rows = {e: Row(e, withdrawn=e in out) for e in sorted(set(entries))}
    counted = [
        r
        for r in results
        if r.home in rows
        and r.away in rows
        and not (void_withdrawn and (r.home in out or r.away in out))
    ]
    for r in counted:
        for me, my_wins, their_wins, my_pts, their_pts in (
            (r.home, r.home_wins, r.away_wins, r.home_points, r.away_points),
            (r.away, r.away_wins, r.home_wins, r.away_points, r.home_points),
        ):
            row = rows[me]
            row.played += 1
            row.won += my_wins > their_wins
            row.drawn += my_wins == their_wins
            row.lost += my_wins < their_wins
            row.points += scoring.points(my_wins, their_wins)
            row.scored += my_pts
            row.conceded += their_pts

    def head_to_head(group: list[K]) -> dict[K, int]:
        inside = set(group)
        mini = dict.fromkeys(group, 0)
        for r in counted:
            if r.home in inside and r.away in inside:
                mini[r.home] += scoring.points(r.home_wins, r.away_wins)
                mini[r.away] += scoring.points(r.away_wins, r.home_wins)
        return mini

    def key_of(criterion: str, group: list[K]) -> Callable[[K], int | None]:
        if criterion == HEAD_TO_HEAD:
            mini = head_to_head(group)
            for e in group:
                rows[e].head_to_head = mini[e]
            return mini.__getitem__
        if criterion == LOTS:
            # lower lot first; an entry without a recorded lot stays level with the others
            return lambda e: -lots[e] if e in lots else None
        return {
            POINTS: lambda e: rows[e].points,
            WINS: lambda e: rows[e].won,
            POINT_DIFFERENCE: lambda e: rows[e].difference,
            POINTS_SCORED: lambda e: rows[e].scored,
        }[criterion]

    ranked = [e for e in rows if not (void_withdrawn and e in out)]
    table = place(order_by_chain(ranked, chain, key_of), rows, chain)
    table.extend(rows[e] for e in rows if void_withdrawn and e in out)
    return table


def _partition(group: list[H], key: Callable[[H], int | None]) -> list[list[H]]:
    """``group`` split by ``key``, highest first (a missing key ranks last), each part in
    the order ``group`` has (the caller's entry order: a table ranks its entries sorted)."""
    values = {e: key(e) for e in group}
    distinct = sorted(set(values.values()), key=lambda v: (v is None, -(v or 0)))
    return [[e for e in group if values[e] == v] for v in distinct]
