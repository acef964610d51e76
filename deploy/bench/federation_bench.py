"""`make bench-federation` (issue 35 item 5): a federation's night on PostgreSQL.

1. Load FED_CLUBS clubs (default 2,000) and FED_DEALS deals (default 10,000,000, the
   issue's size) by COPY (the standings bench's loader: Tressette-in-4 and Terziglio
   matches the engine played, cloned), then the demo's federation (``load_demo``: the
   Comitato with its championship, its federal tournament and its ranking), and affiliate
   every loaded club to it.
2. The full rebuild (`manage.py rebuild_standings`, its peak RSS) against one plain SQL
   pass over the same deals. Targets: <= 3x, <= 512 MB.
3. The federation's public pages (its home page with every member club, the ranking,
   the championship's table) against a plain 50-row read (the players endpoint), side by
   side with wrk; from the replica when FED_REPLICA_URL names one (a streaming replica's
   server URL: `.ci/replica` starts one). Target: each >= 0.8x.
4. Freshness: 16 clients entering deals over HTTP (one Celery worker and beat) while
   wrk reads the ranking and the championship's table, against the same 16 clients with
   nothing else running, in the same run. Target: p95 <= 5 s.

Every figure is printed beside its baseline, measured in the same run. Not a test:
nothing here passes or fails. Size knobs: FED_CLUBS, FED_DEALS, BENCH_DURATION (wrk),
BENCH_FRESH_DEALS (deals per client); BENCH_PARTS=rebuild,pages,fresh skips the load and
reuses the database it left (BENCH_DATABASE_URL).
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

CLUBS = int(os.environ.get("FED_CLUBS", "2000"))
DEALS = int(os.environ.get("FED_DEALS", "10000000"))
DB_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/scorebook_bench_federation"
)
REPLICA = os.environ.get("FED_REPLICA_URL", "").rstrip("/")
PARTS = os.environ.get("BENCH_PARTS", "load,rebuild,pages,fresh").split(",")
# The standings bench's loader, passes and servers, at this bench's size.
os.environ.update(BENCH_DEALS=str(DEALS), BENCH_CLUBS=str(CLUBS), BENCH_DATABASE_URL=DB_URL)
if REPLICA:
    os.environ["DATABASE_REPLICA_URL"] = f"{REPLICA}/{DB_URL.rsplit('/', 1)[1]}"
from deploy.bench import standings_bench as sb  # noqa: E402


def affiliate() -> tuple[str, int]:
    """The demo's federation with every loaded club as a member; its slug and its
    championship's id."""
    from django.contrib.auth import get_user_model

    from scorebook.clubs.models import Club
    from scorebook.federations.models import Affiliation, Championship, Federation
    from scorebook.web.management import demo_federation

    # The demo makes its demo/demo superuser only with DEBUG on; the servers run without.
    demo = sb.env(DEBUG="1")
    subprocess.run([sb.PY, "manage.py", "load_demo"], env=demo, cwd=ROOT, check=True)
    federation = Federation.objects.get(slug=demo_federation.SLUG)
    director = get_user_model().objects.get(username="bench-director")
    Affiliation.objects.bulk_create(
        Affiliation(federation=federation, club=club, joined_by=director)
        for club in Club.objects.filter(slug__startswith="club-")
    )
    championship = Championship.objects.filter(federation=federation).order_by("pk").first()
    return federation.slug, championship.pk


def wait_for_replica() -> None:
    """Until the replica has replayed what the primary wrote (the load), at most 10 min."""
    if not REPLICA:
        return
    import psycopg

    with psycopg.connect(DB_URL, autocommit=True) as primary:
        target = primary.execute("SELECT pg_current_wal_lsn()").fetchone()[0]
    with psycopg.connect(os.environ["DATABASE_REPLICA_URL"], autocommit=True) as replica:
        for _ in range(1200):
            done = replica.execute(
                "SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", [target]
            ).fetchone()[0]
            if done:
                return
            time.sleep(0.5)
    raise SystemExit("the replica did not catch up with the load in 10 minutes")


def public_pages(slug: str, championship: int) -> dict[str, str]:
    base = f"http://127.0.0.1:{sb.PORT}"
    return {
        "federation home (member clubs)": f"{base}/public/f/{slug}/",
        "federation ranking": f"{base}/public/f/{slug}/ranking/",
        "championship table": f"{base}/public/f/{slug}/championships/{championship}/",
    }


