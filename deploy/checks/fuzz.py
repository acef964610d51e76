"""`make fuzz`: schemathesis over the whole OpenAPI schema against the real server.

A throw-away PostgreSQL database (FUZZ_DATABASE_URL, default the local server) gets the
demo club and one account per role (owner, director, scorer, member, and a stranger who
owns another club); gunicorn serves it with DEBUG off, as deployed; schemathesis then
generates requests for every operation of /api/schema/ with each role's token and
without one, and checks that no answer is a 5xx, that every status, content type and body
is the one the schema documents. Exits non-zero on any failure.

Every query parameter may also get one of the values that answered 500 before (``²``,
4,400 digits, 2^63, a NUL...: deploy/checks/fuzz_hooks.py).

Then the import's file fuzzer (deploy/checks/fuzz_files.py, as ``make fuzz-pages`` sends
it through the page) through the API's upload: each hostile file POSTed to
/api/v1/imports as the director and its check followed with GET /api/v1/imports/{id}
until it is no longer checking; no 5xx, and nothing of the club's record stored by a
refused file (FUZZ_FILES_SECONDS, default 300).

Bounded: FUZZ_EXAMPLES examples per operation (default 5) and FUZZ_SECONDS per role
(default 60), so CI spends a few minutes on it (about 8 minutes on a 2-core machine).
FUZZ_PATHS (a regular expression, e.g. ``deals|rules``) fuzzes only the operations whose
path matches: a longer, focused pass on what a change touched.

Static files are collected first, as deploy/RUNBOOK.md does (with DEBUG off a page needs
the manifest). Whatever schemathesis counts, gunicorn's own access log is read at the end:
every answer the server gave (the fuzzer's probes of odd paths and headers included) is
counted by status, and a single 5xx fails the run.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from deploy.bench.common import fresh_database, wait_until_up  # noqa: E402 - once ROOT is on sys.path

PY = sys.executable
BIN = Path(PY).parent
PORT = int(os.environ.get("FUZZ_PORT", "8766"))
DB_URL = os.environ.get("FUZZ_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/scorebook_fuzz")
EXAMPLES = os.environ.get("FUZZ_EXAMPLES", "5")
SECONDS = os.environ.get("FUZZ_SECONDS", "60")
#: The import's file fuzzer's time through the API (deploy/checks/fuzz_files.py).
FILES_SECONDS = float(os.environ.get("FUZZ_FILES_SECONDS", "300"))
#: The club's roles and the demo federation's secretary (the owner, demo, is its president).
ROLES = ("owner", "director", "scorer", "member", "stranger", "secretary", "anonymous")
CHECKS = ",".join(
    (
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_schema_conformance",
    )
)

SETUP = """
import json
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from scorebook.clubs import services
from scorebook.clubs.models import Club, Membership

User = get_user_model()
demo = User.objects.get(username="demo")
club = Club.objects.get(slug="san-rocco")
tokens = {}
for role in ("director", "scorer", "member"):
    user = User.objects.create_user(f"fuzz-{role}", password="x")
    Membership.objects.create(club=club, user=user, role=role)
    tokens[role] = Token.objects.create(user=user).key
