"""Writes of the standings: seasons and settings, the outbox, and the rebuilds.

Freshness works like an outbox. A write to the match record calls ``stale_mark`` in its
own transaction: one ``StaleMark`` row, and a rebuild scheduled once the transaction
commits (``transaction.on_commit``) by a background publisher, so the request never
waits on the broker. ``club_refresh`` is what the Celery task runs: it takes the club's
lock row (a second rebuild of the same club skips instead of queueing behind it), reads
the marks, rebuilds the seasons they touch and brings the ratings up to date, and deletes
the marks it handled in the same transaction. A mark that no task handled (the broker
was down, the worker died) is found by the beat sweeper. ``rebuild`` from scratch runs
the same functions, so the tables are the same either way.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorebook.clubs.models import Role
from scorebook.clubs.services import require_role
from scorebook.core.people import User
from scorebook.core.refusals import Refusal
from scorebook.ledger.models import Entry, Unit
from scorebook.matches.models import Deal, Match, Night

from . import ratings as rt
from .models import (
    ALL_GAMES,
    Freshness,
    LeaderboardRow,
    RatedMatch,
    Rating,
    RatingChange,
    Season,
    StaleMark,
    StandingsSettings,
)
from .selectors import (
    DealFacts,
    current_deal_results,
    deal_facts,
    finished_matches_in_order,
    match_results,
    season_matches,
)

log = logging.getLogger(__name__)

BIDDING = ("terziglio", "calabrasella")
PER_DEAL_CONTESTS = ("chiamata", *BIDDING)


class SeasonDates(Refusal):
    code = "season.dates"
    message = _("A season cannot end before it starts.")


class SeasonNameTaken(Refusal):
    code = "season.name_taken"
    status = 409
    message = _("The club already has a season called %(name)s.")


# -- seasons and settings ------------------------------------------------------------------


def _check_season(club_id: int, name: str, starts_on: date, ends_on: date | None, pk=None):
    if ends_on is not None and ends_on < starts_on:
        raise SeasonDates(path="ends_on")
    if Season.objects.filter(club_id=club_id, name=name).exclude(pk=pk).exists():
        raise SeasonNameTaken(path="name", name=name)


@transaction.atomic
def season_create(
    *, club_id: int, name: str, starts_on: date, ends_on: date | None, user: User
) -> Season:
    """A director opens a season; its leaderboard is built by the next rebuild."""
    require_role(user, club_id, Role.DIRECTOR)
    _check_season(club_id, name, starts_on, ends_on)
    season = Season.objects.create(club_id=club_id, name=name, starts_on=starts_on, ends_on=ends_on)
    stale_mark(club_id=club_id, season_id=season.pk)
    return season


@transaction.atomic
def season_update(*, season: Season, changes: dict[str, Any], user: User) -> Season:
    """Rename a season or move its days; its leaderboard is rebuilt."""
    require_role(user, season.club_id, Role.DIRECTOR)
    for key in ("name", "starts_on", "ends_on"):
        if key in changes:
            setattr(season, key, changes[key])
    _check_season(season.club_id, season.name, season.starts_on, season.ends_on, season.pk)
    season.save()
    stale_mark(club_id=season.club_id, season_id=season.pk)
    return season


def settings_of(club_id: int) -> StandingsSettings:
    """The club's standings settings, the defaults if never set (not saved)."""
    found = StandingsSettings.objects.filter(club_id=club_id).first()
    return found or StandingsSettings(club_id=club_id)


@transaction.atomic
def settings_update(*, club_id: int, changes: dict[str, Any], user: User) -> StandingsSettings:
    """A director sets the minimum matches to be ranked and the provisional count. Both
    apply when reading, so nothing needs rebuilding."""
    require_role(user, club_id, Role.DIRECTOR)
    found, _ = StandingsSettings.objects.get_or_create(club_id=club_id)
    for key in ("min_matches", "provisional_matches"):
        if key in changes:
            setattr(found, key, changes[key])
    found.save()
    return found


# -- the outbox ----------------------------------------------------------------------------


def stale_mark(*, club_id: int, night_id: int | None = None, season_id: int | None = None):
    """Record, in the caller's transaction, that the club's standings must be rebuilt
    (the seasons of ``night_id``'s date, or ``season_id``, or all when neither), and
    schedule the rebuild once the transaction commits."""
    StaleMark.objects.create(club_id=club_id, night_id=night_id, season_id=season_id)
    transaction.on_commit(lambda: schedule(club_id))


def schedule(club_id: int) -> None:
    """Ask a worker to refresh the club. Eager mode (no broker: a single small box, the
    tests) runs it here; with a broker a background thread publishes it, so a broker
    that is down or slow never holds up the request that committed the change."""
    from .tasks import refresh_standings

    if settings.CELERY_TASK_ALWAYS_EAGER:
        refresh_standings.apply((club_id,), throw=True)
    else:
        PUBLISHER.submit(club_id)


