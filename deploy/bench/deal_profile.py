"""Where one deal entry's CPU goes, in one process (`make bench-deal-profile`).

Django's test client drives the whole middleware stack, as gunicorn would, against
PostgreSQL: the bench's bare INSERT view and deal entry through the API (a scorer's
token, an Idempotency-Key, the number the deal expects; totals of a Tressette deal, five
per match), interleaved request by request so both see the same database and machine
load. Prints each one's median CPU time of this process per request, the mean CPU of
the PostgreSQL backend serving it (read from /proc: the server must be on this machine),
their ratios (the in-process counterpart of `make bench-http`'s ratio, without gunicorn
and wrk), and the statements deal entry runs (``BENCH_SQL=1`` lists them).
``BENCH_PROFILE=1`` adds a cProfile (CPU time) of ``BENCH_PROFILE_DEALS`` deal entries
(``BENCH_SORT``: cumulative or tottime).

As in production, Celery has a broker (``BENCH_BROKER_URL``, default Redis database 15,
emptied first; ``BENCH_BROKER_URL=`` runs the standings refresh inside each request).
``BENCH_DATABASE_URL`` names a throw-away database (created afresh).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from deploy.bench.common import bench_club, fresh_database  # noqa: E402 - once ROOT is on sys.path

DEALS = int(os.environ.get("BENCH_DEALS", "1000"))
DEALS_PER_MATCH = 5  # target 41: five deals of 7-4 never end a match
DB_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/scorebook_bench_profile"
)


def main() -> int:
    fresh_database(DB_URL)
    os.environ["DATABASE_URL"] = DB_URL
    broker = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/15")
    os.environ.pop("CELERY_BROKER_URL", None)
    if broker:
        os.environ["CELERY_BROKER_URL"] = broker
        if broker.startswith("redis://"):
            import redis

            redis.Redis.from_url(broker).flushdb()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorebook.settings")
    os.environ.update(
        DEBUG="0",
        SECRET_KEY="bench-only",
        ALLOWED_HOSTS="testserver",
        LOG_LEVEL="WARNING",
        SECURE_SSL_REDIRECT="0",  # plain HTTP, as behind nginx
        BENCH_ENDPOINTS="1",
    )
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from rest_framework.authtoken.models import Token

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    scorer, make_match = bench_club()
    token = Token.objects.create(user=scorer).key
    client = Client()
    deal = {"sides": {"A": {"thirds": 20, "tricks": 5}, "B": {"thirds": 12, "tricks": 5}},
            "last_trick": "A"}  # fmt: skip

    def new_match() -> int:
        return make_match().pk

    def bare(_match: int, _number: int) -> int:
        return client.post("/bench/insert", {"note": "bench"}, content_type="application/json")

    def entry(match: int, number: int):
        return client.post(
            f"/api/v1/matches/{match}/deals",
            {"deal": deal, "number": number},
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Token {token}",
            HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        )

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = Path(f"/proc/{cursor.fetchone()[0]}/stat")

    def database_cpu() -> float:
        """CPU seconds of this connection's PostgreSQL backend (same machine only)."""
        fields = backend.read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    costs: dict[str, list[float]] = {"bare": [], "entry": []}
    database: dict[str, float] = {"bare": 0.0, "entry": 0.0}
    paths = (("bare", bare), ("entry", entry))
    for warm in (True, False):
        match, number = new_match(), 0
        for i in range(DEALS // 10 if warm else DEALS):
            number += 1
            if number > DEALS_PER_MATCH:
                match, number = new_match(), 1
            for name, send in paths if i % 2 else reversed(paths):
                cpu, db = time.process_time(), database_cpu()
                response = send(match, number)
                cost = time.process_time() - cpu
                if not warm:
                    database[name] += database_cpu() - db
                if response.status_code != 201:
                    print(f"{name}: {response.status_code} {response.content[:300]!r}")
                    return 1
                if not warm:
                    costs[name].append(cost)

    statements: list[str] = []

    def record(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    match = new_match()
    # The test client resets connection.queries at each request: wrap the execution.
    with connection.execute_wrapper(record):
        entry(match, 1)
    if os.environ.get("BENCH_PROFILE"):
        import cProfile
        import pstats

        profile = cProfile.Profile(time.process_time)  # CPU, not waiting on the database
        match, number = new_match(), 0
        for _ in range(int(os.environ.get("BENCH_PROFILE_DEALS", "500"))):
            number += 1
            if number > DEALS_PER_MATCH:
                match, number = new_match(), 1
            profile.enable()
            entry(match, number)
            profile.disable()
        stats = pstats.Stats(profile)
        stats.sort_stats(os.environ.get("BENCH_SORT", "cumulative")).print_stats(
            int(os.environ.get("BENCH_LINES", "60"))
        )

    bare_ms, entry_ms = (statistics.median(costs[k]) * 1000 for k in ("bare", "entry"))
    print(f"In one process, {DEALS} of each, interleaved, PostgreSQL, broker {broker or 'none'}")
    bare_db, entry_db = (database[k] * 1000 / DEALS for k in ("bare", "entry"))
    print(f"{'':22}{'Python CPU ms':>14}{'database CPU ms':>16}{'both':>8}")
    for label, py, db in (
        ("bare INSERT view", bare_ms, bare_db),
        ("deal entry (totals)", entry_ms, entry_db),
    ):
        print(f"{label:<22}{py:>14.2f}{db:>16.2f}{py + db:>8.2f}")
    both = (bare_ms + bare_db) / (entry_ms + entry_db)
    print(f"ratio deal entry / bare view: Python {bare_ms / entry_ms:.2f}, both {both:.2f}")
    print("(Python: the median request's CPU in this process; database: the backend's mean)")
    print(f"deal entry statements: {len(statements)} (with BEGIN/COMMIT: {len(statements) + 2})")
    if os.environ.get("BENCH_SQL"):
        for sql in statements:
            print("  ", sql[:160])
    return 0


if __name__ == "__main__":
    sys.exit(main())
