"""`make bench-smoke`: every bench command of the Makefile run at a tiny size, so none rots.

Each `make bench*` target (and `make page-weight`) runs as a developer runs it, through
make, with the size knobs below set small: a run of seconds that must exit 0 and print its
figures (each bench's figure lines are checked by pattern). The targets are judged only
at full size, never here: a tiny run's ratios are noise (BENCH_SMOKE=1 tells a bench that
exits 1 on a missed target not to). `make bench-standings` stopped
at its first COPY for weeks (a new NOT NULL column) because no bench ran anywhere; .ci/run
runs this after the services are up, and a bench that breaks fails CI.

A bench added to the Makefile without a smoke run here fails this script (and the test
tests/deploy/test_bench_smoke.py), so the list cannot fall behind. ``make table-taps`` is
not here: it runs tests/e2e/test_table_taps.py, which the suite runs anyway.

Needs what the benches need: PostgreSQL (SMOKE_DATABASE_URL, a server URL without a
database name; each bench gets its own ``scorebook_smoke_*`` database), Redis on
127.0.0.1:6379, redis-server and wrk. ``python deploy/bench/smoke.py bench-leagues ...``
runs only those.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVER = os.environ.get("SMOKE_DATABASE_URL", "postgres://postgres@127.0.0.1:5432").rstrip("/")


def database(name: str) -> str:
    return f"{SERVER}/scorebook_smoke_{name}"


# wrk for 3 s after 3 s of warm-up (each gunicorn worker's first requests load the code),
# 2 clients, 2 gunicorn workers (5 took over a minute to start on the loaded machine): the
# HTTP benches' smallest run that answers on a loaded machine too. Two clients on a quiet
# machine each enter up to ~90 deals a second (play30's p50 was 11 ms), so each gets
# matches for 200 a second: at the default 40 a quiet CI box used them all in 3 s and the
# bench rightly refused its figures (CI failed on it).
HTTP = {
    "BENCH_DURATION": "3s",
    "BENCH_WARMUP": "3s",
    "BENCH_CLIENTS": "2",
    "BENCH_CLIENT_RATE": "200",
    "GUNICORN_WORKERS": "2",
}

#: target -> (environment, patterns its output must contain: the figures it exists for).
SMOKES: dict[str, tuple[dict[str, str], list[str]]] = {
    "bench": (
        {"BENCH_RULES_DEALS": "200", **HTTP, "BENCH_DATABASE_URL": database("bench")},
        [r"tressette4\s+totals\s+\d+", r"ratio deal entry \(totals\) / bare view: [\d.]+"],
    ),
    "bench-http": (
        {**HTTP, "BENCH_DATABASE_URL": database("http")},
        [r"bare INSERT view\s+\d+", r"ratio deal entry \(totals\) / bare view: [\d.]+"],
    ),
    "bench-deal-profile": (
        {"BENCH_DEALS": "20", "BENCH_DATABASE_URL": database("profile")},
        [r"ratio deal entry / bare view: Python [\d.]+", r"deal entry statements: \d+"],
    ),
    "bench-scale-out": (
        {
            "SCALE_MATCHES": "2",
            "SCALE_DEALS": "2",
            "SCALE_PHONES": "2",
            "SCALE_DATABASE_URL": database("scale"),
        },
        [r'"exactly_once": true'],
    ),
    "bench-leagues": (
        {"BENCH_ENTRIES": "4", "BENCH_RUNS": "5", "BENCH_DATABASE_URL": database("leagues")},
        [r"league table on read: median [\d.]+ ms", r"ratio \(table / precomputed read\)"],
    ),
    "bench-pages": (
        {"BENCH_DEALS": "10"},  # SQLite in a temporary folder, as by default
        [r"page / API: CPU [\d.]+, wall [\d.]+"],
    ),
    "bench-tournament": (
        {"BENCH_SIZES": "8,16"},
        [r"^\s+16\s+[\d.]+\s+[\d.]+", r"k = -?[\d.]+"],
    ),
    "bench-standings": (
        {
            "BENCH_DEALS": "2000",
            "BENCH_DURATION": "3s",
            "BENCH_FRESH_DEALS": "1",
            "BENCH_DATABASE_URL": database("standings"),
        },
        [
            r"loaded [\d,]+ deals",
            r"ratio rebuild / SQL pass: [\d.]+x",
            r"ratio leaderboard / plain list: [\d.]+",
            r"201 -> leaderboard: p50 [\d.]+ s, p95 [\d.]+ s",
        ],
    ),
    "bench-federation": (
        {
            "FED_CLUBS": "20",
            "FED_DEALS": "2000",
            "BENCH_DURATION": "2s",
            "BENCH_FRESH_DEALS": "1",
            "BENCH_DATABASE_URL": database("federation"),
        },
        [
            r"loaded [\d,]+ deals at 20 clubs",
            r"ratio rebuild / SQL pass: [\d.]+x",
            r"federation ranking from .*ratio public page / plain read: [\d.]+",
            r"championship table from .*ratio public page / plain read: [\d.]+",
            r"freshness with the pages read: 201 -> leaderboard p50 [\d.]+ s, p95 [\d.]+ s",
            r"meanwhile \(median of the 3 s turns\): ranking \d+ req/s",
        ],
    ),
    "bench-erase": (
        {"BENCH_STORED": "200", "BENCH_RUNS": "1"},  # SQLite in a temporary folder
        [r"ratio erasure with / without stored answers: [\d.]+x"],
    ),
    "bench-import": (
        # SQLite in a temporary folder, as by default; the preview's bench (preview_bench.py)
        # small too, should the target run it.
        {"BENCH_NIGHTS": "3", "BENCH_PREVIEW_ROWS": "200", "BENCH_PREVIEW_RUNS": "1"},
        [r"ratio import / services: [\d.]+x", r"import peak memory \(tracemalloc\): \d+ MB"],
    ),
    "page-weight": (
        {},  # the demo club on a throw-away SQLite file (DATABASE_URL, set below)
        [r"heaviest page: \d+ bytes"],
    ),
}


def bench_targets(makefile: Path = ROOT / "Makefile") -> set[str]:
    """The Makefile's bench commands: every target named bench or bench-*, and page-weight."""
    found = re.findall(r"^(bench(?:-[\w-]+)?|page-weight):", makefile.read_text(), re.M)
    return set(found) - {"bench-smoke"}


