"""Reads about championships, scoped to who may see them: anyone who sees the federation
(its officers, the members of its member clubs, anyone when it publishes) sees its
championships, their teams and rosters (the players' names as their clubs call them),
the calendar, the results and the table. Never any money: a fixture's matches are read
for their winners and game points only.

A fixture's result is read from its tables' matches each time (a director's correction
moves it); it counts in the table once the away captain confirmed it, or an officer
recorded a forfeit. The public page's table and calendar (``public_table``) are kept in
Django's cache under a key that changes with every row they are computed from: the
championship's ``version`` (bumped by every write of it, its teams and its fixtures, in the
write's transaction) and its tables' matches (how many, and the sum of their ``version``,
bumped by every deal, correction, end and abandonment). A read never sees a table older
than the rows it read the key from.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Prefetch, QuerySet, Sum

from scorebook.clubs.models import Player
from scorebook.core.people import Anyone
from scorebook.matches.models import Match
from scorebook.rules import games, get_game
from scorebook.standings.leagues import knockout, tiebreaks
from scorebook.standings.leagues.selectors import match_score

from . import championship_rules as rules
from .models import (
    Championship,
    ChampionshipFixture,
    Federation,
    FixtureTable,
    Team,
)
from .refusals import ChampionshipGone, FixtureGone
from .selectors import federations_visible

HOME, AWAY = 1, 2


def championships_visible(user: Anyone) -> QuerySet[Championship]:
    """Every championship of the federations the user sees."""
    return Championship.objects.filter(federation__in=federations_visible(user)).select_related(
        "federation"
    )


def championships_of(federation: Federation) -> QuerySet[Championship]:
    return Championship.objects.filter(federation=federation).order_by("-season", "name")


def championship_of(user: Anyone, championship_id: Any) -> Championship:
    """The championship, or ChampionshipGone when there is none the user sees."""
    try:
        return championships_visible(user).get(pk=int(championship_id))
    except (Championship.DoesNotExist, TypeError, ValueError):
        raise ChampionshipGone() from None


def fixture_of(user: Anyone, fixture_id: Any) -> ChampionshipFixture:
    try:
        return (
            ChampionshipFixture.objects.filter(championship__in=championships_visible(user))
            .select_related("championship__federation", "home__club", "away__club", "night")
            .get(pk=int(fixture_id))
        )
    except (ChampionshipFixture.DoesNotExist, TypeError, ValueError):
        raise FixtureGone() from None


def teams(championship: Championship) -> QuerySet[Team]:
    return (
        championship.teams.select_related("club", "captain")
        .prefetch_related("roster__player")
        .order_by("seed", "id")
    )


def fixtures(championship: Championship) -> QuerySet[ChampionshipFixture]:
    """The calendar, each fixture with its tables and their matches (two queries for all:
    ``result`` reads them without one more per fixture)."""
    tables = FixtureTable.objects.select_related("match").order_by("number")
    return (
        championship.fixtures.select_related("home__club", "away__club", "night")
        .prefetch_related(Prefetch("boards", queryset=tables))
        .order_by("stage", "round", "group", "slot", "id")
    )


def _tables(fixture: ChampionshipFixture) -> list[FixtureTable]:
    """The fixture's tables with their matches, by number (as prefetched when they were)."""
    if "boards" in getattr(fixture, "_prefetched_objects_cache", {}):
        return list(fixture.boards.all())
    return list(fixture.boards.select_related("match").order_by("number"))


def side_size(championship: Championship) -> int:
    """Players a team seats at one table (one side of the game's table)."""
    game = get_game(championship.game)
    resolved = game.rules(championship.rules)
    seats = game.seats(resolved, game.default_players(resolved))
    members = list(game.table_shape(resolved.values, seats).members.values())
    return len(members[0]) if members else 1


def target_points(championship: Championship) -> int:
    """Game points of a table won by forfeit: the game's target (21 when it has none)."""
    values = get_game(championship.game).rules(championship.rules).values
    targets = [v for k, v in values.items() if k.endswith(".target") and isinstance(v, int)]
    return targets[0] if targets else 21


def board(table: FixtureTable) -> rules.Board:
    """One table as it stands: the side that won its match (once finished) and each
    side's game points (the leagues' ``match_score``: the sides' totals in a race game)."""
    match: Match = table.match
    away = set(table.away_seats)
    entry_of = {pid: AWAY if seat in away else HOME for seat, pid in match.seats.items()}
    scored = match_score(match, entry_of)
    home_won, home_points = scored.get(HOME, (False, 0))
    away_won, away_points = scored.get(AWAY, (False, 0))
    finished = match.status != Match.Status.OPEN
    winner: rules.Side | None = None
    if match.status == Match.Status.FINISHED and home_won != away_won:
        winner = "home" if home_won else "away"
    return rules.Board(finished, winner, home_points, away_points)


