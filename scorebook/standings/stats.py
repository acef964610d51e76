"""Reads for leagues and player statistics (selectors: they never write).

A league table is computed on read from its fixtures' matches: four queries (entries,
their players, fixtures, linked matches) and the pure tie-break chain. Measured with 20
entries in a double round robin (380 fixtures, 760 matches) by ``make bench-leagues``;
see docs/leagues.md for the figures and why it is computed on read rather than kept: it is
never stale, so a correction shows at once, and nothing needs an outbox hook.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorebook.clubs.models import Player
from scorebook.matches.models import Deal, Match
from scorebook.rules import get_game

from . import playerstats, tiebreaks
from .models import Fixture, League, LeagueEntry, RatingChange
from .selectors import finished_matches_in_order, is_race, seats_in_order, sides_of

MIN_SHARED = 3  # matches together (or against) before a best partner, rival or nemesis


# -- leagues --------------------------------------------------------------------------------


@dataclass
class FixtureScore:
    """A fixture as its linked matches stand: matches won and game points per entry."""

    fixture: Fixture
    home_wins: int = 0
    away_wins: int = 0
    home_points: int = 0
    away_points: int = 0
    finished: int = 0
    playing: int = 0
    matches: list[int] = field(default_factory=list)
    status: str = "scheduled"  # scheduled, playing, played, cancelled, void


@dataclass
class LeagueRound:
    number: int
    leg: int
    fixtures: list[FixtureScore]
    bye: LeagueEntry | None


@dataclass
class LeagueTable:
    league: League
    rows: list[tuple[tiebreaks.Row[int], LeagueEntry]]
    rounds: list[LeagueRound]


def leagues_of_club(club_id: int) -> QuerySet[League]:
    return League.objects.filter(club_id=club_id)


def league_entries(league: League) -> list[LeagueEntry]:
    return list(
        league.entries.order_by("seed").prefetch_related(
            Prefetch("players", queryset=Player.objects.order_by("name"))
        )
    )


@dataclass
class _Played:
    """The parts of a stored match a fixture's score reads (duck-types ``Match`` for
    ``sides_of``)."""

    pk: int
    game: str
    status: str
    seats: dict[str, int]
    state: dict[str, Any]
    result: dict[str, Any]


def linked_matches(league: League) -> list[tuple[int, _Played]]:
    """(fixture id, match) for every match linked to the league, reading only the keys
    of the stored JSON that a score needs: one query. Loading whole match states and
    model instances took three quarters of the table's time (make bench-leagues)."""
    rows = Match.objects.filter(fixture_link__fixture__league=league).order_by("pk")
    columns = (
        "fixture_link__fixture_id", "pk", "game", "status", "seats",
        "state__seats", "state__scorers", "state__totals", "state__units",
        "result__winners", "result__units",
    )  # fmt: skip
    links = []
    for row in rows.values_list(*columns):
        fixture_id, pk, game, status, seats, *state, winners, units = row
        played = _Played(
            pk=pk,
            game=game,
            status=status,
            seats=seats,
            state=dict(zip(("seats", "scorers", "totals", "units"), state, strict=True)),
            result={"winners": winners or [], "units": units or {}},
        )
        links.append((fixture_id, played))
    return links


def _race_game(key: str) -> bool:
    """Whether a game is a race to a target (its totals are game points). Whether stakes
    settle per deal is a property of the game, not of its house rules, so the default
    rules answer for every match of it without reading each match's rules."""
    game = get_game(key)
    return not game.settles_per_deal(game.rules(None))


def match_score(
    match: Any, entry_of: dict[int, int], *, race: bool | None = None
) -> dict[int, tuple[bool, int]]:
    """Per entry playing in a finished match: (won it, game points made). Game points are
    the sides' totals in a race game, else the stake units the entry's players won."""
    outcome = match.result or {}
    winners = set(outcome.get("winners", ()))
    sides = sides_of(match)
    race = is_race(match) if race is None else race
    totals = match.state.get("totals") or {} if race else None
    units = outcome.get("units") or match.state.get("units") or {}
    won: dict[int, bool] = {}
    points: dict[int, int] = defaultdict(int)
    counted: set[str] = set()
    for seat in seats_in_order(match):
        entry = entry_of.get(match.seats[seat])
        if entry is None:
            continue
        won[entry] = won.get(entry, False) or seat in winners
        if totals is None:
            points[entry] += int(units.get(seat, 0))
        elif sides[seat] not in counted:
            counted.add(sides[seat])
            points[entry] += int(totals.get(sides[seat], 0))
    return {entry: (won[entry], points[entry]) for entry in won}