class Publisher:
    """Publishes refresh tasks from one daemon thread per process; club ids submitted
    within ``window`` seconds of each other are coalesced into one message each, so a
    club whose tables enter a deal every few milliseconds costs one publish per window,
    not one per deal (the freshness target, 2 s, leaves room for a short window)."""

    def __init__(self, broker_url: str | None = None, window: float = 0.25) -> None:
        self.broker_url = broker_url  # None: the app's broker (a test points it elsewhere)
        self.window = window
        self._pending: set[int] = set()
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._pid = 0
        self.published = 0  # publish attempts, done or failed

    def submit(self, club_id: int) -> None:
        with self._wake:
            self._pending.add(club_id)
            if self._thread is None or not self._thread.is_alive() or self._pid != os.getpid():
                self._pid = os.getpid()  # a forked worker starts its own thread
                self._thread = threading.Thread(
                    target=self._run, name="standings-publisher", daemon=True
                )
                self._thread.start()
            self._wake.notify()

    def _run(self) -> None:
        from kombu.exceptions import KombuError, OperationalError

        from .tasks import refresh_standings

        while True:
            with self._wake:
                while not self._pending:
                    self._wake.wait()
            time.sleep(self.window)  # let the burst gather: one message per club
            with self._wake:
                clubs, self._pending = self._pending, set()
            for club_id in sorted(clubs):
                # send_task only ever publishes: unlike apply_async it never runs the task
                # in this thread, even if the app is switched to eager meanwhile (a test
                # that ends while this thread waits on a hung broker), so this thread
                # never touches the database.
                send = refresh_standings.app.send_task
                try:
                    if self.broker_url is None:
                        send(refresh_standings.name, (club_id,), retry=False)
                    else:
                        with refresh_standings.app.connection_for_write(self.broker_url) as conn:
                            send(refresh_standings.name, (club_id,), retry=False, connection=conn)
                except (OperationalError, KombuError, OSError) as error:
                    # The mark stays; the beat sweeper schedules it when the broker is back.
                    log.warning("standings refresh of club %s not published: %s", club_id, error)
                self.published += 1


PUBLISHER = Publisher()


class Busy(Exception):
    """Another rebuild of the club holds its lock; it will see the new marks."""


def club_refresh(club_id: int) -> int:
    """Bring the club's standings up to date with its stale marks; returns how many marks
    it handled (0: nothing was stale). Raises Busy when another rebuild holds the club."""
    Freshness.objects.get_or_create(club_id=club_id)
    with transaction.atomic():
        lock = Freshness.objects.filter(club_id=club_id)
        if connection.features.has_select_for_update_skip_locked:
            lock = lock.select_for_update(skip_locked=True)
        fresh = lock.first()
        if fresh is None:
            raise Busy(club_id)
        marks = list(
            StaleMark.objects.filter(club_id=club_id).values("id", "night_id", "season_id")
        )
        if not marks:
            return 0
        _rebuild_club(club_id, _seasons_of(club_id, marks))
        StaleMark.objects.filter(club_id=club_id, id__lte=max(m["id"] for m in marks)).delete()
        fresh.built_at = timezone.now()
        fresh.rebuilds += 1
        fresh.save(update_fields=["built_at", "rebuilds"])
        return len(marks)


def _seasons_of(club_id: int, marks: Sequence[Mapping[str, Any]]) -> list[Season]:
    seasons = list(Season.objects.filter(club_id=club_id))
    if any(m["night_id"] is None and m["season_id"] is None for m in marks):
        return seasons
    days = set(
        Night.objects.filter(pk__in={m["night_id"] for m in marks if m["night_id"]}).values_list(
            "date", flat=True
        )
    )
    wanted = {m["season_id"] for m in marks if m["season_id"]}
    return [s for s in seasons if s.pk in wanted or any(s.covers(day) for day in days)]


def _rebuild_club(club_id: int, seasons: Iterable[Season]) -> None:
    for season in seasons:
        season_rebuild(season)
    ratings_rebuild(club_id)


def stale_clubs(older_than_seconds: float = 0) -> list[int]:
    """Clubs with a stale mark older than the given age (for the sweeper)."""
    cutoff = timezone.now() - timedelta(seconds=older_than_seconds)
    marks = StaleMark.objects.filter(created_at__lte=cutoff)
    return sorted(set(marks.values_list("club_id", flat=True)))