def run(target: str, scratch: Path) -> tuple[bool, float, str]:
    env_extra, patterns = SMOKES[target]
    env = {**os.environ, **env_extra, "BENCH_SMOKE": "1"}  # figures printed, targets not judged
    env.pop("DATABASE_URL", None)  # each bench says where its database is
    env.pop("CELERY_BROKER_URL", None)
    if target == "page-weight":
        env["DATABASE_URL"] = f"sqlite:///{scratch / 'page-weight.sqlite3'}"
    start = time.monotonic()
    done = subprocess.run(
        # -o install: `make bench-smoke` has installed already; a bench's own `install`
        # prerequisite would otherwise reinstall the project whenever pyproject.toml is
        # newer than the install stamp (in a worktree on a shared virtualenv, over the
        # other trees' install).
        ["make", "--no-print-directory", "-o", "install", target],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    took = time.monotonic() - start
    out = done.stdout + done.stderr
    missing = [p for p in patterns if not re.search(p, done.stdout, re.M)]
    why = f"exit {done.returncode}" if done.returncode else ""
    if missing:
        why += ("; " if why else "") + "no figure matching " + ", ".join(map(repr, missing))
    return not why, took, why + ("\n" + out[-4000:] if why else "")


def main(argv: list[str]) -> int:
    unlisted = bench_targets() - set(SMOKES)
    if unlisted:
        print(f"no smoke run for: {', '.join(sorted(unlisted))} (add it to SMOKES)")
        return 1
    targets = argv or list(SMOKES)
    failed = []
    with tempfile.TemporaryDirectory(prefix="bench-smoke-") as tmp:
        for target in targets:
            ok, took, why = run(target, Path(tmp))
            print(f"{'ok ' if ok else 'FAILED'} {took:6.1f} s  make {target}", flush=True)
            if not ok:
                failed.append(target)
                print(why, flush=True)
    if failed:
        print(f"benches that broke: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