def league_table(league: League) -> LeagueTable:
    """The table, the rounds and every fixture's score, as of now."""
    entries = league_entries(league)
    by_id = {e.pk: e for e in entries}
    entry_of = {p.pk: e.pk for e in entries for p in e.players.all()}
    withdrawn = {e.pk for e in entries if e.withdrawn_at is not None}
    void = league.withdrawals == League.Withdrawals.VOID
    scores = {f.pk: FixtureScore(f) for f in league.fixtures.order_by("round", "id")}
    race: dict[str, bool] = {}
    for fixture_id, match in linked_matches(league):
        score = scores[fixture_id]
        score.matches.append(match.pk)
        if match.status != Match.Status.FINISHED:
            score.playing += 1
            continue
        score.finished += 1
        if match.game not in race:
            race[match.game] = _race_game(match.game)
        result = match_score(match, entry_of, race=race[match.game])
        home, away = score.fixture.home_id, score.fixture.away_id
        home_won, score_home = result.get(home, (False, 0))
        away_won, score_away = result.get(away, (False, 0))
        score.home_wins += home_won and not away_won
        score.away_wins += away_won and not home_won
        score.home_points += score_home
        score.away_points += score_away
    results = []
    for score in scores.values():
        f = score.fixture
        out = {f.home_id, f.away_id} & withdrawn
        if score.finished:
            score.status = "void" if out and void else "played"
            results.append(
                tiebreaks.Result(
                    f.home_id,
                    f.away_id,
                    score.home_wins,
                    score.away_wins,
                    score.home_points,
                    score.away_points,
                )  # fmt: skip
            )
        elif out:
            score.status = "cancelled"
        elif score.playing:
            score.status = "playing"
    rows = tiebreaks.league_table(
        by_id,
        results,
        scoring=tiebreaks.Scoring(league.points_win, league.points_draw, league.points_loss),
        chain=league.tiebreaks,
        lots={e.pk: e.lot for e in entries if e.lot is not None},
        withdrawn=withdrawn,
        void_withdrawn=void,
    )
    rounds: dict[int, LeagueRound] = {}
    for score in scores.values():
        f = score.fixture
        rounds.setdefault(f.round, LeagueRound(f.round, f.leg, [], None)).fixtures.append(score)
    for r in rounds.values():
        playing = {id_ for s in r.fixtures for id_ in (s.fixture.home_id, s.fixture.away_id)}
        resting = [e for e in entries if e.pk not in playing]
        r.bye = resting[0] if len(resting) == 1 else None
    for score in scores.values():  # the entries, without another query
        score.fixture.home = by_id[score.fixture.home_id]
        score.fixture.away = by_id[score.fixture.away_id]
    return LeagueTable(league, [(row, by_id[row.entry]) for row in rows], list(rounds.values()))


def league_sheet(table: LeagueTable) -> list[list[Any]]:
    """The table as rows for a CSV a secretary files: a shared place is marked "=" and a
    withdrawn entry says so."""
    rows: list[list[Any]] = [[table.league.name]]
    rows.append(
        [_("Position"), _("Entry"), _("Played"), _("Won"), _("Drawn"), _("Lost"), _("Points"),
         _("Points scored"), _("Points conceded"), _("Difference"), _("Decided by")]
    )  # fmt: skip
    for row, entry in table.rows:
        position = "" if row.position is None else f"{row.position}{'=' if row.shared else ''}"
        rows.append(
            [position, entry.name + (f" ({_('withdrawn')})" if row.withdrawn else ""),
             row.played, row.won, row.drawn, row.lost, row.points, row.scored, row.conceded,
             row.difference, str(CRITERIA_NAMES.get(row.decided_by or "", ""))]
        )  # fmt: skip
    return rows


