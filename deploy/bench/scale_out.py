"""Scale-out check: two gunicorn instances on two ports, one PostgreSQL, phones racing.

For every match and every deal number, SCALE_PHONES phones (each its own scorer) enter
that deal at once, each through one instance, and each also retries its request with the
same Idempotency-Key through the other instance at the same moment (an answer lost on the
Wi-Fi). Exactly-once must hold because every guarantee lives in PostgreSQL, not in a
process: per deal number one key gets 201 (its retry the same deal, replayed) and every
other phone 409; the database holds each deal once, one key per stored deal, and
``manage.py verify_records`` finds every match re-deriving from its deals.

Run: ``.venv/bin/python deploy/bench/scale_out.py`` (SCALE_DATABASE_URL, default
``scorebook_scale`` on the local server, is dropped and re-created). SCALE_MATCHES (8),
SCALE_DEALS (5), SCALE_PHONES (4), SCALE_WORKERS (2 per instance) change the size;
SCALE_RESET=0 uses the database as it is (migrated, and empty: the test suite's).
Prints one JSON line with the counts; exits 1 if anything did not hold.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from deploy.bench.common import fresh_database, wait_until_up  # noqa: E402 - once ROOT is on sys.path

HERE = Path(__file__).resolve().parent
PY = sys.executable
DB_URL = os.environ.get("SCALE_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/scorebook_scale")
MATCHES = int(os.environ.get("SCALE_MATCHES", "8"))
DEALS = int(os.environ.get("SCALE_DEALS", "5"))  # five deals of 7-4 never end a match to 41
PHONES = int(os.environ.get("SCALE_PHONES", "4"))
WORKERS = os.environ.get("SCALE_WORKERS", "2")


def deal_body(number: int, phone: int) -> bytes:
    """Phones disagree on the deal (who won it), as two scorers at one table might."""
    a, b = (20, 12) if phone % 2 == 0 else (12, 20)
    deal = {
        "sides": {"A": {"thirds": a, "tricks": 5}, "B": {"thirds": b, "tricks": 5}},
        "last_trick": "A" if a > b else "B",
    }
    return json.dumps({"deal": deal, "number": number}).encode()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def post(base: str, match: int, token: str, key: str, body: bytes) -> tuple[int, dict]:
    request = urllib.request.Request(
        f"{base}/api/v1/matches/{match}/deals",
        data=body,
        headers={
            "Authorization": f"Token {token}",
            "Content-Type": "application/json",
            "Idempotency-Key": key,
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def reset_database(env: dict[str, str]) -> None:
    fresh_database(DB_URL)
    subprocess.run([PY, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)


def start(env: dict[str, str]) -> tuple[subprocess.Popen, str]:
    port = free_port()
    server = subprocess.Popen(
        [str(Path(PY).parent / "gunicorn"), "--workers", WORKERS, "--threads", "4",
         "--bind", f"127.0.0.1:{port}", "--access-logfile", "/dev/null", "scorebook.wsgi"],
        cwd=ROOT, env=env, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    return server, f"http://127.0.0.1:{port}"


def race(bases: list[str], tokens: list[str], match: int, number: int) -> list[tuple]:
    """Every phone sends deal ``number`` through one instance and its retry through the
    other, all released at once. Returns (phone, key, status, deal id) per request."""
    barrier = threading.Barrier(2 * len(tokens))
    answers: list[tuple] = []

    def send(phone: int, attempt: int) -> None:
        key = f"m{match}-n{number}-p{phone}"
        base = bases[(phone + attempt) % 2]
        body = deal_body(number, phone)
        barrier.wait()
        status, data = post(base, match, tokens[phone], key, body)
        answers.append((phone, key, status, data.get("id")))

    threads = [
        threading.Thread(target=send, args=(phone, attempt))
        for phone in range(len(tokens))
        for attempt in (0, 1)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def problems_in(answers: list[tuple]) -> list[str]:
    """One race's answers: one key won (all its answers 201, one deal), the rest 409."""
    problems = []
    by_key: dict[str, list[tuple]] = {}
    for answer in answers:
        by_key.setdefault(answer[1], []).append(answer)
    winners = [k for k, rows in by_key.items() if any(r[2] == 201 for r in rows)]
    if len(winners) != 1:
        problems.append(f"{len(winners)} keys stored a deal: {sorted(answers)}")
    for key, rows in by_key.items():
        statuses = {r[2] for r in rows}
        if key in winners and (statuses != {201} or len({r[3] for r in rows}) != 1):
            problems.append(f"{key}: the retry did not replay the stored deal: {rows}")
        if key not in winners and statuses != {409}:
            problems.append(f"{key}: expected 409, got {rows}")
    return problems


def stored_counts(env: dict[str, str]) -> dict[str, int]:
    code = (
        "import json; from scorebook.matches.models import Deal; from scorebook.core.models import"
        " IdempotencyKey; print(json.dumps({'deals': Deal.objects.count(), 'distinct':"
        " Deal.objects.values('match', 'number').distinct().count(), 'keys':"
        " IdempotencyKey.objects.count()}))"
    )
    done = subprocess.run(
        [PY, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    env = {
        **os.environ,
        "DATABASE_URL": DB_URL,
        "DEBUG": "0",
        "SECRET_KEY": "scale-out-only-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "LOG_LEVEL": "WARNING",
    }
    env.pop("CELERY_BROKER_URL", None)  # standings refresh eagerly, in the request
    if os.environ.get("SCALE_RESET", "1") != "0":
        reset_database(env)
    script = f"exec(open({str(HERE / 'scale_out_setup.py')!r}).read())"
    made = subprocess.run(
        [PY, "manage.py", "shell", "-c", script],
        cwd=ROOT,
        env={**env, "SCALE_PHONES": str(PHONES), "SCALE_MATCHES": str(MATCHES)},
        check=True,
        capture_output=True,
        text=True,
    )
    setup = json.loads(made.stdout.strip().splitlines()[-1])
    servers = [start(env), start(env)]
    bases = [base for _, base in servers]
    started = time.monotonic()
    try:
        for base in bases:
            wait_until_up(base)
        started = time.monotonic()

        def play(match: int) -> list[tuple]:
            return [race(bases, setup["tokens"], match, n) for n in range(1, DEALS + 1)]

        with ThreadPoolExecutor(max_workers=MATCHES) as pool:
            races = [r for rounds in pool.map(play, setup["matches"]) for r in rounds]
    finally:
        for server, _ in servers:
            server.terminate()
        for server, _ in servers:
            server.wait(timeout=60)
    elapsed = time.monotonic() - started
    problems = [p for answers in races for p in problems_in(answers)]
    counts = stored_counts(env)
    expected = MATCHES * DEALS
    if counts != {"deals": expected, "distinct": expected, "keys": expected}:
        problems.append(f"stored {counts}, expected {expected} deals, one key each")
    verified = subprocess.run(
        [PY, "manage.py", "verify_records"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if verified.returncode:
        problems.append(verified.stderr.strip())
    statuses = Counter(a[2] for answers in races for a in answers)
    for problem in problems:
        print(problem, file=sys.stderr)
    print(
        json.dumps(
            {
                "instances": 2,
                "workers_each": int(WORKERS),
                "matches": MATCHES,
                "deals_each": DEALS,
                "phones": PHONES,
                "requests": sum(statuses.values()),
                "statuses": {str(k): v for k, v in sorted(statuses.items())},
                "stored": counts,
                "seconds": round(elapsed, 1),
                "exactly_once": not problems,
            }
        )
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
