"""HTTP load test of deal entry beside a bare one-INSERT view (`make bench-http`).

Sets up a throw-away PostgreSQL database (deploy/bench/setup_matches.py), runs gunicorn
with deploy/gunicorn.conf.py, and drives the endpoints with wrk (16 connections, one per
thread): the bare view, deal entry with totals (deals 1-5), and play records (level c)
entered as deal 1 of new matches and as deal 30 of matches with 29 deals stored, which
must cost the same. Prints requests/s, latency percentiles, machine CPU per request, the
ratios, and any non-2xx answers. Each client signs in as its own scorer, as each table's
phone does.

A deal can be entered once, so each client gets fresh matches for BENCH_CLIENT_RATE
deal entries a second over each run (default 40; clients are served unevenly, the
busiest about twice the mean), and stops if it uses them all. A timed run where a client
stopped early (its req/s understated) or any answer was not 2xx refuses the figures:
exit 1, no ratios, the reason and the setting to raise printed.

Needs PostgreSQL (BENCH_DATABASE_URL, default the local server) and wrk (`apt install wrk`).
As in production, Celery has a broker (BENCH_BROKER_URL, default Redis database 15, emptied
first): deal entry marks the standings stale and publishes the refresh, and no worker runs
during the bench, so the figures are the request path's own. ``BENCH_BROKER_URL=`` (empty)
measures the embedded default instead, where each refresh runs inside the request.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from deploy.bench.common import free_port, fresh_database, wait_until_up  # noqa: E402 - once ROOT is on sys.path

HERE = Path(__file__).resolve().parent
PY = sys.executable
PORT = int(os.environ.get("BENCH_PORT") or free_port())
CLIENTS = int(os.environ.get("BENCH_CLIENTS", "16"))
DURATION = os.environ.get("BENCH_DURATION", "20s")
WARMUP = os.environ.get("BENCH_WARMUP", "5s")
DB_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/scorebook_bench")
DEALS_PER_MATCH = 5  # target 41: five deals of 7-4 never end a match
CLIENT_RATE = float(os.environ.get("BENCH_CLIENT_RATE", "40"))  # deal entries/s, one client
# Deals each run enters into one match: five totals, or the one play record (deal 1, or
# deal 30 of a match with 29 stored).
DEALS = {"totals": DEALS_PER_MATCH, "play1": 1, "play30": 1}


def seconds(duration: str) -> float:
    """A wrk duration ("20s", "2m", "1h" or bare seconds) in seconds."""
    unit = {"s": 1, "m": 60, "h": 3600}.get(duration[-1])
    return float(duration[:-1]) * unit if unit else float(duration)


def matches_per_client(name: str, duration: str) -> int:
    return math.ceil(seconds(duration) * CLIENT_RATE / DEALS[name])


# Matches per client for each run, [warm-up, measured].
COUNTS = {name: [matches_per_client(name, d) for d in (WARMUP, DURATION)] for name in DEALS}


def run(*args: str, env: dict[str, str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(args, env=env, cwd=ROOT, check=True, **kwargs)


def reset_database(env: dict[str, str]) -> None:
    fresh_database(DB_URL)
    run(PY, "manage.py", "migrate", "--noinput", "-v0", env=env)
    run(PY, "manage.py", "createcachetable", env=env)  # /healthz reads the worker heartbeat


def cpu_seconds() -> float:
    """CPU seconds the whole machine has been busy (Linux /proc/stat): gunicorn, its
    restarted workers, PostgreSQL and wrk together, which per-process counts miss."""
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = map(int, fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def wrk(url: str, script: str, duration: str, *args: str) -> dict[str, float]:
    before = cpu_seconds()
    command = ["wrk", f"-t{CLIENTS}", f"-c{CLIENTS}", f"-d{duration}", "--latency", "-s"]
    command += [str(HERE / script), url, *args]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    sys.stderr.write(done.stderr)
    out = done.stdout
    figures = {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))}
    for pct in ("50", "90", "99"):
        value, unit = re.search(rf"\s{pct}%\s+([\d.]+)(us|ms|s)\b", out).groups()
        figures[f"p{pct}_ms"] = float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    figures["non_2xx"] = int(errors.group(1)) if errors else 0
    figures["requests"] = int(re.search(r"(\d+) requests in", out).group(1))
    if not figures["requests"]:
        raise SystemExit(f"{url}: no answer in {duration} (raise BENCH_DURATION):\n{out}")
    busiest = re.search(r"busiest client: (\d+) answers", out)  # deal_entry.lua's done()
    if busiest:
        figures["busiest"] = int(busiest.group(1))
    figures["cpu_ms"] = (cpu_seconds() - before) * 1000 / figures["requests"]
    return figures


def refusals(rows: dict[str, dict[str, float]]) -> list[str]:
    """Why timed figures cannot stand, if they cannot: an answer other than 2xx is not the
    cost of what was measured, and a client that used all its fresh matches stopped
    early, so the run's req/s is understated."""
    lines = []
    for name, f in rows.items():
        if f["non_2xx"]:
            lines.append(f"{name}: {f['non_2xx']:.0f} answers other than 2xx")
        if f.get("busiest", 0) >= f.get("prepared", math.inf):
            lines.append(
                f"{name}: a client used all {f['prepared']:.0f} deal entries its matches "
                f"hold and stopped early: raise BENCH_CLIENT_RATE (now {CLIENT_RATE:g})"
            )
    return ["FIGURES REFUSED: a timed run is not what it measures", *lines] if lines else []