def rebuild(*, club_id: int, season_ids: Iterable[int] | None = None) -> None:
    """Rebuild from the deal log (``manage.py rebuild_standings``): the given seasons (all
    when None) and the club's ratings from its first match. Clears the marks it covers."""
    with transaction.atomic():
        Freshness.objects.get_or_create(club_id=club_id)
        fresh = Freshness.objects.select_for_update().get(club_id=club_id)
        seasons = Season.objects.filter(club_id=club_id)
        if season_ids is not None:
            seasons = seasons.filter(pk__in=list(season_ids))
        RatedMatch.objects.filter(club_id=club_id).delete()
        RatingChange.objects.filter(club_id=club_id).delete()
        Rating.objects.filter(club_id=club_id).delete()
        _rebuild_club(club_id, seasons)
        if season_ids is None:
            StaleMark.objects.filter(club_id=club_id).delete()
        fresh.built_at = timezone.now()
        fresh.rebuilds += 1
        fresh.save(update_fields=["built_at", "rebuilds"])


# -- leaderboards --------------------------------------------------------------------------


def _blank() -> dict[str, Any]:
    return {
        "matches": 0,
        "won": 0,
        "lost": 0,
        "points_for": 0,
        "points_against": 0,
        "deals": 0,
        "units": Decimal(0),
        "money": defaultdict(Decimal),
        "events": defaultdict(lambda: {"made": 0, "suffered": 0}),
        "bids": defaultdict(lambda: {"made": 0, "won": 0}),
    }


def season_rebuild(season: Season) -> None:
    """Recompute the season's leaderboards (per game and over all games) from its
    matches, their current deals and the ledger."""
    lines: dict[tuple[str, int], dict[str, Any]] = defaultdict(_blank)

    def add(game: str, player_id: int, **values: int) -> None:
        for key in (game, ALL_GAMES):
            row = lines[(key, player_id)]
            for name, value in values.items():
                row[name] += value

    matches = {
        m.pk: m
        for m in season_matches(season).only(
            "id", "game", "rules", "players", "seats", "status", "state", "result", "night_id"
        )
    }
    deal_counts = dict(
        Deal.objects.filter(match_id__in=list(matches), is_current=True)
        .values("match_id")
        .annotate(n=Count("id"))
        .order_by()
        .values_list("match_id", "n")
    )
    for match in matches.values():
        if not deal_counts.get(match.pk):
            continue  # a player appears once a deal of theirs is in
        for pid in match.seats.values():
            add(match.game, pid, deals=deal_counts[match.pk])
        for r in match_results(match):
            add(
                match.game,
                r.player_id,
                matches=1,
                won=int(r.won),
                lost=int(r.lost),
                points_for=r.points_for,
                points_against=r.points_against,
            )
    special = Deal.objects.filter(match_id__in=list(matches), is_current=True).filter(
        Q(match__game__in=BIDDING) | ~Q(result__event=None)
    )
    for match_id, result in special.order_by("match_id", "number").values_list(
        "match_id", "result"
    ):
        match = matches[match_id]
        _count_deal(match, deal_facts(match, result), lines)
    _count_ledger(season, matches, lines)
    LeaderboardRow.objects.filter(season=season).delete()
    LeaderboardRow.objects.bulk_create(
        [_row(season, game, pid, line) for (game, pid), line in lines.items()], batch_size=1000
    )


def _count_deal(match: Match, facts: DealFacts, lines) -> None:
    for key in (match.game, ALL_GAMES):
        if facts.event:
            for seat in facts.made:
                lines[(key, match.seats[seat])]["events"][facts.event]["made"] += 1
            for seat in facts.suffered:
                lines[(key, match.seats[seat])]["events"][facts.event]["suffered"] += 1
        if facts.bid and facts.bidder:
            bid = lines[(key, match.seats[facts.bidder])]["bids"][facts.bid]
            bid["made"] += 1
            bid["won"] += int(facts.bid_won)


def _count_ledger(season: Season, matches: dict[int, Match], lines) -> None:
    """Net stakes per player from the ledger: received less paid, per game, unit and
    currency (pots are not players and are left out)."""
    entries = Entry.objects.filter(match_id__in=list(matches))
    for side, sign in (("payee", 1), ("payer", -1)):
        totals = (
            entries.filter(**{f"{side}__player__isnull": False})
            .values(f"{side}__player_id", "match__game", "unit", "currency")
            .annotate(total=Sum("amount"))
            .order_by()
        )
        for t in totals:
            amount = sign * Decimal(t["total"]).quantize(Decimal("0.01"))
            for key in (t["match__game"], ALL_GAMES):
                line = lines[(key, t[f"{side}__player_id"])]
                if t["unit"] == Unit.MONEY:
                    line["money"][t["currency"]] += amount
                else:
                    line["units"] += amount


