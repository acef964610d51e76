"""Reads for leagues (selectors: they never write).

A league table is computed on read from its fixtures' matches: four queries (entries,
their players, fixtures, linked matches) and the pure tie-break chain. Measured with 20
entries in a double round robin (380 fixtures, 760 matches) by ``make bench-leagues``;
see docs/leagues.md for the figures and why it is computed on read rather than kept: it is
never stale, so a correction shows at once, and nothing needs an outbox hook.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorebook.clubs.models import Player
from scorebook.matches.models import Match
from scorebook.rules import get_game

from ..models import Fixture, FixtureForfeit, League, LeagueEntry
from ..selectors import StoredMatch, is_race, seats_in_order, sides_of
from . import knockout, tiebreaks


@dataclass
class FixtureScore:
    """A fixture as its linked matches (or its forfeit) stand: games won and game points
    per entry, counted in the order the matches were linked and no further than the
    series needs (later ones are ``surplus``)."""

    fixture: Fixture
    home_wins: int = 0
    away_wins: int = 0
    home_points: int = 0
    away_points: int = 0
    finished: int = 0
    playing: int = 0
    matches: list[int] = field(default_factory=list)
    surplus: list[int] = field(default_factory=list)
    #: scheduled, waiting (entries not known yet), playing, bella (a deciding game is
    #: needed), played, forfeit, walkover, cancelled, void
    status: str = "scheduled"
    outcome: knockout.Outcome = field(default_factory=lambda: knockout.Series().outcome(0, 0, 0))
    forfeit: FixtureForfeit | None = None
    winner: LeagueEntry | None = None

    @property
    def status_name(self) -> str:
        """The status in words, in the active language."""
        return str(STATUS_NAMES.get(self.status, self.status))


@dataclass
class LeagueRound:
    number: int
    leg: int
    fixtures: list[FixtureScore]
    bye: LeagueEntry | None
    #: knockouts: final, semi_final, quarter_final or round
    name: str = "round"


@dataclass
class BracketSlot:
    """One place of a knockout bracket as the page and the API show it."""

    round: int
    slot: int
    home: LeagueEntry | None
    away: LeagueEntry | None
    score: FixtureScore | None
    decided: bool
    winner: LeagueEntry | None
    bye: bool


@dataclass
class LeagueTable:
    league: League
    rows: list[tuple[tiebreaks.Row[int], LeagueEntry]]
    rounds: list[LeagueRound]
    series: knockout.Series = field(default_factory=knockout.Series)
    #: knockouts: every round's slots, byes included
    bracket: list[list[BracketSlot]] | None = None


def leagues_of_club(club_id: int) -> QuerySet[League]:
    return League.objects.filter(club_id=club_id)


def league_entries(league: League) -> list[LeagueEntry]:
    return list(
        league.entries.order_by("seed").prefetch_related(
            Prefetch("players", queryset=Player.objects.order_by("name"))
        )
    )


def linked_matches(league: League) -> list[tuple[int, StoredMatch]]:
    """(fixture id, match) for every match linked to the league, in the order they were
    linked, reading only the keys of the stored JSON that a score needs: one query.
    Loading whole match states and model instances took three quarters of the table's
    time (make bench-leagues)."""
    rows = Match.objects.filter(fixture_link__fixture__league=league).order_by("fixture_link__id")
    columns = (
        "fixture_link__fixture_id",
        "pk",
        "game",
        "status",
        "seats",
        "state__seats",
        "state__scorers",
        "state__totals",
        "state__units",
        "result__winners",
        "result__units",
    )
    links = []
    for row in rows.values_list(*columns):
        fixture_id, pk, game, status, seats, *state, winners, units = row
        played = StoredMatch(
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


def league_series(league: League) -> knockout.Series:
    """How the league's fixtures are played; a knockout's level series needs la bella."""
    kind = league.series
    games = 1 if kind == League.SeriesKind.MATCHES else league.series_games
    return knockout.Series(kind, games, bella=league.format == League.Format.KNOCKOUT)


def counts_games_won(league: League) -> bool:
    """Whether the table counts points per game won rather than the fixture's result: a
    fixed series always does, a best of N when the league says so (the code's club
    sheets count a best of three by the games each pair won)."""
    return league.series == League.SeriesKind.GAMES or (
        league.series == League.SeriesKind.BEST_OF and league.count_games_won
    )


def forfeit_points(league: League) -> int:
    """Game points per game the winner of a forfeit scores: the league's setting, else
    the target of its game (the code's "punteggio ... più favorevole possibile per la
    parte innocente": a game won to the target, the loser on nothing), else 21, the
    code's ordinary target; a game settled per deal (no target) scores none."""
    if league.forfeit_points is not None:
        return league.forfeit_points
    if not league.game:
        return 21
    values = get_game(league.game).rules(None).values
    targets = [v for k, v in values.items() if k.endswith(".target") and isinstance(v, int)]
    return targets[0] if targets else 0


class _Scorer:
    """Works out fixture scores from the linked matches (one table read)."""

    def __init__(self, league: League, entries: list[LeagueEntry]) -> None:
        self.series = league_series(league)
        self.entry_of = {p.pk: e.pk for e in entries for p in e.players.all()}
        self.by_fixture: dict[int, list[StoredMatch]] = defaultdict(list)
        for fixture_id, match in linked_matches(league):
            self.by_fixture[fixture_id].append(match)
        self.race: dict[str, bool] = {}
        self.forfeit_points = forfeit_points(league)

    def tally(self, score: FixtureScore) -> None:
        f = score.fixture
        series = self.series
        outcome = series.outcome(0, 0, 0)
        for match in self.by_fixture.get(f.pk, ()):
            score.matches.append(match.pk)
            if outcome.complete:
                score.surplus.append(match.pk)
                continue
            if match.status == Match.Status.ABANDONED:  # ended early: counts for nothing
                continue
            if match.status != Match.Status.FINISHED:
                score.playing += 1
                continue
            if match.game not in self.race:
                self.race[match.game] = _race_game(match.game)
            result = match_score(match, self.entry_of, race=self.race[match.game])
            home_won, score_home = result.get(f.home_id or 0, (False, 0))
            away_won, score_away = result.get(f.away_id or 0, (False, 0))
            score.home_wins += home_won and not away_won
            score.away_wins += away_won and not home_won
            score.home_points += score_home
            score.away_points += score_away
            score.finished += 1
            outcome = series.outcome(score.home_wins, score.away_wins, score.finished)
        score.outcome = series.outcome(
            score.home_wins, score.away_wins, score.finished, score.playing
        )
        forfeit = getattr(f, "forfeit", None)
        if forfeit is not None:
            score.forfeit = forfeit
            home_lost = forfeit.entry_id == f.home_id
            wins, points = series.to_win, series.to_win * self.forfeit_points
            score.home_wins, score.away_wins = (0, wins) if home_lost else (wins, 0)
            score.home_points, score.away_points = (0, points) if home_lost else (points, 0)
            score.outcome = knockout.Outcome(
                "away" if home_lost else "home", False, True, False, False, True
            )
            score.status = "forfeit"
        elif score.outcome.counts:
            score.status = "played"
        elif score.outcome.bella:
            score.status = "bella"
        elif score.finished or score.playing:
            score.status = "playing"


def _fixtures(league: League) -> list[Fixture]:
    """The league's fixtures with their forfeits (one query)."""
    return list(
        league.fixtures.select_related("forfeit", "forfeit__entry").order_by("round", "slot", "id")
    )


def league_table(league: League) -> LeagueTable:
    """The table (a knockout: the placings and the bracket), the rounds and every
    fixture's score, as of now."""
    entries = league_entries(league)
    if league.format == League.Format.KNOCKOUT:
        return _knockout_table(league, entries)
    by_id = {e.pk: e for e in entries}
    withdrawn = {e.pk for e in entries if e.withdrawn_at is not None}
    void = league.withdrawals == League.Withdrawals.VOID
    scorer = _Scorer(league, entries)
    scores = {f.pk: FixtureScore(f) for f in _fixtures(league)}
    results = []
    for score in scores.values():
        scorer.tally(score)
        f = score.fixture
        home_id, away_id = f.home_id, f.away_id
        assert home_id is not None and away_id is not None  # a round robin stores both
        out = {home_id, away_id} & withdrawn
        if score.outcome.counts:
            if out and void:
                score.status = "void"
            results.append(
                tiebreaks.Result(
                    home_id,
                    away_id,
                    score.home_wins,
                    score.away_wins,
                    score.home_points,
                    score.away_points,
                )
            )
            side = score.outcome.winner
            score.winner = by_id[home_id if side == "home" else away_id] if side else None
        elif out:
            score.status = "cancelled"
    per_game = league.points_per_game if counts_games_won(league) else None
    rows = tiebreaks.rank_table(
        by_id,
        results,
        scoring=tiebreaks.Scoring(
            league.points_win, league.points_draw, league.points_loss, per_game
        ),
        chain=league.tiebreaks,
        lots={e.pk: e.lot for e in entries if e.lot is not None},
        withdrawn=withdrawn,
        void_withdrawn=void,
    )
    if not any(row.played for row in rows):
        for row in rows:  # nothing played yet: the order is the lots', no place decided
            row.decided_by = None
    rounds: dict[int, LeagueRound] = {}
    for score in scores.values():
        f = score.fixture
        rounds.setdefault(f.round, LeagueRound(f.round, f.leg, [], None)).fixtures.append(score)
    for r in rounds.values():
        playing = {id_ for s in r.fixtures for id_ in (s.fixture.home_id, s.fixture.away_id)}
        resting = [e for e in entries if e.pk not in playing]
        r.bye = resting[0] if len(resting) == 1 else None
    for score in scores.values():  # the entries, without another query
        score.fixture.home = by_id[score.fixture.home_id] if score.fixture.home_id else None
        score.fixture.away = by_id[score.fixture.away_id] if score.fixture.away_id else None
    return LeagueTable(
        league,
        [(row, by_id[row.entry]) for row in rows],
        list(rounds.values()),
        scorer.series,
    )


def _knockout_table(league: League, entries: list[LeagueEntry]) -> LeagueTable:
    """A knockout: the bracket worked out round by round (a fixture's entries are the
    winners of the two feeding it), the placings as far as it has gone, and the rounds."""
    by_id = {e.pk: e for e in entries}
    withdrawn = {e.pk for e in entries if e.withdrawn_at is not None}
    scorer = _Scorer(league, entries)
    fixtures = _fixtures(league)
    scores = {f.pk: FixtureScore(f) for f in fixtures}
    at = {(f.round, f.slot): scores[f.pk] for f in fixtures}
    if league.seeding == League.Seeding.LOTS:
        seeded = sorted(entries, key=lambda e: (e.lot is None, e.lot or 0, e.seed))
    else:
        seeded = entries
    slots = knockout.bracket([e.pk for e in seeded], _decider(at, scorer, withdrawn))
    total = len(slots)
    bracket = [_shown_round(round_slots, at, by_id) for round_slots in slots]
    for score in scores.values():
        f = score.fixture
        f.home = by_id[f.home_id] if f.home_id else None
        f.away = by_id[f.away_id] if f.away_id else None
    rows = _knockout_rows(entries, withdrawn, knockout.placings(slots), scores.values())
    # the entries still in first (they finish ahead of everyone already out), then by place
    rows.sort(
        key=lambda r: (r.position is not None or r.withdrawn, r.position or 0, by_id[r.entry].seed)
    )
    rounds = [
        LeagueRound(
            number,
            1,
            [at[(number, s.slot)] for s in round_slots if (number, s.slot) in at],
            None,
            knockout.round_name(number, total),
        )
        for number, round_slots in enumerate(slots, start=1)
    ]
    return LeagueTable(
        league,
        [(row, by_id[row.entry]) for row in rows],
        rounds,
        scorer.series,
        bracket,
    )


def _decider(
    at: dict[tuple[int, int | None], FixtureScore], scorer: _Scorer, withdrawn: set[int]
) -> Callable[[int, int, int, int], Any]:
    """How the bracket learns a slot's winner: its stored fixture's, scored as the entries
    reach it; a walkover where one side withdrew, nobody where both did."""

    def decide(number: int, slot: int, home: int, away: int) -> int | None | Any:
        score = at.get((number, slot))
        if score is None:  # a bracket with no stored fixture here: nothing to decide by
            return knockout.UNDECIDED
        score.fixture.home_id, score.fixture.away_id = home, away
        scorer.tally(score)
        side = score.outcome.winner
        if side is not None:
            return home if side == "home" else away
        gone = [e for e in (home, away) if e in withdrawn]
        if len(gone) == 2:
            score.status = "cancelled"
            return None
        if gone:
            score.status = "walkover"
            return away if gone[0] == home else home
        return knockout.UNDECIDED

    return decide


def _shown_round(
    round_slots: list[knockout.Slot[int]],
    at: dict[tuple[int, int | None], FixtureScore],
    by_id: dict[int, LeagueEntry],
) -> list[BracketSlot]:
    """A bracket round as shown: each slot with its entries, its fixture (waiting for the
    rounds before it, or with its winner) and whether it is decided."""
    shown = []
    for s in round_slots:
        score = at.get((s.round, s.slot))
        if score is not None and not s.ready:
            score.fixture.home_id, score.fixture.away_id = s.home, s.away
            score.status = "waiting"
        if score is not None and s.decided:
            score.winner = by_id[s.winner] if s.winner else None
        shown.append(
            BracketSlot(
                round=s.round,
                slot=s.slot,
                home=by_id.get(s.home) if s.home else None,
                away=by_id.get(s.away) if s.away else None,
                score=score,
                decided=s.decided,
                winner=by_id[s.winner] if s.winner else None,
                bye=s.bye,
            )
        )
    return shown


def _knockout_rows(
    entries: list[LeagueEntry],
    withdrawn: set[int],
    places: dict[int, tuple[int, bool]],
    scores: Iterable[FixtureScore],
) -> list[tiebreaks.Row[int]]:
    """Each entry's row: its place as far as the bracket has gone, and what its fixtures
    that count add up to (played, won, lost, games won, points made and conceded)."""
    rows: list[tiebreaks.Row[int]] = []
    for e in entries:
        row = tiebreaks.Row(e.pk, withdrawn=e.pk in withdrawn)
        row.position, row.shared = places.get(e.pk, (None, False))
        rows.append(row)
    for score in scores:
        f = score.fixture
        if f.home_id is None or f.away_id is None or not score.outcome.counts:
            continue
        for me, mine, theirs, made, let in (
            (f.home_id, score.home_wins, score.away_wins, score.home_points, score.away_points),
            (f.away_id, score.away_wins, score.home_wins, score.away_points, score.home_points),
        ):
            row = next(r for r in rows if r.entry == me)
            row.played += 1
            row.won += mine > theirs
            row.lost += mine < theirs
            row.points += mine
            row.scored += made
            row.conceded += let
    return rows


def league_sheet(table: LeagueTable) -> list[list[Any]]:
    """The table as rows for a CSV a secretary files: a shared place is marked "=" and a
    withdrawn entry says so. A knockout's sheet has the placings, then every fixture of
    the bracket round by round."""
    if table.bracket is not None:
        return _bracket_sheet(table)
    rows: list[list[Any]] = [[table.league.name]]
    rows.append(
        [
            _("Position"),
            _("Entry"),
            _("Played"),
            _("Won"),
            _("Drawn"),
            _("Lost"),
            _("Points"),
            _("Points scored"),
            _("Points conceded"),
            _("Difference"),
            _("Decided by"),
        ]
    )
    for row, entry in table.rows:
        position = "" if row.position is None else f"{row.position}{'=' if row.shared else ''}"
        rows.append(
            [
                position,
                entry.name + (f" ({_('withdrawn')})" if row.withdrawn else ""),
                row.played,
                row.won,
                row.drawn,
                row.lost,
                row.points,
                row.scored,
                row.conceded,
                row.difference,
                str(CRITERIA_NAMES.get(row.decided_by or "", "")),
            ]
        )
    return rows


def _bracket_sheet(table: LeagueTable) -> list[list[Any]]:
    rows: list[list[Any]] = [[table.league.name]]
    rows.append([_("Position"), _("Entry"), _("Played"), _("Won"), _("Lost")])
    for row, entry in table.rows:
        position = "" if row.position is None else f"{row.position}{'=' if row.shared else ''}"
        rows.append([position, entry.name, row.played, row.won, row.lost])
    rows.append([])
    rows.append(
        [
            _("Round"),
            _("Fixture"),
            _("Home"),
            _("Away"),
            _("Games"),
            _("Game points"),
            _("Winner"),
            _("How"),
        ]
    )
    total = len(table.bracket or [])
    for round_slots in table.bracket or []:
        for s in round_slots:
            name = str(ROUND_NAMES[knockout.round_name(s.round, total)]) % {"number": s.round}
            games = points = ""
            how = str(STATUS_NAMES["bye"]) if s.bye else ""
            if s.score is not None:
                games = f"{s.score.home_wins}-{s.score.away_wins}"
                points = f"{s.score.home_points}-{s.score.away_points}"
                how = str(STATUS_NAMES.get(s.score.status, s.score.status))
            rows.append(
                [
                    name,
                    s.slot + 1,
                    s.home.name if s.home else "",
                    s.away.name if s.away else "",
                    games,
                    points,
                    s.winner.name if s.winner else "",
                    how,
                ]
            )
    return rows


#: a knockout's rounds as the pages and the CSV name them
ROUND_NAMES = {
    "final": gettext_lazy("Final"),
    "semi_final": gettext_lazy("Semi-finals"),
    "quarter_final": gettext_lazy("Quarter-finals"),
    "round": gettext_lazy("Round %(number)s"),
}

#: a fixture's status in words
STATUS_NAMES = {
    "scheduled": gettext_lazy("to play"),
    "waiting": gettext_lazy("waiting for the previous round"),
    "playing": gettext_lazy("in play"),
    "bella": gettext_lazy("level: the deciding game (la bella) is needed"),
    "played": gettext_lazy("played"),
    "forfeit": gettext_lazy("forfeit (a tavolino)"),
    "walkover": gettext_lazy("walkover (withdrawal)"),
    "cancelled": gettext_lazy("cancelled"),
    "void": gettext_lazy("voided"),
    "bye": gettext_lazy("bye"),
}


#: the tie-break criteria as the pages and the CSV name them
CRITERIA_NAMES = {
    tiebreaks.POINTS: gettext_lazy("points"),
    tiebreaks.HEAD_TO_HEAD: gettext_lazy("head-to-head among the tied"),
    tiebreaks.WINS: gettext_lazy("fixtures won"),
    tiebreaks.POINT_DIFFERENCE: gettext_lazy("game-point difference"),
    tiebreaks.POINTS_SCORED: gettext_lazy("game points scored"),
    tiebreaks.LOTS: gettext_lazy("drawing of lots"),
}