def pages_pass(slug: str, championship: int) -> None:
    from scorebook.clubs.models import Club

    club = Club.objects.order_by("pk").first()
    key = sb.token()
    plain = f"http://127.0.0.1:{sb.PORT}/api/v1/players?club={club.pk}"
    pages = public_pages(slug, championship)
    server = sb.gunicorn({})
    try:
        for url in (plain, *pages.values()):  # each worker answering once
            for _ in range(4):
                sb.answered(url, key)
        figures = {}
        for name, url in (("plain", plain), *pages.items()):
            sb.wrk(url, key)  # warm-up
            figures[name] = sb.wrk(url, key)
        plain_rps = figures.pop("plain")
        where = "the replica" if REPLICA else "the primary (no FED_REPLICA_URL)"
        print(f"  plain DRF list of 50 players (primary): {plain_rps:.0f} req/s")
        for name, rps in figures.items():
            print(
                f"  {name} from {where}: {rps:.0f} req/s; "
                f"ratio public page / plain read: {rps / plain_rps:.2f} (target >= 0.8)"
            )
    finally:
        server.terminate()
        server.wait()


def freshness(slug: str, championship: int) -> None:
    """The 16 clients alone, then with the ranking and the championship's table read
    by wrk (in turns of 3 s, against the freshness pass's own gunicorn) from before the
    first deal until the last client is done."""
    pages = public_pages(slug, championship)
    reads: dict[str, list[float]] = {"ranking": [], "championship table": []}
    failed: list[str] = []

    def read_pages(stop: threading.Event) -> None:
        key = sb.token()
        while not stop.is_set():
            for name, url in (
                ("ranking", pages["federation ranking"]),
                ("championship table", pages["championship table"]),
            ):
                try:
                    reads[name].append(wrk_for(url, key, "3s"))
                except SystemExit as refused:  # a turn with no answer or a non-2xx one
                    failed.append(f"{name}: {str(refused).splitlines()[0]}")
        connections.close_all()

    from django.db import connections

    for label, during in (("alone (baseline)", None), ("with the pages read", read_pages)):
        lags = sorted(sb.freshness_pass(during))
        p50 = statistics.median(lags)
        p95 = lags[int(0.95 * (len(lags) - 1))]
        print(
            f"  freshness {label}: 201 -> leaderboard p50 {p50:.2f} s, p95 {p95:.2f} s, "
            f"max {lags[-1]:.2f} s over {len(lags)} deals (target p95 <= 5 s)"
        )
    print(
        "  meanwhile (median of the 3 s turns): "
        + ", ".join(f"{k} {statistics.median(v):.0f} req/s" for k, v in reads.items() if v)
    )
    for turn in failed:
        print(f"  a turn refused its figures: {turn}")


def wrk_for(url: str, key: str, duration: str) -> float:
    """``sb.wrk`` for a given duration."""
    was, sb.DURATION = sb.DURATION, duration
    try:
        return sb.wrk(url, key)
    finally:
        sb.DURATION = was


def main() -> None:
    rng = random.Random(35)
    print(f"== bench-federation: {DEALS:,} deals at {CLUBS:,} clubs ({DB_URL})")
    if REPLICA:
        print(f"  public pages from the replica {REPLICA}")
    if "load" in PARTS:
        sb.reset_database()
    sb.setup_django()
    if "load" in PARTS:
        start = time.perf_counter()
        clubs, total = sb.load(rng)
        took = time.perf_counter() - start
        print(f"  loaded {total:,} deals at {clubs:,} clubs by COPY in {took:.1f} s")
        start = time.perf_counter()
        slug, championship = affiliate()
        took = time.perf_counter() - start
        print(f"  the demo's federation, {clubs:,} clubs affiliated, in {took:.1f} s")
    else:  # the database an earlier run left, brought up to this tree's migrations
        migrate = [sb.PY, "manage.py", "migrate", "--noinput", "-v0"]
        subprocess.run(migrate, env=sb.env(), cwd=ROOT, check=True)
        from scorebook.federations.models import Championship
        from scorebook.web.management import demo_federation

        slug = demo_federation.SLUG
        championship = Championship.objects.filter(federation__slug=slug).order_by("pk")[0].pk
    if "pages" in PARTS or "fresh" in PARTS:  # the pages' static files, as deployed
        collect = [sb.PY, "manage.py", "collectstatic", "--noinput", "-v0"]
        subprocess.run(collect, env=sb.env(), cwd=ROOT, check=True)
    wait_for_replica()
    if "rebuild" in PARTS:
        print("== full rebuild against one SQL pass")
        sql = sb.sql_pass()
        rebuilt, rss = sb.rebuild_pass()
        print(
            f"  ratio rebuild / SQL pass: {rebuilt / sql:.1f}x (target <= 3x); "
            f"peak RSS {rss:.0f} MB (target <= 512 MB)"
        )
    if "pages" in PARTS:
        print("== the federation's public pages against a plain 50-row read")
        pages_pass(slug, championship)
    if "fresh" in PARTS:
        print(f"== freshness: one worker, {sb.CLIENTS} clients, {sb.FRESH_DEALS} deals each")
        freshness(slug, championship)


if __name__ == "__main__":
    main()
