"""One erasure with the site's stored answers around it (`make bench-erase`).

An erasure rewrites the free text of the player's club and of the rows that are no
club's, among them the stored answers of idempotent POSTs, kept for ever (one for every
deal a phone entered through the API): a site's largest table. The database is asked
first for the rows that may hold one of the names (every spelling of a name holds each
of its words), so an erasure reads the few rows that name the person, not every stored
answer.

One process, a throw-away database (PostgreSQL when BENCH_DATABASE_URL is set, else
SQLite): the demo club; the median of BENCH_RUNS erasures (default 3) of a player whose
name is in a night's venue, first with no stored answer (the baseline), then with
BENCH_STORED (default 100,000) stored answers of other people. Target: the ratio at most
5x. Measured on the shared 2-core machine (SQLite, three bench runs): 110/294, 88/263 and
256/313 ms (ratios 2.68x, 2.99x, 1.22x); reading every stored answer in Python instead,
as the erasure did before, 46 ms against 65,964 ms: 1,443x.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from deploy.bench.common import fresh_database  # noqa: E402 - once ROOT is on sys.path

STORED = int(os.environ.get("BENCH_STORED", "100000"))
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
TARGET = 5.0


def main() -> int:
    url = os.environ.get("BENCH_DATABASE_URL") or f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
    fresh_database(url)
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorebook.settings")
    os.environ.setdefault("DEBUG", "1")  # load_demo's condition
    os.environ.setdefault("SECRET_KEY", "bench-only")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("load_demo", verbosity=0)
    baseline = _erasures("baseline")
    _stored_answers(STORED)
    loaded = _erasures("stored")
    ratio = loaded / baseline
    print(f"erasure, no stored answer: median {1000 * baseline:.0f} ms of {RUNS}")
    print(f"erasure, {STORED} stored answers: median {1000 * loaded:.0f} ms of {RUNS}")
    print(f"ratio erasure with / without stored answers: {ratio:.2f}x (target <= {TARGET}x)")
    return 0 if ratio <= TARGET or os.environ.get("BENCH_SMOKE") else 1


def _erasures(label: str) -> float:
    from django.contrib.auth import get_user_model

    from scorebook.archive import services
    from scorebook.clubs.models import Club, Player
    from scorebook.matches.models import Night

    club = Club.objects.get(slug="san-rocco")
    director = get_user_model().objects.get(username="demo")
    night = Night.objects.filter(club=club).first()
    times = []
    for run in range(RUNS):
        name = f"Bench {label.title()} Quixote{run}"
        player = Player.objects.create(club=club, name=name)
        Night.objects.filter(pk=night.pk).update(venue=f"da {name}")
        start = time.perf_counter()
        services.player_erase(player=player, user=director, confirm=name)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _stored_answers(count: int) -> None:
    """``count`` stored answers of another account: a deal's answer each (about 1 KB)."""
    from django.contrib.auth import get_user_model

    from scorebook.core.models import IdempotencyKey

    phone = get_user_model().objects.create_user("bench-phone")
    answer = {
        "id": 1,
        "match": 1,
        "number": 1,
        "input": {"sides": {"A": {"thirds": 20}, "B": {"thirds": 12}}, "last_trick": "A"},
        "result": {"points": {"A": 7, "B": 4}, "lines": ["Nino", "Ettore"] * 20},
    }
    rows = (
        IdempotencyKey(
            user=phone,
            key=f"bench-{i}",
            method="POST",
            path="/api/v1/matches/1/deals",
            body_hash="0" * 64,
            status=201,
            response=answer,
            headers={"ETag": '"1-1"'},
        )
        for i in range(count)
    )
    from itertools import islice

    while batch := list(islice(rows, 5000)):
        IdempotencyKey.objects.bulk_create(batch)


if __name__ == "__main__":
    sys.exit(main())
