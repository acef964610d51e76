"""The standings brought up to date: the incremental refresh of what the stale marks name
(see ``outbox``) and the rebuild from the deal log.

``club_refresh`` is what the entry queue's task runs: it takes the club's lock row (a
second refresh of the same club skips instead of queueing behind it), reads the marks of
matches, nights and seasons, brings their contributions and the ratings up to date, and
deletes the marks it handled in the same transaction. ``bulk_refresh``, the bulk queue's,
rebuilds the whole club when a mark names nothing. ``rebuild`` from scratch runs the same
functions, so the tables are the same either way.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, F, Q
from django.utils import timezone

from scorebook.matches.models import Match
from scorebook.rules import get_game

from . import columns
from . import contributions as cb
from . import rated as rated_registry
from . import ratings as rt
from .bulk import bulk_insert
from .contributions import BIDDING, PER_DEAL_CONTESTS
from .models import (
    ALL_GAMES,
    Freshness,
    LeaderboardRow,
    MatchStanding,
    RatedMatch,
    Rating,
    RatingChange,
    Season,
    StaleMark,
)
from .selectors import SeatResult, deal_facts, finished_matches_in_order, match_results


class Busy(Exception):
    """Another rebuild of the club holds its lock; it will see the new marks."""


#: Other stale clubs a refresh takes along (one pass, the same few queries for all).
REFRESH_ALONG = 50


#: A mark naming nothing, the whole club's rebuild: the bulk queue's (``bulk_refresh``).
#: Every other mark names a match, a night or a season, the entry queue's (``club_refresh``):
#: a season's rows are summed from the stored contributions, a quick pass.
BULK = Q(match_id__isnull=True, night_id__isnull=True, season_id__isnull=True)


def club_refresh(club_id: int) -> int:
    """Bring the club's standings up to date with its stale marks of matches, nights and
    seasons, and those of up to ``REFRESH_ALONG`` other clubs with such marks waiting, in
    one pass (one worker serving many clubs does one set of queries per round, not one per
    club); returns how many marks it handled (0: nothing was stale). Raises Busy when
    another refresh holds the club (other clubs that are held are left to their own
    refresh).

    A mark that names a match (a deal entered or corrected) refreshes that match only:
    its old contribution is taken off the leaderboard rows and its new one added, and
    the ratings are replayed from the earliest changed match of its game. A night's mark
    (its close) does that for the night's matches; a season's mark rebuilds that season's
    rows from the stored contributions. A mark naming nothing is ``bulk_refresh``'s, on
    the other queue."""
    entry_marks = StaleMark.objects.exclude(BULK)
    if not entry_marks.filter(club_id=club_id).exists():
        # Handled already, most often by a refresh that took this club along: one query,
        # so the messages a round of refreshes leaves behind cost the worker little.
        return 0
    waiting = (
        entry_marks.exclude(club_id=club_id)
        .values_list("club_id", flat=True)
        .distinct()
        .order_by("club_id")[:REFRESH_ALONG]
    )
    ids = sorted({club_id, *waiting})
    have = set(Freshness.objects.filter(club_id__in=ids).values_list("club_id", flat=True))
    for missing in sorted(set(ids) - have):  # a club's first refresh
        Freshness.objects.get_or_create(club_id=missing)
    with transaction.atomic():
        lock = Freshness.objects.filter(club_id__in=ids).order_by("club_id")
        if connection.features.has_select_for_update_skip_locked:
            lock = lock.select_for_update(skip_locked=True)
        held = list(lock.values_list("club_id", flat=True))
        if club_id not in held:
            raise Busy(club_id)
        marks = list(
            entry_marks.filter(club_id__in=held).values(
                "id", "club_id", "night_id", "season_id", "match_id"
            )
        )
        if not marks:
            return 0
        changed = {m["match_id"] for m in marks if m["match_id"]}
        nights = {m["night_id"] for m in marks if m["night_id"] and not m["match_id"]}
        if nights:
            changed |= set(Match.objects.filter(night_id__in=nights).values_list("pk", flat=True))
        changed |= _table_mates(changed)
        if changed:
            matches_refresh(sorted({m["club_id"] for m in marks}), changed)
        for season in Season.objects.filter(
            pk__in={m["season_id"] for m in marks if m["season_id"]}
        ):
            season_rebuild(season)
        _handled(marks)
        return sum(1 for m in marks if m["club_id"] == club_id)


def bulk_refresh(club_id: int) -> int:
    """The bulk queue's job: rebuild the club from the deal log when a mark names nothing
    (an import undone, a migration); returns how many such marks it handled. Waits for a
    refresh of the club that holds its lock (a rebuild is no hurry)."""
    marks = StaleMark.objects.filter(BULK, club_id=club_id).count()
    if marks:
        rebuild(club_id=club_id)  # clears every mark it saw, these included
    return marks


def _handled(marks: Sequence[Mapping[str, Any]]) -> None:
    StaleMark.objects.filter(pk__in=[m["id"] for m in marks]).delete()
    Freshness.objects.filter(club_id__in={m["club_id"] for m in marks}).update(
        built_at=timezone.now(), rebuilds=F("rebuilds") + 1
    )


def _table_mates(match_ids: set[int]) -> set[int]:
    """The other matches at the same table of the same night: the ledger's pot (marcio e
    batuffa's piatto) links them, and a change to one rebooks the pot entries of the
    others, so their contributions change too. One query."""
    if not match_ids:
        return set()
    same = Q()
    for night_id, table_id in set(
        Match.objects.filter(pk__in=match_ids).values_list("night_id", "table_id")
    ):
        same |= (
            Q(night_id=night_id, table_id=table_id)
            if table_id
            else Q(night_id=night_id, table__isnull=True)
        )
    return set(Match.objects.filter(same).values_list("pk", flat=True))


def stale_clubs(older_than_seconds: float = 0, *, bulk: bool = False) -> list[int]:
    """Clubs with a stale mark older than the given age (for the sweeper): marks of
    matches, nights and seasons, or (``bulk``) marks naming nothing."""
    cutoff = timezone.now() - timedelta(seconds=older_than_seconds)
    marks = StaleMark.objects.filter(created_at__lte=cutoff)
    marks = marks.filter(BULK) if bulk else marks.exclude(BULK)
    return sorted(set(marks.values_list("club_id", flat=True)))


#: Marks deleted per statement after a rebuild (a backlog left by a long broker outage
#: may hold many).
MARKS_AT_ONCE = 5000


def rebuild(*, club_id: int, season_ids: Iterable[int] | None = None) -> None:
    """Rebuild one club from the deal log (see ``rebuild_clubs``)."""
    rebuild_clubs([club_id], season_ids=season_ids)


def rebuild_clubs(
    club_ids: Sequence[int], *, season_ids: Iterable[int] | None = None, from_facts: bool = True
) -> None:
    """Rebuild from the deal log (``manage.py rebuild_standings``), in one transaction:
    every match's contribution, the given seasons' leaderboards (all when None) and the
    clubs' ratings from their first match. Set-based: a few queries for all the clubs
    given, the matches streamed in chunks, bulk writes.

    Safe beside live deal entry: it clears only the marks it saw before reading the deal
    log. A mark is written in its deal's transaction, so every mark seen then belongs to
    a deal the reads below see; a deal committed later (the reads may or may not have
    seen it) keeps its mark, and the refresh that follows counts it (on top of the
    rebuilt tables, as after any deal)."""
    ids = sorted(club_ids)
    with transaction.atomic():
        have = set(Freshness.objects.filter(club_id__in=ids).values_list("club_id", flat=True))
        Freshness.objects.bulk_create(
            [Freshness(club_id=c) for c in ids if c not in have], ignore_conflicts=True
        )
        list(Freshness.objects.select_for_update().filter(club_id__in=ids).order_by("club_id"))
        seen: list[int] = []
        if season_ids is None:
            seen = list(StaleMark.objects.filter(club_id__in=ids).values_list("pk", flat=True))
        _rebuild_clubs(ids, None if season_ids is None else set(season_ids), from_facts)
        for start in range(0, len(seen), MARKS_AT_ONCE):
            StaleMark.objects.filter(pk__in=seen[start : start + MARKS_AT_ONCE]).delete()
        Freshness.objects.filter(club_id__in=ids).update(
            built_at=timezone.now(), rebuilds=F("rebuilds") + 1
        )


def _read(matches: Q, from_facts: bool) -> Iterator[list[Any]]:
    """The matches in chunks, from the facts stored at entry or (``from_facts`` False,
    the way before them, kept to compare with) from their JSON."""
    if from_facts:
        yield from cb.read_facts(matches, finished_at=True)
    else:
        yield from cb.read_matches(matches, finished_at=True)


def _rebuild_clubs(ids: Sequence[int], season_ids: set[int] | None, from_facts: bool) -> None:
    seasons: dict[int, list[Season]] = defaultdict(list)
    for season in Season.objects.filter(club_id__in=ids):
        if season_ids is None or season.pk in season_ids:
            seasons[season.club_id].append(season)
    MatchStanding.objects.filter(club_id__in=ids).delete()
    rows = LeaderboardRow.objects.filter(club_id__in=ids)
    if season_ids is not None:
        rows = rows.filter(season_id__in=season_ids)
    rows.delete()
    for model in (RatedMatch, RatingChange, Rating):
        model.objects.filter(club_id__in=ids).delete()
    lines: dict[tuple[int, str, int], list[Any]] = {}
    rated: dict[tuple[int, str], list[tuple[Any, int, list[rt.Contest]]]] = defaultdict(list)
    standings = []
    for batch in _read(Q(night__club_id__in=ids), from_facts):
        found = cb.facts_contributions(batch) if from_facts else cb.contributions(batch)
        for match in batch:
            players = found.get(match.pk)
            if players:
                standings.append(_standing(match, players))
                if from_facts:  # the rest is summed by the database (_summed below)
                    _count_into(lines, seasons[match.club_id], match.game, match.day, players)
                else:
                    _sum_into(lines, seasons[match.club_id], match.game, match.day, players, 1)
            if match.status == Match.Status.FINISHED:
                if from_facts:
                    played = facts_contests(match)
                else:
                    played = contests(match, match.special)
                if played:
                    rated[(match.club_id, match.game)].append((match.finished_at, match.pk, played))
        bulk_insert(MatchStanding, STANDING_COLUMNS, standings)
        standings = []
    if from_facts:
        _summed(lines, ids, season_ids)
    bulk_insert(LeaderboardRow, ROW_COLUMNS, _rows(lines))
    changes: list[tuple[Any, ...]] = []
    done: list[tuple[Any, ...]] = []
    current: list[tuple[Any, ...]] = []
    for (club_id, game), wanted in sorted(rated.items(), key=lambda kv: kv[0]):
        wanted.sort(key=lambda x: (x[0], x[1]))
        state: dict[int, tuple[float, float]] = {}
        counts: dict[int, int] = defaultdict(int)
        _replay(club_id, game, wanted, 0, state, {}, done, changes, counts)
        current.extend(_ratings(club_id, game, state, counts))
        if len(changes) > 20000:
            bulk_insert(RatedMatch, RATED_COLUMNS, done)
            bulk_insert(RatingChange, CHANGE_COLUMNS, changes)
            done, changes = [], []
    bulk_insert(RatedMatch, RATED_COLUMNS, done)
    bulk_insert(RatingChange, CHANGE_COLUMNS, changes)
    bulk_insert(Rating, RATING_COLUMNS, current)


def _standing(match: cb.Played, players: dict[int, cb.Line]) -> tuple[Any, ...]:
    dumped = {str(pid): cb.dump(line) for pid, line in sorted(players.items())}
    return (match.pk, match.club_id, match.game, match.day, dumped)


def _sum_into(lines, seasons: Iterable[Season], game: str, day: date, players, sign: int):
    """Add (sign 1) or take off (-1) a match's contribution to the rows of the seasons
    holding ``day``: [line, sources] per (season, game, player), game and all games."""
    for season in seasons:
        if not season.covers(day):
            continue
        for pid, line in players.items():
            for key in (game, ALL_GAMES):
                total = lines.get((season.pk, key, int(pid)))
                if total is None:
                    total = lines[(season.pk, key, int(pid))] = [cb.blank(), 0]
                cb.add(total[0], line, sign)
                total[1] += sign


def _count_into(lines, seasons: Iterable[Season], game: str, day: date, players) -> None:
    """What the database does not sum for a rebuild from facts (``_summed`` does the
    rest): per row, the matches behind it, the deals of the matches its player sat at,
    and the stakes the ledger booked (already summed per match by the database)."""
    for season in seasons:
        if not season.covers(day):
            continue
        for pid, line in players.items():
            deals, units, money = line["deals"], line["units"], line["money"]
            for key in (game, ALL_GAMES):
                total = lines.get((season.pk, key, pid))
                if total is None:
                    total = lines[(season.pk, key, pid)] = [cb.blank(), 0]
                total[1] += 1
                mine = total[0]
                mine["deals"] += deals
                if units:
                    mine["units"] += units
                for currency, amount in money.items():
                    mine["money"][currency] = mine["money"].get(currency, Decimal(0)) + amount


#: A rebuild from facts: the matches' results summed per season, game and player ...
RESULT_SUMS = """
SELECT se.id, m.game, f.player_id, COUNT(*),
       SUM(CASE WHEN f.won THEN 1 ELSE 0 END), SUM(CASE WHEN f.lost THEN 1 ELSE 0 END),
       SUM(f.points_for), SUM(f.points_against)
