"""HTTP load test of deal entry beside a bare one-INSERT view (`make bench-http`).

Sets up a throw-away PostgreSQL database, runs gunicorn with deploy/gunicorn.conf.py,
and drives both endpoints with wrk (16 connections, one per thread). Prints requests/s,
latency percentiles, machine CPU per request, the ratio, and any non-2xx answers (there
should be none). Each client signs in as its own scorer, as each table's phone does.

Needs PostgreSQL (BENCH_DATABASE_URL, default the local server) and wrk (`apt install wrk`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
PY = sys.executable
PORT = int(os.environ.get("BENCH_PORT", "8765"))
CLIENTS = int(os.environ.get("BENCH_CLIENTS", "16"))
DURATION = os.environ.get("BENCH_DURATION", "20s")
WARMUP = os.environ.get("BENCH_WARMUP", "5s")
DB_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/scorebook_bench")
MATCHES_PER_THREAD = 400
DEALS_PER_MATCH = 5  # target 41: five deals of 7-4 never end a match

SETUP = """
import json
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from scorebook.clubs.models import Club, Membership, Player
from scorebook.matches import services
from scorebook.matches.models import Match

# One scorer per client, as at a club night: each table's phone signs in as its scorer.
scorers = [get_user_model().objects.create_user(f"bench-{i}") for i in range(CLIENTS)]
user = scorers[0]
club = Club.objects.create(name="Bench club", slug="bench")
director = get_user_model().objects.create_user("bench-director")
for scorer in scorers:
    Membership.objects.create(club=club, user=scorer, role="scorer")
Membership.objects.create(club=club, user=director, role="director")
night = services.night_open(club_id=club.pk, date="2026-11-22", venue="", user=director)
players = [Player.objects.create(club=club, name=n) for n in ("N", "E", "S", "W")]
seats = dict(zip(("N", "E", "S", "W"), (p.pk for p in players)))
model = services.match_create(night=night, game="tressette4", rules={"t4.target": 41},
                              seats=seats, user=user)
runs = []
for _ in range(2):  # warm-up, measured
    fields = {f.attname: getattr(model, f.attname) for f in Match._meta.concrete_fields
              if f.attname != "id"}
    made = Match.objects.bulk_create(Match(**fields) for _ in range(COUNT))
    runs.append(made[0].pk)
    assert [m.pk for m in made] == list(range(made[0].pk, made[0].pk + COUNT))
tokens = ",".join(Token.objects.create(user=scorer).key for scorer in scorers)
print(json.dumps({"tokens": tokens, "runs": runs}))
"""


def run(*args: str, env: dict[str, str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(args, env=env, cwd=ROOT, check=True, **kwargs)


def reset_database(env: dict[str, str]) -> None:
    import psycopg

    base, name = DB_URL.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    run(PY, "manage.py", "migrate", "--noinput", "-v0", env=env)


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
    figures["cpu_ms"] = (cpu_seconds() - before) * 1000 / figures["requests"]
    return figures


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
    reset_database(env)
    count = CLIENTS * MATCHES_PER_THREAD
    setup_code = SETUP.replace("COUNT", str(count)).replace("CLIENTS", str(CLIENTS))
    made = run(
        PY, "manage.py", "shell", "-c", setup_code,
        env=env, capture_output=True, text=True,
    )  # fmt: skip
    setup = json.loads(made.stdout.strip().splitlines()[-1])
    server = subprocess.Popen(
        [
            str(Path(PY).parent / "gunicorn"), "-c", "deploy/gunicorn.conf.py",
            "--bind", f"127.0.0.1:{PORT}", "--access-logfile", "/dev/null",
            "scorebook.wsgi",
        ],
        cwd=ROOT, env=env, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        base = f"http://127.0.0.1:{PORT}"
        for _ in range(100):
            try:
                urllib.request.urlopen(f"{base}/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        deal_args = (str(MATCHES_PER_THREAD), str(DEALS_PER_MATCH))
        tokens, (warm, measured) = setup["tokens"], setup["runs"]
        wrk(f"{base}/bench/insert", "bare_insert.lua", WARMUP)
        wrk(f"{base}/", "deal_entry.lua", WARMUP, tokens, str(warm), *deal_args)
        bare = wrk(f"{base}/bench/insert", "bare_insert.lua", DURATION)
        deals = wrk(f"{base}/", "deal_entry.lua", DURATION, tokens, str(measured), *deal_args)
    finally:
        server.terminate()
        server.wait(timeout=30)
    workers = os.environ.get("GUNICORN_WORKERS", "default")
    print(f"HTTP bench: {CLIENTS} clients, {DURATION}, gunicorn workers={workers}, PostgreSQL")
    print(f"{'endpoint':<28}{'req/s':>9}{'p50 ms':>9}{'p90 ms':>9}{'p99 ms':>9}{'non-2xx':>9}")
    for name, f in (("bare INSERT view", bare), ("deal entry (POST deal)", deals)):
        print(
            f"{name:<28}{f['rps']:>9.0f}{f['p50_ms']:>9.1f}{f['p90_ms']:>9.1f}"
            f"{f['p99_ms']:>9.1f}{f['non_2xx']:>9}"
        )
    print(
        f"machine CPU per request: bare view {bare['cpu_ms']:.1f} ms,"
        f" deal entry {deals['cpu_ms']:.1f} ms ({os.cpu_count()} cores)"
    )
    print(f"ratio deal entry / bare view: {deals['rps'] / bare['rps']:.2f} (target >= 0.5)")
    print(f"deal entry p99: {deals['p99_ms']:.1f} ms (target < 100 ms)")
    return 1 if deals["non_2xx"] or bare["non_2xx"] else 0


if __name__ == "__main__":
    sys.exit(main())