#: the tie-break criteria as the pages and the CSV name them
CRITERIA_NAMES = {
    tiebreaks.POINTS: gettext_lazy("points"),
    tiebreaks.HEAD_TO_HEAD: gettext_lazy("head-to-head among the tied"),
    tiebreaks.WINS: gettext_lazy("fixtures won"),
    tiebreaks.POINT_DIFFERENCE: gettext_lazy("game-point difference"),
    tiebreaks.POINTS_SCORED: gettext_lazy("game points scored"),
    tiebreaks.LOTS: gettext_lazy("drawing of lots"),
}


# -- player statistics --------------------------------------------------------------------


def match_records(club_id: int) -> list[playerstats.MatchRecord]:
    """The club's finished matches, in the order they finished, as statistics need them:
    the order in one query, then only the seats, sides and winners of each."""
    order = list(finished_matches_in_order(club_id).values_list("pk", flat=True))
    rows = Match.objects.filter(pk__in=order).values_list(
        "pk", "game", "seats", "state__seats", "state__scorers", "result__winners",
        "result__losers",
    )  # fmt: skip
    found = {}
    for pk, game, seats, in_order, scorers, winners, losers in rows.iterator(chunk_size=2000):
        match = _Played(pk, game, Match.Status.FINISHED, seats, {"seats": in_order,
                        "scorers": scorers}, {})  # fmt: skip
        sides: dict[str, set[int]] = defaultdict(set)
        for seat, side in sides_of(match).items():
            sides[side].add(seats[seat])
        found[pk] = playerstats.MatchRecord(
            match=pk,
            game=game,
            sides=tuple(frozenset(s) for s in sides.values()),
            winners=frozenset(seats[s] for s in winners or ()),
            losers=frozenset(seats[s] for s in losers or ()),
        )
    return [found[pk] for pk in order]


@dataclass
class PlayerStatistics:
    player: Player
    names: dict[int, str]
    by_game: dict[str, playerstats.Record]
    head_to_head: dict[int, playerstats.Record]
    synergies: list[playerstats.Synergy]
    best_partner: int | None
    rival: tuple[int, playerstats.Record] | None
    nemesis: tuple[int, playerstats.Record] | None
    streak: playerstats.Streak
    recent: list[playerstats.MatchRecord]
    min_shared: int
    ratings: dict[str, list[dict[str, Any]]]


def player_statistics(player: Player, *, min_shared: int = MIN_SHARED) -> PlayerStatistics:
    """Everything the player page and the statistics endpoint show, in four queries."""
    records = match_records(player.club_id)
    me = player.pk
    mine = [m for m in records if m.side_of(me) is not None]
    return PlayerStatistics(
        player=player,
        names=dict(Player.objects.filter(club_id=player.club_id).values_list("pk", "name")),
        by_game=playerstats.record_by_game(me, mine),
        head_to_head=playerstats.head_to_head(me, mine),
        synergies=playerstats.synergies(me, records),
        best_partner=playerstats.best_partner(me, records, min_shared=min_shared),
        rival=playerstats.rival(me, mine, min_shared=min_shared),
        nemesis=playerstats.nemesis(me, mine, min_shared=min_shared),
        streak=playerstats.longest_streak(me, mine),
        recent=mine[-10:][::-1],
        min_shared=min_shared,
        ratings=rating_history(player),
    )


def rating_history(player: Player) -> dict[str, list[dict[str, Any]]]:
    """Per game, the player's rating after each rated match, in order."""
    history: dict[str, list[dict[str, Any]]] = {}
    changes = RatingChange.objects.filter(player=player).order_by("game", "seq")
    for change in changes.values("game", "seq", "match_id", "display_after", "mu_after"):
        row: dict[str, Any] = dict(change)
        history.setdefault(str(row.pop("game")), []).append(row)
    return history


def running_scores(match: Match) -> dict[str, list[tuple[int, int]]]:
    """Per scorer (side or player), the running total after each deal, from 0 at deal 0:
    game points in a race game, stake units in a game settled per deal."""
    scorers = list(match.state.get("scorers") or match.seats)
    race = is_race(match)
    key = "points" if race else "units"
    names = scorers if race else seats_in_order(match)
    running = dict.fromkeys(names, 0)
    series: dict[str, list[tuple[int, int]]] = {name: [(0, 0)] for name in names}
    deals = Deal.objects.filter(match=match, is_current=True).order_by("number")
    for number, result in deals.values_list("number", "result"):
        for name in names:
            running[name] += int((result.get(key) or {}).get(name, 0))
            series[name].append((number, running[name]))
    return series