FROM {fact} f
JOIN {match} m ON m.id = f.match_id
JOIN {night} n ON n.id = m.night_id
JOIN {season} se ON se.club_id = n.club_id AND se.starts_on <= n.date
     AND (se.ends_on IS NULL OR n.date <= se.ends_on)
WHERE f.deal_id IS NULL AND m.status = %s AND n.club_id IN ({clubs}) {seasons}
GROUP BY se.id, m.game, f.player_id
"""
#: ... and the current deals' events (made, suffered) and contracts (bid, won).
TALLY_SUMS = """
SELECT se.id, m.game, f.player_id, f.{key}, SUM({first}), SUM({second})
FROM {fact} f
JOIN {deal} d ON d.id = f.deal_id
JOIN {match} m ON m.id = f.match_id
JOIN {night} n ON n.id = m.night_id
JOIN {season} se ON se.club_id = n.club_id AND se.starts_on <= n.date
     AND (se.ends_on IS NULL OR n.date <= se.ends_on)
WHERE d.is_current AND f.{key} <> '' AND n.club_id IN ({clubs}) {seasons}
GROUP BY se.id, m.game, f.player_id, f.{key}
"""
TALLIES = (
    ("events", "event", "CASE WHEN f.made THEN 1 ELSE 0 END", "CASE WHEN f.made THEN 0 ELSE 1 END"),
    ("bids", "bid", "1", "CASE WHEN f.bid_won THEN 1 ELSE 0 END"),
)


def _summed(lines, ids: Sequence[int], season_ids: set[int] | None) -> None:
    """Add to ``lines`` (see ``_count_into``) what the database sums over the stored
    facts, per season, game and player: one GROUP BY of the results and one per tally,
    for every club of the rebuild at once (no row per deal reaches Python). The same
    sums as ``_sum_into`` of each match's contribution (tests/standings/test_facts.py)."""
    from scorebook.matches.models import Deal, Night, SeatFact

    tables = {
        "fact": SeatFact._meta.db_table,
        "deal": Deal._meta.db_table,
        "match": Match._meta.db_table,
        "night": Night._meta.db_table,
        "season": Season._meta.db_table,
        "clubs": ", ".join(["%s"] * len(ids)),
        "seasons": "",
    }
    params: list[Any] = list(ids)
    if season_ids is not None:
        if not season_ids:
            return
        tables["seasons"] = f"AND se.id IN ({', '.join(['%s'] * len(season_ids))})"
        params += sorted(season_ids)

    def row(season_id: int, game: str, pid: int) -> Iterator[cb.Line]:
        for key in (game, ALL_GAMES):
            total = lines.get((season_id, key, pid))
            if total is None:  # no match counted for the player: left out by _rows
                total = lines[(season_id, key, pid)] = [cb.blank(), 0]
            yield total[0]

    with connection.cursor() as cursor:
        cursor.execute(RESULT_SUMS.format(**tables), [Match.Status.FINISHED, *params])
        for season_id, game, pid, matches, won, lost, points_for, points_against in cursor:
            for line in row(season_id, game, pid):
                line["matches"] += matches
                line["won"] += won
                line["lost"] += lost
                line["points_for"] += points_for
                line["points_against"] += points_against
        for column, key, first, second in TALLIES:
            a, b = columns.BY_NAME[column].sides
            sql = TALLY_SUMS.format(key=key, first=first, second=second, **tables)
            cursor.execute(sql, params)
            for season_id, game, pid, name, made, other in cursor:
                for line in row(season_id, game, pid):
                    entry = line[column].setdefault(name, {a: 0, b: 0})
                    entry[a] += made
                    entry[b] += other


