"""The federation's rating across its clubs (issue 34 item 5): how long a full replay takes.

Loads BENCH_DEALS deals (default 100,000) over BENCH_CLUBS clubs (the standings bench's
loader: Tressette-in-4 and Terziglio matches the engine played, cloned, by COPY) into
BENCH_DATABASE_URL, puts every club in one federation and links every player to an
account of their own (the worst case: every match is a linked person's), then times
``ratings.federation_rerate`` twice, and its read and its replay apart. SKIP_LOAD=1 reuses
the database. Not a test: nothing passes or fails.

    BENCH_DEALS=100000 BENCH_CLUBS=20 \
      BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/sb_bench \
      .venv/bin/python deploy/bench/federation_rating_bench.py
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sb_bench")
from deploy.bench import standings_bench as sb  # noqa: E402


def federation_of_everyone():
    """One federation of every club, every player linked to an account of their own."""
    from django.contrib.auth import get_user_model

    from scorebook.clubs.models import Club, Player
    from scorebook.federations.models import Affiliation, Federation, PersonLink

    fed, _ = Federation.objects.get_or_create(slug="bench", defaults={"name": "Bench"})
    clubs = list(Club.objects.order_by("pk"))
    if not Affiliation.objects.filter(federation=fed).exists():
        Affiliation.objects.bulk_create(Affiliation(federation=fed, club=c) for c in clubs)
        players = list(Player.objects.filter(club__in=clubs).order_by("pk"))
        users = get_user_model().objects.bulk_create(
            get_user_model()(username=f"p{p.pk}") for p in players
        )
        PersonLink.objects.bulk_create(
            PersonLink(club_id=p.club_id, player=p, user=u, origin="club", status="accepted")
            for p, u in zip(players, users, strict=True)
        )
    return fed, len(clubs)


def main() -> None:
    started = time.perf_counter()
    if os.environ.get("SKIP_LOAD") != "1":
        sb.reset_database()
    sb.setup_django()
    if os.environ.get("SKIP_LOAD") != "1":
        clubs, deals = sb.load(random.Random(7))
        print(f"loaded {clubs} clubs, {deals} deals in {time.perf_counter() - started:.1f} s")
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scorebook.federations import ratings
    from scorebook.federations.models import FederationRating, PersonLink, RatingFreshness

    fed, clubs = federation_of_everyone()
    print(f"{clubs} clubs in the federation, {PersonLink.objects.count()} links")
    for run in (1, 2):
        RatingFreshness.objects.filter(federation=fed).update(built_at=None)
        begun = time.perf_counter()
        with CaptureQueriesContext(connection) as queries:
            matches = ratings.federation_rerate(fed.pk)
        took = time.perf_counter() - begun
        rows = FederationRating.objects.filter(federation=fed).count()
        print(f"run {run}: {matches} matches, {rows} rows, {took:.2f} s, {len(queries)} queries")
    begun = time.perf_counter()
    rated = ratings.rated_clubs(fed)
    found = ratings.read(rated, ratings.persons_of(rated))
    read = time.perf_counter() - begun
    begun = time.perf_counter()
    ratings.replay(found)
    print(f"read {read:.2f} s, replay {time.perf_counter() - begun:.2f} s")


if __name__ == "__main__":
    main()
