"""How long a league table takes to compute on read (`make bench-leagues`).

20 pairs in a double round robin: 380 fixtures, each played as two finished Tressette
matches (760 matches linked). Times ``leagues.selectors.league_table`` (entries, players,
fixtures and linked matches read, every fixture scored, the tie-break chain) against
reading 20 rows of a precomputed table with one indexed query, in the same run. Prints the
median and p95 of each, the queries the table takes, and the ratio.

Uses a throw-away database: PostgreSQL (BENCH_DATABASE_URL, default the local server's
``sb_leagues_bench``) or SQLite with BENCH_DATABASE_URL=sqlite:////tmp/leagues.sqlite3.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from deploy.bench.common import fresh_database  # noqa: E402 - once ROOT is on sys.path

URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sb_leagues_bench")
LEGS, MATCHES_PER_FIXTURE = 2, 2
# The size (BENCH_ENTRIES pairs, BENCH_RUNS timed reads): .ci/run's smoke run is tiny.
ENTRIES = int(os.environ.get("BENCH_ENTRIES", "20"))
RUNS = int(os.environ.get("BENCH_RUNS", "50"))


def timed(fn, runs: int = RUNS) -> tuple[float, float]:
    fn()  # warm
    laps = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        laps.append((time.perf_counter() - start) * 1000)
    laps.sort()
    return statistics.median(laps), laps[max(0, int(len(laps) * 0.95) - 1)]


def main() -> None:
    fresh_database(URL)
    os.environ["DATABASE_URL"] = URL
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorebook.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    call_command("migrate", verbosity=0)
    from django.contrib.auth import get_user_model

    from scorebook.clubs.models import Club, Membership, Player
    from scorebook.matches import services as matches
    from scorebook.matches.models import Match
    from scorebook.standings.leagues import selectors as tables
    from scorebook.standings.leagues import services as leagues
    from scorebook.standings.models import Fixture, FixtureMatch, LeagueEntry

    director = get_user_model().objects.create_user("bench-director")
    club = Club.objects.create(name="Bench", slug="bench")
    Membership.objects.create(club=club, user=director, role="director")
    people = [Player.objects.create(club=club, name=f"P{i:02}") for i in range(ENTRIES * 2)]
    league = leagues.league_create(club=club, name="Bench league", legs=LEGS, user=director)
    for i in range(ENTRIES):
        pair = [people[2 * i].pk, people[2 * i + 1].pk]
        leagues.entry_add(league=league, name=f"Pair {i:02}", player_ids=pair, user=director)
    league = leagues.league_start(league=league, user=director)
    night = matches.night_open(club_id=club.pk, date="2026-11-20", venue="", user=director)
    seats = {"N": people[0].pk, "E": people[2].pk, "S": people[1].pk, "W": people[3].pk}
    model = matches.match_create(
        night=night, game="tressette4", rules={"profile": "classic_21"}, seats=seats, user=director
    )
    deal = {
        "sides": {"A": {"thirds": 20, "tricks": 5}, "B": {"thirds": 12, "tricks": 5}},
        "last_trick": "A",
    }
    number = 1
    while Match.objects.get(pk=model.pk).status != Match.Status.FINISHED:
        matches.deal_create(match=model, data=deal, expected_number=number, user=director)
        number += 1
    model.refresh_from_db()
    players_of = {
        e.pk: [p.pk for p in e.players.order_by("pk")]
        for e in LeagueEntry.objects.filter(league=league)
    }
    fields = {
        f.attname: getattr(model, f.attname)
        for f in Match._meta.concrete_fields
        if f.attname not in ("id", "seats")
    }
    fixtures = list(Fixture.objects.filter(league=league))
    made = Match.objects.bulk_create(
        Match(
            **fields,
            seats=dict(
                zip(
                    "NSEW",
                    players_of[f.home_id if k == 0 else f.away_id]
                    + players_of[f.away_id if k == 0 else f.home_id],
                    strict=True,
                )
            ),
        )
        for f in fixtures
        for k in range(MATCHES_PER_FIXTURE)
    )
    FixtureMatch.objects.bulk_create(
        FixtureMatch(fixture=f, match=m)
        for f, m in zip(
            [f for f in fixtures for _ in range(MATCHES_PER_FIXTURE)], made, strict=True
        )
    )
    with CaptureQueriesContext(connection) as queries:
        table = tables.league_table(league)
    assert sum(r.played for r, _ in table.rows) == 2 * len(fixtures)

    table_ms = timed(lambda: tables.league_table(league))
    rows_ms = timed(lambda: list(Player.objects.filter(club=club).order_by("name")[:ENTRIES]))
    print(f"database: {connection.vendor}")
    print(
        f"league: {ENTRIES} entries, double round robin, {len(fixtures)} fixtures, "
        f"{len(made)} linked matches"
    )
    print(
        f"league table on read: median {table_ms[0]:.1f} ms, p95 {table_ms[1]:.1f} ms, "
        f"{len(queries)} queries"
    )
    print(
        f"{ENTRIES} precomputed rows (one indexed query): median {rows_ms[0]:.2f} ms, "
        f"p95 {rows_ms[1]:.2f} ms"
    )
    print(f"ratio (table / precomputed read): {table_ms[0] / rows_ms[0]:.1f}x")


if __name__ == "__main__":
    main()