def _rows(lines) -> Iterator[tuple[Any, ...]]:
    club_of = dict(Season.objects.filter(pk__in={k[0] for k in lines}).values_list("pk", "club_id"))
    for (season_id, game, pid), (line, sources) in sorted(lines.items()):
        if sources > 0:
            values = cb.row_values(line)
            yield (
                club_of[season_id],
                season_id,
                game,
                pid,
                sources,
                *(values[f] for f in ROW_FIELDS),
            )


STANDING_COLUMNS = ("match_id", "club_id", "game", "day", "players")
ROW_FIELDS = columns.NAMES
ROW_COLUMNS = ("club_id", "season_id", "game", "player_id", "sources", *ROW_FIELDS)
RATED_COLUMNS = ("club_id", "game", "match_id", "seq", "finished_at", "fingerprint", "carry")
CHANGE_COLUMNS = (
    "club_id",
    "game",
    "player_id",
    "match_id",
    "seq",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
    "display_after",
)
RATING_COLUMNS = ("club_id", "game", "player_id", "mu", "sigma", "display", "matches")


# -- the incremental refresh ---------------------------------------------------------------


def matches_refresh(club_ids: Sequence[int], match_ids: Iterable[int]) -> None:
    """Refresh the given matches (of the given clubs): each one's stored contribution is
    taken off the leaderboard rows of the seasons it counted in and its new one added to
    those of the seasons it counts in now (a row no match contributes to any more goes);
    then the ratings of each club and game are replayed from its earliest changed match."""
    ids = sorted(set(match_ids))
    seasons: dict[int, list[Season]] = defaultdict(list)
    for season in Season.objects.filter(club_id__in=club_ids):
        seasons[season.club_id].append(season)
    played: dict[int, cb.Played] = {}
    new: dict[int, dict[int, cb.Line]] = {}
    for batch in cb.read_matches(Q(pk__in=ids, night__club_id__in=club_ids), finished_at=True):
        new.update(cb.contributions(batch))
        played.update((m.pk, m) for m in batch)
    old = {s.match_id: s for s in MatchStanding.objects.filter(match_id__in=ids)}
    deltas: dict[tuple[int, str, int], list[Any]] = {}
    for pk in ids:
        if pk in old:
            was = old[pk]
            players = {int(pid): cb.load(data) for pid, data in was.players.items()}
            _sum_into(deltas, seasons[was.club_id], was.game, was.day, players, -1)
        if pk in new:
            match = played[pk]
            _sum_into(deltas, seasons[match.club_id], match.game, match.day, new[pk], 1)
    club_of = {s.pk: s.club_id for found in seasons.values() for s in found}
    _apply(club_of, deltas)
    MatchStanding.objects.filter(match_id__in=ids).delete()
    bulk_insert(
        MatchStanding, STANDING_COLUMNS, [_standing(played[pk], new[pk]) for pk in ids if pk in new]
    )
    since: dict[tuple[int, str], tuple[Any, int] | None] = {}

    def earliest(club: int, game: str, key: tuple[Any, int] | None) -> None:
        if (club, game) in since and since[(club, game)] is None:
            return
        if key is None or key[0] is None:
            since[(club, game)] = None  # no order to start from (rated before it was kept)
        elif (club, game) not in since or key < since[(club, game)]:  # type: ignore[operator]
            since[(club, game)] = key

    for match in played.values():
        if match.status == Match.Status.FINISHED:
            earliest(match.club_id, match.game, (match.finished_at, match.pk))
    for club, game, finished_at, pk in RatedMatch.objects.filter(match_id__in=ids).values_list(
        "club_id", "game", "finished_at", "match_id"
    ):
        earliest(club, game, (finished_at, pk))
    for (club, game), key in sorted(since.items(), key=lambda kv: kv[0]):
        rerate(club, game, key)


