"""The championships' rules as pure functions (no Django): a fixture's team result, the
table, the calendar, the groups and the knockout's seeding.

The team result rule: each table of a fixture is a match; the team that wins more tables
wins the fixture; level on tables, the team with more game points (the sides' totals of
the matches) wins it; level on both, it is drawn. A forfeit gives the other team every
table and the game points of a table won to the game's target at each.

The table, the calendar and the bracket are the leagues' own
(``scorebook.standings.leagues``: ``tiebreaks.rank_table`` with its tie-break chain,
``roundrobin.circle_rounds``, ``knockout.first_round`` and ``knockout.bracket``): a
fixture enters the table as a league result of one "game" won by its winner, with the
game points made and conceded, so the chain (points, head to head, point difference,
points scored, lots) reads the same numbers a league's does.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar

from scorebook.standings.leagues import knockout, roundrobin, tiebreaks

Side = Literal["home", "away"]
T = TypeVar("T", bound=Hashable)


@dataclass(frozen=True)
class Board:
    """One table of a fixture as it stands: finished or not, the side that won its match
    (None: not yet, or nobody) and the game points each side made."""

    finished: bool
    winner: Side | None
    home_points: int = 0
    away_points: int = 0


@dataclass(frozen=True)
class TeamResult:
    """A fixture's result: tables won and game points made by each team; ``complete``
    once every table is finished."""

    home_tables: int
    away_tables: int
    home_points: int
    away_points: int
    complete: bool

    @property
    def winner(self) -> Side | None:
        """Tables won, then game points; None when level on both (a draw)."""
        mine = (self.home_tables, self.home_points)
        theirs = (self.away_tables, self.away_points)
        if mine > theirs:
            return "home"
        if theirs > mine:
            return "away"
        return None

    def swapped(self) -> TeamResult:
        return TeamResult(
            self.away_tables, self.home_tables, self.away_points, self.home_points, self.complete
        )

    def as_dict(self) -> dict[str, int | bool]:
        return {
            "home_tables": self.home_tables,
            "away_tables": self.away_tables,
            "home_points": self.home_points,
            "away_points": self.away_points,
            "complete": self.complete,
        }


def team_result(boards: Sequence[Board], tables: int) -> TeamResult:
    """The fixture's result from its tables; complete when ``tables`` tables are all
    finished."""
    home = sum(1 for b in boards if b.finished and b.winner == "home")
    away = sum(1 for b in boards if b.finished and b.winner == "away")
    complete = len(boards) >= tables and all(b.finished for b in boards)
    return TeamResult(
        home,
        away,
        sum(b.home_points for b in boards),
        sum(b.away_points for b in boards),
        complete,
    )


def forfeit_result(loser: Side, tables: int, points_per_table: int) -> TeamResult:
    """A forfeit: the other team wins every table to the game's target, the forfeiting
    team makes nothing."""
    won = TeamResult(tables, 0, tables * points_per_table, 0, True)
    return won if loser == "away" else won.swapped()


def as_league_result(home: int, away: int, result: TeamResult) -> tiebreaks.Result[int]:
    """The fixture as the leagues' table reads it: one game, won by the fixture's
    winner (none when drawn), with the game points."""
    winner = result.winner
    return tiebreaks.Result(
        home,
        away,
        int(winner == "home"),
        int(winner == "away"),
        result.home_points,
        result.away_points,
    )


def standings(
    teams: Iterable[int],
    results: Iterable[tuple[int, int, TeamResult]],
    *,
    scoring: tiebreaks.Scoring,
    lots: Mapping[int, int] | None = None,
    withdrawn: Iterable[int] = (),
    annulled: Iterable[int] = (),
) -> list[tiebreaks.Row[int]]:
    """The ordered table by the leagues' chain (points, head to head, point difference,
    points scored, lots). Only complete results count. ``annulled``: teams whose
    withdrawal annulled their results (every result of theirs struck out, listed at the
    foot without a position); the other ``withdrawn`` keep their results and place."""
    counted = [as_league_result(h, a, r) for h, a, r in results if r.complete]
    rows = tiebreaks.rank_table(
        teams,
        counted,
        scoring=scoring,
        chain=tiebreaks.DEFAULT_CHAIN,
        lots=lots,
        withdrawn=annulled,
        void_withdrawn=True,
    )
    gone = set(withdrawn)
    for row in rows:
        row.withdrawn = row.withdrawn or row.entry in gone
    return rows


Withdrawal = Literal["annulled", "forfeits"]


def withdrawal_rule(settled: int, total: int) -> Withdrawal:
    """What a team's withdrawal during the group stage does (the rule of
    docs/federation.md, as leagues in sport apply it): before half of its group fixtures
    are settled (``settled`` of ``total``) its results are annulled, every one of them, and
    its fixtures not settled are not played; from half on its results stand and every
    fixture it has not settled is lost by forfeit."""
    return "annulled" if 2 * settled < total else "forfeits"


def calendar(teams: Sequence[T], legs: int) -> list[roundrobin.Round[T]]:
    """Every round of the round robin (home and away when ``legs`` is 2)."""
    return roundrobin.circle_rounds(teams, legs=legs)


def split_groups(teams: Sequence[T], count: int) -> list[list[T]]:
    """``teams`` (in seeding order) dealt into ``count`` groups like cards, back and
    forth (1, 2, 3, 3, 2, 1, ...), so that every group has a share of the seeds."""
    count = max(1, min(count, len(teams) // 2 or 1))
    groups: list[list[T]] = [[] for _ in range(count)]
    for i, team in enumerate(teams):
        lap, place = divmod(i, count)
        groups[place if lap % 2 == 0 else count - 1 - place].append(team)
    return groups


def knockout_seeding(group_orders: Sequence[Sequence[T]], advance: int) -> list[T]:
    """The knockout's seeding: every group's winners (group 1 first), then the runners-up,
    and so on, ``advance`` from each group."""
    seeded: list[T] = []
    for place in range(advance):
        seeded.extend(order[place] for order in group_orders if place < len(order))
    return seeded


def first_round(seeded: Sequence[T]) -> list[tuple[T | None, T | None]]:
    """The knockout's first round (``None``: a bye), the leagues' bracket order."""
    return knockout.first_round(seeded)


def bracket(
    seeded: Sequence[T], winners: Mapping[tuple[int, int], T | None]
) -> list[list[knockout.Slot[T]]]:
    """The bracket as far as it has gone: ``winners[(round, slot)]`` is the team that won
    that slot's confirmed fixture."""

    def decide(number: int, slot: int, home: T, away: T) -> T | None | object:
        return winners.get((number, slot), knockout.UNDECIDED)

    return knockout.bracket(seeded, decide)  # type: ignore[arg-type]