tokens["owner"] = Token.objects.get_or_create(user=demo)[0].key
stranger = User.objects.create_user("fuzz-stranger", password="x")
services.club_create(name="Altrove", slug="altrove", user=stranger)
tokens["stranger"] = Token.objects.create(user=stranger).key
tokens["secretary"] = Token.objects.create(user=User.objects.get(username="segreteria")).key
tokens["club"] = club.pk
print(json.dumps(tokens))
"""


def run(*args: str, env: dict[str, str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(args, env=env, cwd=ROOT, check=True, **kwargs)


def answers(access_log: str) -> Counter[int]:
    """Each status the server answered with, and how often (one JSON line per answer)."""
    statuses: Counter[int] = Counter()
    with open(access_log, encoding="utf-8", errors="replace") as lines:
        for line in lines:
            try:
                status = json.loads(line).get("status_code")
            except ValueError:
                continue
            if isinstance(status, int):
                statuses[status] += 1
    return statuses


def main() -> int:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "CACHE_URL"))}
    env.update(
        DATABASE_URL=DB_URL,
        DEBUG="1",  # only for load_demo, which refuses to run with DEBUG off
        SECRET_KEY="fuzz-only-" + "x" * 50,
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="0",  # plain HTTP to gunicorn, as nginx speaks to it
        LOG_LEVEL="WARNING",
        # Throttles would answer the fuzzer's thousands of anonymous requests with 429.
        THROTTLE_SCORE_RATE="100000/min",
        THROTTLE_PUBLIC_RATE="100000/min",
        THROTTLE_SIGNUP_RATE="100000/min",
    )
    fresh_database(DB_URL)
    run(PY, "manage.py", "migrate", "--noinput", "-v0", env=env)
    run(PY, "manage.py", "createcachetable", env=env)
    # into staticfiles/, with the manifest the server will read (DEBUG off picks its storage)
    run(PY, "manage.py", "collectstatic", "--noinput", "-v0", env={**env, "DEBUG": "0"})
    run(PY, "manage.py", "load_demo", env=env, capture_output=True)
    made = run(PY, "manage.py", "shell", "-c", SETUP, env=env, capture_output=True, text=True)
    tokens = json.loads(made.stdout.strip().splitlines()[-1])
    env["DEBUG"] = "0"
    logs = tempfile.mkdtemp(prefix="scorebook-fuzz-")
    access = os.path.join(logs, "access.log")
    # The server's own log (a warning per 4xx: thousands) goes to a file, not CI's output;
    # its errors are printed below if there are any.
    server_log = open(os.path.join(logs, "server.log"), "w")  # noqa: SIM115 - closed below
    server = subprocess.Popen(
        [
            str(BIN / "gunicorn"), "-c", "deploy/gunicorn.conf.py",
            "--bind", f"127.0.0.1:{PORT}", "--workers", "2", "--access-logfile", access,
            "scorebook.wsgi",
        ],
        cwd=ROOT, env=env, stdout=server_log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    base = f"http://127.0.0.1:{PORT}"
    failed = []
    try:
        wait_until_up(base)
        # The schema is fetched once, with time to spare (it describes every game's deal:
        # on a busy machine its generation outlasts schemathesis's 10-second load timeout).
        schema_file = os.path.join(logs, "schema.json")
        with urllib.request.urlopen(f"{base}/api/schema/?format=json", timeout=120) as answer:
            Path(schema_file).write_bytes(answer.read())
        for role in ROLES:
            command = [
                str(BIN / "st"), "run", schema_file, "--url", base,
                "--checks", CHECKS,
                "--phases", "examples,coverage,fuzzing",
                "--max-examples", EXAMPLES,
                "--max-time", SECONDS,
                "--workers", "1",  # hypothesis's caches are not thread-safe
                "--seed", os.environ.get("FUZZ_SEED", "20261125"),
                "--no-color",
            ]  # fmt: skip
            if role != "anonymous":
                command += ["-H", f"Authorization: Token {tokens[role]}"]
            if os.environ.get("FUZZ_PATHS"):
                command += ["--include-path-regex", os.environ["FUZZ_PATHS"]]
            print(f"== schemathesis as {role}", flush=True)
            # deploy/checks/fuzz_hooks.py: hostile values in every query parameter too
            hooks = {"SCHEMATHESIS_HOOKS": "deploy.checks.fuzz_hooks", "PYTHONPATH": str(ROOT)}
            done = subprocess.run(command, cwd=ROOT, env={**env, **hooks}, check=False)
            if done.returncode != 0:
                failed.append(role)
        if upload_files(base, tokens["director"], tokens["club"], env)["failures"]:
            failed.append("the import's files")
    finally:
        server.terminate()
        server.wait(timeout=30)
        server_log.close()
    statuses = answers(access)
    with open(os.path.join(logs, "server.log")) as log:
        logged_errors = [line for line in log if '"level": "ERROR"' in line or "Traceback" in line]
    for line in logged_errors[:50]:
        print(f"fuzz: server log: {line.rstrip()}", file=sys.stderr)
    shutil.rmtree(logs, ignore_errors=True)
    total = sum(statuses.values())
    errors = sum(n for code, n in statuses.items() if code >= 500)
    print(
        f"fuzz: the server answered {total} requests: "
        + ", ".join(f"{code}: {n}" for code, n in sorted(statuses.items()))
    )
    if errors:
        print(f"fuzz: {errors} answers were 5xx (gunicorn's access log)", file=sys.stderr)
        failed.append("server log")
    if failed:
        print(f"fuzz: failures as {', '.join(failed)}", file=sys.stderr)
        return 1
    print("fuzz: no 5xx and no answer outside the schema, for every role")
    return 0


def upload_files(base: str, token: str, club: int, env: dict[str, str]) -> dict:
    """The import's file fuzzer (deploy/checks/fuzz_files.py) through the API, as the
    director: each file POSTed to /api/v1/imports, its check followed with
    GET /api/v1/imports/{id} until it is no longer checking (the check runs in-process:
    no broker), no 5xx, and nothing of the club's record stored by a refused file."""
    import requests

    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "scorebook.settings"
    import django

    django.setup()
    from deploy.checks.fuzz_files import club_record_counter, leftovers, run_files

    session = requests.Session()
    session.headers["Authorization"] = f"Token {token}"

    def send(name: str, data: bytes):
        try:
            return session.post(
                f"{base}/api/v1/imports", data={"club": club}, files={"file": (name, data)},
                timeout=300,
            )  # fmt: skip
        except requests.RequestException as exc:
            print(f"fuzz: files: upload {name}: {type(exc).__name__}", file=sys.stderr)
            return None

    def follow(answer) -> tuple[str, int]:
        if answer.status_code != 202:
            return f"refused at once ({answer.status_code})", answer.status_code
        url = f"{base}/api/v1/imports/{answer.json()['id']}"
        for _ in range(240):
            shown = session.get(url, timeout=120)
            if shown.status_code != 200 or shown.json()["status"] != "checking":
                break
            time.sleep(0.5)
        if shown.status_code != 200:
            return f"check answered {shown.status_code}", shown.status_code
        return shown.json()["status"], shown.status_code

    started = time.monotonic()
    found = run_files(send, follow, club_record_counter(), seconds=FILES_SECONDS)
    found["failures"] += leftovers() + [f"stored {found['stored']}"] * bool(found["stored"])
    print(
        f"fuzz: files: {found['sent']} uploaded in {time.monotonic() - started:.0f} s: "
        + ", ".join(f"{k}: {n}" for k, n in sorted(found["outcomes"].items()))
        + f"; answers {dict(sorted(found['statuses'].items()))}; "
        f"{len(found['failures'])} failures, stored by a refusal: {found['stored'] or 'nothing'}",
        flush=True,
    )
    for line in found["failures"][:20]:
        print(f"fuzz: files: {line}", file=sys.stderr)
    return found


if __name__ == "__main__":
    sys.exit(main())