def _apply(club_of: dict[int, int], deltas) -> None:
    """Add the deltas to the stored rows; create the rows that are new, delete the rows
    no match contributes to any more."""
    if not deltas:
        return
    stored = {
        (r.season_id, r.game, r.player_id): r
        for r in LeaderboardRow.objects.filter(
            season_id__in={k[0] for k in deltas},
            game__in={k[1] for k in deltas},
            player_id__in={k[2] for k in deltas},
        )
    }
    rows, gone = [], []
    for key, (delta, sources) in deltas.items():
        row = stored.get(key)
        total = cb.row_line(row) if row is not None else cb.blank()
        cb.add(total, delta)
        sources += row.sources if row is not None else 0
        if row is not None:
            gone.append(row.pk)
        if sources > 0:
            season_id, game, pid = key
            values = cb.row_values(total)
            rows.append(
                (
                    club_of[season_id],
                    season_id,
                    game,
                    pid,
                    sources,
                    *(values[f] for f in ROW_FIELDS),
                )
            )
    # Replaced rather than updated: a DELETE and a COPY cost a fraction of bulk_update's
    # CASE WHEN per column and row (most of a refresh's time, measured).
    if gone:
        LeaderboardRow.objects.filter(pk__in=gone).delete()
    bulk_insert(LeaderboardRow, ROW_COLUMNS, rows)


