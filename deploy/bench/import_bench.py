"""A club's ten years imported (`make bench-import`; issue 28 asks for at most 1.5x the
same deals entered through the service functions, and the import's peak memory).

One process, one run, a throw-away database (PostgreSQL when BENCH_DATABASE_URL is set,
else SQLite). The made-up history (deploy/bench/history_file.py: BENCH_NIGHTS nights,
default 500, about 40 deals each) is written as the import template's CSV, then:

1. **services**: the same nights entered into a club of their own through
   ``matches.services`` as a club night is (``night_open``, ``table_create``,
   ``match_create``, ``deal_create`` for every deal, ``night_close``), one transaction per
   night, the standings' refresh held and the club rebuilt once at the end (what the
   import does around the same calls);
2. **import**: ``import_preview`` (read the file, check every row with the engine, match
   the names) and ``import_run`` (the nights, the guests, the bookkeeping, the rebuild)
   into an empty club;
3. **memory**: the import again, into a third club, under tracemalloc (its peak: the
   file, the preview and the import's own objects; tracemalloc slows Python, so this run
   is not timed). BENCH_MEMORY=0 skips it.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from deploy.bench.common import fresh_database  # noqa: E402 - once ROOT is on sys.path

NIGHTS = int(os.environ.get("BENCH_NIGHTS", "500"))
TARGET = 1.5


def main() -> int:
    url = os.environ.get("BENCH_DATABASE_URL") or f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
    fresh_database(url)
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorebook.settings")
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("SECRET_KEY", "bench-only")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    os.environ.pop("CELERY_BROKER_URL", None)  # the task in-process: the import's own time
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.IMPORT_MAX_BYTES = 50 * 1024 * 1024
    call_command("migrate", verbosity=0)
    from deploy.bench.history_file import club_history

    text, deals = club_history(NIGHTS)
    data = text.encode()
    print(f"history: {NIGHTS} nights, {deals} deals, {len(data) / 1e6:.1f} MB of CSV")
    services_s = enter_through_services(data)
    print(f"services: {services_s:.1f} s ({1000 * services_s / deals:.2f} ms a deal)")
    import_s, preview_s, club_id = import_file(data, "import")
    print(
        f"import:   {import_s:.1f} s ({1000 * import_s / deals:.2f} ms a deal), "
        f"of which the preview {preview_s:.1f} s"
    )
    ratio = import_s / services_s
    print(f"ratio import / services: {ratio:.2f}x (target <= {TARGET}x)")
    check(club_id, NIGHTS, deals)
    if os.environ.get("BENCH_MEMORY", "1") != "0":
        tracemalloc.start()
        import_file(data, "memory")
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"import peak memory (tracemalloc): {peak / 1e6:.0f} MB")
    return 0 if ratio <= TARGET else 1


def _club(slug: str):
    from django.contrib.auth import get_user_model

    from scorebook.clubs.models import Club, Membership
    from scorebook.standings.models import Season

    director = get_user_model().objects.create_user(f"director-{slug}")
    club = Club.objects.create(name=f"Club {slug}", slug=slug)
    Membership.objects.create(club=club, user=director, role="director")
    Season.objects.create(club=club, name="All years", starts_on="2000-01-01")
    return club, director


def enter_through_services(data: bytes) -> float:
    """The file's nights through the record's services, timed from the parsed rows (the
    parse is the import's cost, not the baseline's)."""
    from decimal import Decimal

    from django.db import transaction

    from scorebook.clubs.models import Player
    from scorebook.history.plan import plan_sheet
    from scorebook.history.template import read_file
    from scorebook.matches import services
    from scorebook.standings import outbox, refresh

    club, director = _club("services")
    plan = plan_sheet(read_file("f", data), club_players=[], currencies=["EUR"])
    names = sorted(plan.players)
    players = {
        n.lower(): p.pk
        for n, p in zip(
            names,
            Player.objects.bulk_create(Player(club=club, name=n, guest=True) for n in names),
            strict=True,
        )
    }
    started = time.perf_counter()
    with outbox.held(club.pk):
        for night in plan.nights:
            with transaction.atomic():
                stored = services.night_open(
                    club_id=club.pk, date=night["date"], venue="", user=director
                )
                tables = {}
                for match in night["matches"]:
                    if match["table"] not in tables:
                        tables[match["table"]] = services.table_create(
                            night=stored, number=match["table"], name="", user=director
                        )
                    made = services.match_create(
                        night=stored,
                        game=match["game"],
                        rules=match["rules"],
                        seats={s: players[n.lower()] for s, n in match["seats"].items()},
                        user=director,
                        table=tables[match["table"]],
                        first_dealer=match["first_dealer"],
                        stake_amount=Decimal(match["stake"]),
                        stake_currency=match["currency"],
                    )
                    for deal in match["deals"]:
                        services.deal_create(
                            match=made, data=deal, expected_number=None, user=director
                        )
                services.night_close(night=stored, user=director)
    refresh.rebuild(club_id=club.pk)
    return time.perf_counter() - started


def import_file(data: bytes, slug: str) -> tuple[float, float, int]:
    from scorebook.history import importer, services

    club, director = _club(slug)
    started = time.perf_counter()
    batch = services.import_preview(club=club, user=director, filename="ten-years.csv", data=data)
    preview = time.perf_counter() - started
    batch.status = batch.Status.QUEUED
    batch.accepted_by = director
    batch.save(update_fields=["status", "accepted_by"])
    done = importer.import_run(batch.pk)
    assert done.status == done.Status.DONE, done.error
    return time.perf_counter() - started, preview, club.pk


def check(club_id: int, nights: int, deals: int) -> None:
    """The import stored what the services did: the same nights, deals, leaderboard."""
    from scorebook.matches.models import Deal, Night
    from scorebook.standings.models import LeaderboardRow, Rating

    stored = Deal.objects.filter(match__night__club_id=club_id).count()
    assert Night.objects.filter(club_id=club_id).count() == nights
    assert stored == deals, (stored, deals)
    print(
        f"check: {nights} nights, {stored} deals, "
        f"{LeaderboardRow.objects.filter(club_id=club_id).count()} leaderboard rows, "
        f"{Rating.objects.filter(club_id=club_id).count()} ratings"
    )


if __name__ == "__main__":
    sys.exit(main())