def main() -> int:
    if not shutil.which("wrk"):
        print("wrk is not installed: apt-get install wrk", file=sys.stderr)
        return 2
    env = {
        **os.environ,
        "DATABASE_URL": DB_URL,
        "DEBUG": "0",
        "SECRET_KEY": "bench-only",
        "ALLOWED_HOSTS": "127.0.0.1",
        "BENCH_ENDPOINTS": "1",
        "SECURE_SSL_REDIRECT": "0",  # wrk speaks plain HTTP to gunicorn, as nginx does
        "LOG_LEVEL": "WARNING",
    }
    broker = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/15")
    env.pop("CELERY_BROKER_URL", None)
    if broker:
        env["CELERY_BROKER_URL"] = broker
        if broker.startswith("redis://"):
            import redis

            redis.Redis.from_url(broker).flushdb()  # no refresh queued by an earlier run
    reset_database(env)
    made = run(
        PY,
        "manage.py",
        "shell",
        "-c",
        f"exec(open({str(HERE / 'setup_matches.py')!r}).read())",
        env={**env, "BENCH_CLIENTS": str(CLIENTS), "BENCH_COUNTS": json.dumps(COUNTS)},
        capture_output=True,
        text=True,
    )
    setup = json.loads(made.stdout.strip().splitlines()[-1])
    tokens, runs = setup["tokens"], setup["runs"]
    bodies = {}
    for name, body in setup["bodies"].items():
        bodies[name] = Path(tempfile.mkstemp(prefix=f"bench-{name}-", suffix=".json")[1])
        bodies[name].write_text(json.dumps(body))
    server = subprocess.Popen(
        [
            str(Path(PY).parent / "gunicorn"), "-c", "deploy/gunicorn.conf.py",
            "--bind", f"127.0.0.1:{PORT}", "--access-logfile", "/dev/null",
            "scorebook.wsgi",
        ],
        cwd=ROOT, env=env, stderr=subprocess.DEVNULL,
    )  # fmt: skip

    def deals(run: int, name: str, duration: str) -> dict[str, float]:
        first, per = runs[name][run], COUNTS[name][run]
        if name == "totals":
            shape = (str(per), str(DEALS_PER_MATCH))
        else:
            shape = (str(per), "1", "30" if name == "play30" else "1", str(bodies[name]))
        measured = wrk(f"{base}/", "deal_entry.lua", duration, tokens, str(first), *shape)
        measured["prepared"] = per * DEALS[name]  # deal entries each client has matches for
        return measured

    try:
        base = f"http://127.0.0.1:{PORT}"
        wait_until_up(base)
        wrk(f"{base}/bench/insert", "bare_insert.lua", WARMUP)
        for name in COUNTS:
            deals(0, name, WARMUP)
        bare = wrk(f"{base}/bench/insert", "bare_insert.lua", DURATION)
        figures = {name: deals(1, name, DURATION) for name in COUNTS}
    finally:
        server.terminate()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        for path in bodies.values():
            path.unlink()
    workers = os.environ.get("GUNICORN_WORKERS", "default")
    print(
        f"HTTP bench: {CLIENTS} clients, {DURATION}, gunicorn workers={workers}, PostgreSQL, "
        f"broker {broker or 'none (refresh inside the request)'}"
    )
    print(
        f"{'endpoint':<34}{'req/s':>8}{'p50 ms':>8}{'p90 ms':>8}{'p99 ms':>8}"
        f"{'CPU ms':>8}{'non-2xx':>8}"
    )
    rows = {
        "bare INSERT view": bare,
        "deal entry, totals (deals 1-5)": figures["totals"],
        "deal entry, play record, deal 1": figures["play1"],
        "deal entry, play record, deal 30": figures["play30"],
    }
    for name, f in rows.items():
        print(
            f"{name:<34}{f['rps']:>8.0f}{f['p50_ms']:>8.1f}{f['p90_ms']:>8.1f}"
            f"{f['p99_ms']:>8.1f}{f['cpu_ms']:>8.1f}{f['non_2xx']:>8}"
        )
    print(f"(CPU ms: the whole machine's CPU per request; {os.cpu_count()} cores)")
    print(
        "busiest client / prepared deal entries: "
        + ", ".join(f"{name} {f['busiest']}/{f['prepared']}" for name, f in figures.items())
    )
    refused = refusals(rows)
    for line in refused:
        print(f"*** {line} ***")
    if refused:
        return 1
    totals, play1, play30 = figures["totals"], figures["play1"], figures["play30"]
    print(
        f"ratio deal entry (totals) / bare view: {totals['rps'] / bare['rps']:.2f} (target >= 0.5)"
    )
    print(
        f"ratio deal 30 / deal 1 (play records): {play30['rps'] / play1['rps']:.2f} (target >= 0.9)"
    )
    print(f"deal entry p99: {totals['p99_ms']:.1f} ms (target < 100 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