# -- leaderboards --------------------------------------------------------------------------


def season_rebuild(season: Season) -> None:
    """Recompute a season's leaderboards (per game and over all games) from the stored
    contributions of the club's matches whose night falls in it (after a season is
    opened or its days moved)."""
    LeaderboardRow.objects.filter(season=season).delete()
    standings = MatchStanding.objects.filter(club_id=season.club_id, day__gte=season.starts_on)
    if season.ends_on is not None:
        standings = standings.filter(day__lte=season.ends_on)
    lines: dict[tuple[int, str, int], list[Any]] = {}
    for game, day, players in standings.values_list("game", "day", "players").iterator(
        chunk_size=2000
    ):
        loaded = {int(pid): cb.load(data) for pid, data in players.items()}
        _sum_into(lines, [season], game, day, loaded, 1)
    bulk_insert(LeaderboardRow, ROW_COLUMNS, _rows(lines))


# -- ratings -------------------------------------------------------------------------------


def contests(match: Match, deal_results: list[dict[str, Any]]) -> list[rt.Contest]:
    """What a finished match contributes to the ratings (see ``ratings``)."""
    seats = match.seats
    if match.game in PER_DEAL_CONTESTS:
        found = []
        for result in deal_results:
            facts = deal_facts(match, result)
            if not facts.teams or result.get("annulled"):
                continue
            teams = tuple(tuple(seats[s] for s in team) for team in facts.teams)
            if facts.winner is None:
                ranks = (0, 0)
            else:
                ranks = (0, 1) if facts.winner == 0 else (1, 0)
            contract = facts.bid if match.game in BIDDING else None
            found.append(rt.Contest(teams, ranks, contract))
        return found
    results = match_results(match)
    if not results:
        return []
    units = (match.state or {}).get("units", {}) if get_game(match.game).ranked_by_chips else None
    scores = {
        r.player_id: float(units.get(r.seat, 0) if units is not None else r.units) for r in results
    }
    return _match_contests(results, scores)