def result(fixture: ChampionshipFixture) -> rules.TeamResult | None:
    """The fixture's result as it stands (None before it is played)."""
    championship = fixture.championship
    if fixture.status == ChampionshipFixture.Status.FORFEITED:
        loser: rules.Side = "home" if fixture.forfeited_by_id == fixture.home_id else "away"
        return rules.forfeit_result(loser, championship.tables, target_points(championship))
    tables = _tables(fixture)
    if not tables:
        return None
    return rules.team_result([board(t) for t in tables], championship.tables)


def counts(fixture: ChampionshipFixture) -> bool:
    """Whether the table takes the fixture into account: confirmed or forfeited."""
    return fixture.status in (
        ChampionshipFixture.Status.CONFIRMED,
        ChampionshipFixture.Status.FORFEITED,
    )


def scoring(championship: Championship) -> tiebreaks.Scoring:
    return tiebreaks.Scoring(
        win=championship.win_points,
        draw=championship.draw_points,
        loss=championship.loss_points,
    )


@dataclass
class TableRow:
    team: Team
    row: tiebreaks.Row[int]
    tables_won: int = 0
    tables_lost: int = 0


@dataclass
class GroupTable:
    group: int | None
    rows: list[TableRow] = field(default_factory=list)


def standings(championship: Championship) -> list[GroupTable]:
    """The championship's table, one per group: the counted fixtures of the group stage,
    ranked by the leagues' chain; tables won and lost beside."""
    by_id = {t.pk: t for t in teams(championship)}
    group_of = {t.pk: t.group for t in by_id.values()}
    groups: list[int | None] = [*sorted({g for g in group_of.values() if g is not None})] or [None]
    results: dict[int | None, list[tuple[int, int, rules.TeamResult]]] = {}
    tables: dict[int, list[int]] = {pk: [0, 0] for pk in by_id}
    annulled = {pk for pk, t in by_id.items() if t.withdrawal == Team.Withdrawal.ANNULLED}
    stage = fixtures(championship).filter(stage=ChampionshipFixture.Stage.GROUP)
    for fixture in stage:
        found = result(fixture) if counts(fixture) else None
        if found is None or {fixture.home_id, fixture.away_id} & annulled:
            continue
        results.setdefault(fixture.group, []).append((fixture.home_id, fixture.away_id, found))
        tables[fixture.home_id][0] += found.home_tables
        tables[fixture.home_id][1] += found.away_tables
        tables[fixture.away_id][0] += found.away_tables
        tables[fixture.away_id][1] += found.home_tables
    out = []
    for g in groups:
        members = [pk for pk, grp in group_of.items() if grp == g or g is None]
        rows = rules.standings(
            members,
            results.get(g, []),
            scoring=scoring(championship),
            lots={pk: by_id[pk].seed for pk in members},
            withdrawn=[pk for pk in members if by_id[pk].withdrawn],
            annulled=[pk for pk in members if pk in annulled],
        )
        out.append(GroupTable(g, [TableRow(by_id[r.entry], r, *tables[r.entry]) for r in rows]))
    return out


def knockout_seeded(championship: Championship) -> list[int]:
    """The knockout's seeding from the group tables (``advance`` of each group): a team
    withdrawn during the group stage goes on no further; one withdrawn once the knockout
    was drawn keeps its seed (its knockout fixtures are lost by forfeit), so the bracket
    drawn stays as it was."""
    orders = [
        [r.team.pk for r in g.rows if not r.team.withdrawn or _kept_seed(r.team)]
        for g in standings(championship)
    ]
    return rules.knockout_seeding(orders, championship.advance)


def _kept_seed(team: Team) -> bool:
    return team.withdrawal == Team.Withdrawal.KNOCKOUT


def knockout_winner(fixture: ChampionshipFixture, seeded: list[int]) -> int | None:
    """The team a counted knockout fixture sends on: its winner; level on tables and game
    points, the better seed."""
    found = result(fixture)
    if found is None or not counts(fixture):
        return None
    side = found.winner
    if side is None:
        return min((fixture.home_id, fixture.away_id), key=seeded.index)
    return fixture.home_id if side == "home" else fixture.away_id