def _row(season: Season, game: str, player_id: int, line: dict[str, Any]) -> LeaderboardRow:
    decided = line["matches"]
    return LeaderboardRow(
        club_id=season.club_id,
        season=season,
        game=game,
        player_id=player_id,
        matches=line["matches"],
        won=line["won"],
        lost=line["lost"],
        win_rate=round(100.0 * line["won"] / decided, 2) if decided else 0.0,
        points_for=line["points_for"],
        points_against=line["points_against"],
        deals=line["deals"],
        units=line["units"],
        money={cur: str(v) for cur, v in sorted(line["money"].items()) if v},
        events={k: dict(v) for k, v in sorted(line["events"].items())},
        bids={k: dict(v) for k, v in sorted(line["bids"].items())},
    )


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
    units = (match.state or {}).get("units", {}) if match.game == "spinado" else None
    scores = {
        r.player_id: float(units.get(r.seat, 0) if units is not None else r.units) for r in results
    }
    players, ranked = rt.ranks_by(scores)
    return [rt.Contest(players, ranked)]


def ratings_rebuild(club_id: int) -> None:
    """Bring the club's ratings in line with its finished matches, game by game, in the
    order they finished. Matches already rated with the same fingerprint are kept; from
    the first that differs (new, corrected, reordered, no longer finished) the ratings
    are replayed, and only from there."""
    games = set(
        Match.objects.filter(night__club_id=club_id, status=Match.Status.FINISHED).values_list(
            "game", flat=True
        )
    ) | set(RatedMatch.objects.filter(club_id=club_id).values_list("game", flat=True))
    for game in sorted(games):
        _rerate_game(club_id, game)


def _rerate_game(club_id: int, game: str) -> None:
    ordered = list(finished_matches_in_order(club_id, game))
    deals: dict[int, list[dict[str, Any]]] = defaultdict(list)
    if game in PER_DEAL_CONTESTS:
        for match_id, result in current_deal_results([m.pk for m in ordered]):
            deals[match_id].append(result)
    wanted = [(m, contests(m, deals[m.pk])) for m in ordered]
    wanted = [(m, c) for m, c in wanted if c]
    prints = [rt.fingerprint(c) for _, c in wanted]
    rated = list(RatedMatch.objects.filter(club_id=club_id, game=game).order_by("seq"))
    start = 0
    while (
        start < len(rated)
        and start < len(wanted)
        and rated[start].match_id == wanted[start][0].pk
        and rated[start].fingerprint == prints[start]
    ):
        start += 1
    if start == len(rated) == len(wanted):
        return
    RatedMatch.objects.filter(club_id=club_id, game=game, seq__gte=start).delete()
    RatingChange.objects.filter(club_id=club_id, game=game, seq__gte=start).delete()
    state: dict[int, tuple[float, float]] = {}
    for pid, mu, sigma in (
        RatingChange.objects.filter(club_id=club_id, game=game)
        .order_by("seq")
        .values_list("player_id", "mu_after", "sigma_after")
    ):
        state[pid] = (mu, sigma)
    carry = {k: tuple(v) for k, v in (rated[start - 1].carry if start else {}).items()}
    new_rated, changes = [], []
    for seq in range(start, len(wanted)):
        match, found = wanted[seq]
        players = {pid for c in found for team in c.teams for pid in team}
        before = {pid: state.get(pid, (rt.START_MU, rt.START_SIGMA)) for pid in players}
        for contest in found:
            rt.rate(contest, state, carry)
        new_rated.append(
            RatedMatch(
                club_id=club_id, game=game, match=match, seq=seq, fingerprint=prints[seq],
                carry={k: list(v) for k, v in sorted(carry.items())},
            )
        )  # fmt: skip
        for pid in sorted(players):
            mu, sigma = state[pid]
            changes.append(
                RatingChange(
                    club_id=club_id, game=game, player_id=pid, match=match, seq=seq,
                    mu_before=before[pid][0], sigma_before=before[pid][1],
                    mu_after=mu, sigma_after=sigma, display_after=rt.display(mu, sigma),
                )
            )  # fmt: skip
    RatedMatch.objects.bulk_create(new_rated, batch_size=1000)
    RatingChange.objects.bulk_create(changes, batch_size=1000)
    counts = dict(
        RatingChange.objects.filter(club_id=club_id, game=game)
        .values("player_id")
        .annotate(n=Count("id"))
        .order_by()
        .values_list("player_id", "n")
    )
    Rating.objects.filter(club_id=club_id, game=game).delete()
    Rating.objects.bulk_create(
        Rating(
            club_id=club_id, game=game, player_id=pid, mu=mu, sigma=sigma,
            display=rt.display(mu, sigma), matches=counts.get(pid, 0),
        )
        for pid, (mu, sigma) in sorted(state.items())
    )  # fmt: skip