def facts_contests(match: cb.Counted) -> list[rt.Contest]:
    """``contests`` from the stored facts: the same contests."""
    if match.game in PER_DEAL_CONTESTS:
        found = []
        for deal in match.dealt:
            first = deal[0]
            if first.team is None and all(f.team is None for f in deal):
                continue  # an event or a bid of an annulled deal: nothing rated
            teams = tuple(
                tuple(
                    f.player_id
                    for f in sorted(
                        (f for f in deal if f.team == index), key=lambda f: f.team_place or 0
                    )
                )
                for index in (0, 1)
            )
            winner = first.winner
            ranks = (0, 0) if winner is None else ((0, 1) if winner == 0 else (1, 0))
            found.append(rt.Contest(teams, ranks, first.contract or None))
        return found
    if not match.results:
        return []
    return _match_contests(match.results, match.scores)


def _match_contests(results: list[SeatResult], scores: dict[int, float]) -> list[rt.Contest]:
    """A finished match's contest: its sides by the result (pairs), or its players
    ranked by ``scores`` (free-for-all)."""
    sides = {r.side for r in results}
    if len(sides) < len(results):  # fixed sides: pairs
        order = sorted(sides)
        won = {r.side for r in results if r.won}
        lost = {r.side for r in results if r.lost}
        pairs = tuple(tuple(r.player_id for r in results if r.side == side) for side in order)
        places = tuple(0 if side in won else (1 if side in lost else 0) for side in order)
        if won or lost:
            return [rt.Contest(pairs, places)]
        return []
    players, ranked = rt.ranks_by(scores)
    return [rt.Contest(players, ranked)]