def bracket(championship: Championship, *, started: bool = False) -> list[list[knockout.Slot[int]]]:
    """The knockout as far as it has gone (empty before the knockout stage, unless
    ``started``: the stage being drawn)."""
    ko = list(fixtures(championship).filter(stage=ChampionshipFixture.Stage.KNOCKOUT))
    if not ko and not started:
        return []
    seeded = knockout_seeded(championship)
    winners: dict[tuple[int, int], int | None] = {}
    for fixture in ko:
        found = knockout_winner(fixture, seeded)
        if found is not None and fixture.slot is not None:
            winners[(fixture.round, fixture.slot)] = found
    return rules.bracket(seeded, winners)


def team_games() -> list[str]:
    """The games a championship may be played at: those whose table has two sides of
    equal size under their default rules (the engine says which), by key."""
    found = []
    for key, game in sorted(games().items()):
        resolved = game.rules({})
        seats = game.seats(resolved, game.default_players(resolved))
        sides = list(game.table_shape(resolved.values, seats).members.values())
        if len(sides) == 2 and len(sides[0]) == len(sides[1]):
            found.append(key)
    return found


def round_day(championship: Championship, round_number: int) -> datetime.date | None:
    """The night the calendar gave a group round: ``every_days`` apart from
    ``first_day`` (None without a first night)."""
    if championship.first_day is None:
        return None
    return championship.first_day + datetime.timedelta(
        days=championship.every_days * (round_number - 1)
    )


def postponed(fixture: ChampionshipFixture) -> bool:
    """Whether the fixture's planned night is not the one the calendar gave it (an
    officer or the home director moved it)."""
    if fixture.stage != ChampionshipFixture.Stage.GROUP:
        return fixture.planned_on is not None and bool(fixture.reason)
    return fixture.planned_on != round_day(fixture.championship, fixture.round)


@dataclass
class LineupTable:
    """One table of a fixture: who sits for each team (their clubs' names for them)."""

    number: int
    home: list[str]
    away: list[str]
    match_id: int | None = None


def lineups(fixture: ChampionshipFixture) -> list[LineupTable]:
    """The fixture's line-ups table by table: as seated once it is played; before, the
    regulars of each roster in table order (who the home director seats unless they name
    others). A forfeited fixture that was never played has none."""
    tables = list(fixture.boards.order_by("number"))
    if tables:
        ids = {pid for t in tables for pid in (*t.home_players, *t.away_players)}
        names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
        return [
            LineupTable(
                t.number,
                [names.get(p, "?") for p in t.home_players],
                [names.get(p, "?") for p in t.away_players],
                t.match_id,
            )
            for t in tables
        ]
    if fixture.status == ChampionshipFixture.Status.FORFEITED:
        return []
    side = side_size(fixture.championship)

    def regulars(team: Team) -> list[str]:
        return [r.player.name for r in team.roster.select_related("player") if not r.substitute]

    home, away = regulars(fixture.home), regulars(fixture.away)
    return [
        LineupTable(n + 1, home[n * side : (n + 1) * side], away[n * side : (n + 1) * side])
        for n in range(fixture.championship.tables)
    ]


#: how long a public table stays in the cache unread (a new key replaces it on any change)
PUBLIC_TABLE_SECONDS = 24 * 3600


def public_table_key(championship: Championship) -> str:
    """The cache key of the championship's public table: its ``version`` and its tables'
    matches (one query)."""
    seen = FixtureTable.objects.filter(fixture__championship=championship).aggregate(
        n=Count("pk"), v=Sum("match__version"), m=Sum("match_id")
    )
    return (
        f"championship-public:{championship.pk}:{championship.version}"
        f":{seen['n']}:{seen['v'] or 0}:{seen['m'] or 0}"
    )


def public_table(championship: Championship) -> tuple[list[GroupTable], list[dict[str, Any]]]:
    """The public page's table (one per group) and calendar (each fixture's result and
    whether it was postponed), from the cache when nothing they read has changed."""
    key = public_table_key(championship)
    found = cache.get(key)
    if found is None:
        rows: list[dict[str, Any]] = []
        for f in fixtures(championship):
            rows.append(
                {
                    "fixture": f,
                    "result": result(f),
                    "postponed": postponed(f),
                    "tables": [],
                    "may_see_matches": False,
                }
            )
            # the tables' matches were read for the result: not kept in the cache
            getattr(f, "_prefetched_objects_cache", {}).pop("boards", None)
        found = (standings(championship), rows)
        cache.set(key, found, PUBLIC_TABLE_SECONDS)
    return found


def fixtures_of_night(night_id: int) -> QuerySet[ChampionshipFixture]:
    """The fixtures played on a night of the home club (being played or settled), with
    their teams and championship, in the order they were played."""
    return (
        ChampionshipFixture.objects.filter(night_id=night_id)
        .select_related("home", "away", "championship")
        .order_by("pk")
    )