def ratings_rebuild(club_id: int) -> None:
    """Replay the club's ratings of every game from its first finished match."""
    games = set(
        Match.objects.filter(night__club_id=club_id, status=Match.Status.FINISHED).values_list(
            "game", flat=True
        )
    ) | set(RatedMatch.objects.filter(club_id=club_id).values_list("game", flat=True))
    for game in sorted(games):
        rerate(club_id, game, None)


def rerate(club_id: int, game: str, since: tuple[Any, int] | None) -> None:
    """Bring the club's ratings in one game in line with its finished matches, in the
    order they finished, looking only at the matches from ``since`` (the order key,
    (finished at, match id), of the earliest changed match; None: from the first).
    Matches already rated with the same fingerprint are kept; from the first that
    differs (new, corrected, reordered, no longer finished) the ratings are replayed,
    and only from there."""
    rated_all = RatedMatch.objects.filter(club_id=club_id, game=game)
    if since is not None and rated_all.filter(finished_at__isnull=True).exists():
        since = None  # rated before the order was kept: replay the game
    ordered = finished_matches_in_order(club_id, game)
    first = 0
    if since is not None:
        at, pk = since
        ordered = ordered.filter(Q(finished_at__gt=at) | Q(finished_at=at, pk__gte=pk))
        first = rated_all.filter(Q(finished_at__lt=at) | Q(finished_at=at, match_id__lt=pk)).count()
    order = list(ordered.values_list("pk", "finished_at"))  # type: ignore[misc]
    found: dict[int, cb.Played] = {}
    for batch in cb.read_matches(Q(pk__in=[row[0] for row in order])):
        found.update((m.pk, m) for m in batch)
    wanted = []
    for pk, finished_at in order:
        played = contests(found[pk], found[pk].special)  # type: ignore[arg-type]
        if played:
            wanted.append((finished_at, pk, played))
    rated = list(rated_all.filter(seq__gte=first).order_by("seq"))
    same = 0
    while (
        same < len(rated)
        and same < len(wanted)
        and rated[same].match_id == wanted[same][1]
        and rated[same].fingerprint == rt.fingerprint(wanted[same][2])
    ):
        same += 1
    if same == len(rated) == len(wanted):
        return
    start = first + same
    RatedMatch.objects.filter(club_id=club_id, game=game, seq__gte=start).delete()
    RatingChange.objects.filter(club_id=club_id, game=game, seq__gte=start).delete()
    state: dict[int, tuple[float, float]] = {}
    for pid, mu, sigma in (
        RatingChange.objects.filter(club_id=club_id, game=game)
        .order_by("seq")
        .values_list("player_id", "mu_after", "sigma_after")
    ):
        state[pid] = (mu, sigma)
    previous = rated_all.filter(seq=start - 1).values_list("carry", flat=True).first()
    carry = {k: (v[0], v[1]) for k, v in (previous or {}).items()}
    done: list[tuple[Any, ...]] = []
    changes: list[tuple[Any, ...]] = []
    _replay(club_id, game, wanted[same:], start, state, carry, done, changes, defaultdict(int))
    gone = [r.match_id for r in rated[same:]]
    rated_registry.club_rated(club_id, sorted({*gone, *(w[1] for w in wanted[same:])}))
    bulk_insert(RatedMatch, RATED_COLUMNS, done)
    bulk_insert(RatingChange, CHANGE_COLUMNS, changes)
    counts = dict(
        RatingChange.objects.filter(club_id=club_id, game=game)
        .values("player_id")
        .annotate(n=Count("id"))
        .order_by()
        .values_list("player_id", "n")
    )
    Rating.objects.filter(club_id=club_id, game=game).delete()
    bulk_insert(Rating, RATING_COLUMNS, _ratings(club_id, game, state, counts))


def _replay(club_id, game, wanted, start, state, carry, done, changes, counts) -> None:
    """Rate ``wanted`` ((finished at, match id, contests) in order) from seq ``start``
    on, appending the rated matches and the rating changes."""
    for offset, (finished_at, match_id, found) in enumerate(wanted):
        seq = start + offset
        players = sorted({pid for c in found for team in c.teams for pid in team})
        before = {pid: state.get(pid, (rt.START_MU, rt.START_SIGMA)) for pid in players}
        for contest in found:
            rt.rate(contest, state, carry)
        done.append(
            (
                club_id,
                game,
                match_id,
                seq,
                finished_at,
                rt.fingerprint(found),
                {k: list(v) for k, v in sorted(carry.items())},
            )
        )
        for pid in players:
            mu, sigma = state[pid]
            counts[pid] += 1
            changes.append(
                (
                    club_id,
                    game,
                    pid,
                    match_id,
                    seq,
                    before[pid][0],
                    before[pid][1],
                    mu,
                    sigma,
                    rt.display(mu, sigma),
                )
            )


def _ratings(club_id, game, state, counts) -> list[tuple[Any, ...]]:
    return [
        (club_id, game, pid, mu, sigma, rt.display(mu, sigma), counts.get(pid, 0))
        for pid, (mu, sigma) in sorted(state.items())
    ]
