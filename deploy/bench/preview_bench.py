"""The import's preview of a 99,999-row file (`make bench-import` runs it after the
import's own figures; issue 31 asks for under 200 MB at its peak and no request over 2 s).

A made-up history (deploy/bench/history_file.py, weekly nights from 1960 so that every
night is in the past) cut to whole nights and topped up with one-row matches kept by
their final score, to exactly BENCH_PREVIEW_ROWS data rows (default 99,999), written as
the template's CSV (and, with BENCH_PREVIEW_XLSX=1, also as XLSX). Then, on a throw-away
database (PostgreSQL when BENCH_DATABASE_URL is set, else SQLite), each in a fresh process
as in production:

- **the request**: what the upload's request does before it answers (the service the
  page and the API call: the quick checks, the file kept, the task queued), timed;
- **the check**: the task's body in a process of its own, as a Celery worker runs it,
  timed (wall and CPU: on a shared box the wall time is mostly waiting), with the
  process's peak resident memory (``ru_maxrss``: what the worker really takes, Django
  and the engine included), and once more under tracemalloc for the peak of Python's own
  allocations (slower: not timed).

The same script measures a tree from before the preview was a task (its request ran the
whole check: BENCH_TREE=/path/to/that/tree runs it). Three runs (BENCH_PREVIEW_RUNS);
the medians are printed last. The file is kept in the temporary folder between runs of
the same size (its making takes a minute or more).
"""

from __future__ import annotations

import csv
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parents[2]
#: The tree whose import is measured (this one by default).
ROOT = Path(os.environ.get("BENCH_TREE") or HERE)
sys.path.insert(0, str(HERE))

ROWS = int(os.environ.get("BENCH_PREVIEW_ROWS", "99999"))
RUNS = int(os.environ.get("BENCH_PREVIEW_RUNS", "3"))
LIMIT_MB = 200
REQUEST_LIMIT_S = 2.0


def history_rows(rows: int) -> bytes:
    """The CSV of exactly ``rows`` data rows (cached in the temporary folder)."""
    cached = Path(tempfile.gettempdir()) / f"scorebook-preview-{rows}.csv"
    if cached.exists():
        return cached.read_bytes()
    from deploy.bench.history_file import club_history

    nights = rows // 38 + 1
    text, _deals = club_history(nights, start=date(1960, 1, 7))
    lines = text.splitlines()
    header, body = lines[0], lines[1:]
    # whole nights only: cut before the first row of the night that would overflow
    kept: list[str] = []
    for line in body:
        if len(kept) >= rows:
            break
        kept.append(line)
    if len(kept) == rows and len(body) > rows:
        last_day = kept[-1].split(",", 1)[0]
        while kept and kept[-1].split(",", 1)[0] == last_day:
            kept.pop()
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*header.split(","), "final"])
    for line in csv.reader(kept):
        writer.writerow([*line, ""])
    # top up with matches kept by their final score, a night of 50 tables at a time
    missing, night = rows - len(kept), 0
    while missing > 0:
        day = date(1959, 1, 1).toordinal() + night
        for table in range(1, 51):
            if missing <= 0:
                break
            writer.writerow([date.fromordinal(day).isoformat(), table, 1, "tressette4",
                             "classic_21", "N=Nino; E=Lia; S=Maria; W=Salvo", "", "", "", "",
                             "A=21; B=13"])  # fmt: skip
            missing -= 1
        night += 1
    data = out.getvalue().encode()
    cached.write_bytes(data)
    return data


def as_xlsx(data: bytes) -> bytes:
    import openpyxl

    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet()
    for cells in csv.reader(io.StringIO(data.decode())):
        sheet.append(cells)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


CHILD = r"""
import gc, json, os, resource, sys, time, tracemalloc
sys.path.insert(0, %(root)r)
os.environ["DATABASE_URL"] = %(url)r
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorebook.settings")
os.environ.update(DEBUG="0", SECRET_KEY="bench-only", ALLOWED_HOSTS="testserver",
                  LOG_LEVEL="WARNING")
os.environ.pop("CELERY_BROKER_URL", None)
import django
django.setup()
from django.conf import settings
settings.IMPORT_MAX_BYTES = 50 * 1024 * 1024
import importlib.util
spec = importlib.util.spec_from_file_location("preview_bench", %(bench)r)
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
club, check, upload = bench.club, bench.check, bench.upload
mode, traced = %(mode)r, %(traced)r
out = {}
if mode == "check":  # the worker: a process of its own, as a Celery worker is
    gc.collect()
    if traced:
        tracemalloc.start()
    out["rss_before_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out.update(check(%(pk)r))
    out["rss_peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if traced:
        out["traced_peak_mb"] = tracemalloc.get_traced_memory()[1] / 1e6
else:  # the request (before issue 31: the request did the whole check)
    user, the_club = club(%(slug)r)
    out.update(upload(the_club, user, open(%(path)r, "rb").read()))
    out["rss_peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print("RESULT " + json.dumps(out))
"""


def club(slug: str):
    from django.contrib.auth import get_user_model

    from scorebook.clubs.models import Club, Membership

    director = get_user_model().objects.create_user(f"director-{slug}")
    made = Club.objects.create(name=f"Club {slug}", slug=slug)
    Membership.objects.create(club=made, user=director, role="director")
    return director, made


def upload(the_club, user, data: bytes) -> dict:
    """The upload's request: the quick checks, the file kept, the check's task queued
    (its sending held here: a broker would take it). Before the preview was a task
    (main before issue 31), the request ran ``import_preview``, the whole check."""
    from django.conf import settings

    from scorebook.history import services

    started, cpu = time.perf_counter(), time.process_time()
    if not hasattr(services, "import_upload"):
        batch = services.import_preview(club=the_club, user=user, filename="p.csv", data=data)
        return {"request_s": time.perf_counter() - started, "cpu_s": time.process_time() - cpu,
                "rows": sum(n["deals"] for n in batch.plan["nights"]), "status": batch.status,
                "pk": None}  # fmt: skip
    from scorebook.history import tasks

    settings.CELERY_TASK_ALWAYS_EAGER = False
    tasks.check_file.delay = lambda pk: None  # the worker's part: check() below
    batch = services.import_upload(club=the_club, user=user, filename="p.csv", data=data)
    return {"request_s": time.perf_counter() - started, "pk": batch.pk}


def check(pk: int) -> dict:
    """The check's task body, as a worker runs it."""
    from scorebook.history.checker import check_run

    started, cpu = time.perf_counter(), time.process_time()
    batch = check_run(pk)
    return {"check_s": time.perf_counter() - started, "cpu_s": time.process_time() - cpu,
            "rows": batch.rows_done, "status": batch.status}  # fmt: skip


def run_child(url: str, mode: str, *, path="", slug="", pk=None, traced=False) -> dict:
    code = CHILD % {"root": str(ROOT), "bench": __file__, "url": url, "path": path,
                    "slug": slug, "pk": pk, "mode": mode, "traced": traced}  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    for line in done.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    raise RuntimeError(f"the preview's process failed:\n{done.stdout}\n{done.stderr[-3000:]}")


def one_run(url: str, path: str, slug: str, traced: bool = False) -> dict:
    """The request in one process, then the check in another (the worker's)."""
    request = run_child(url, "request", path=path, slug=slug)
    if request["pk"] is None:  # before: the request was the check
        return {**request, "check_s": request["request_s"], "worker_rss_mb": request["rss_peak_mb"]}
    found = run_child(url, "check", pk=request["pk"], traced=traced)
    return {**found, "request_s": request["request_s"], "worker_rss_mb": found["rss_peak_mb"]}


def main() -> int:
    from deploy.bench.common import fresh_database

    url = os.environ.get("BENCH_DATABASE_URL") or f"sqlite:///{tempfile.mkdtemp()}/preview.sqlite3"
    fresh_database(url)
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "scorebook.settings",
           "SECRET_KEY": "bench-only", "DEBUG": "0", "ALLOWED_HOSTS": "testserver"}  # fmt: skip
    env.pop("CELERY_BROKER_URL", None)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorebook.settings")
    os.environ.setdefault("SECRET_KEY", "bench-only")
    import django

    django.setup()
    data = history_rows(ROWS)
    files = {"csv": data}
    if os.environ.get("BENCH_PREVIEW_XLSX") == "1":
        files["xlsx"] = as_xlsx(data)
    worst = 0
    for kind, content in files.items():
        path = Path(tempfile.gettempdir()) / f"scorebook-preview-{ROWS}.{kind}"
        path.write_bytes(content)
        print(f"preview file: {ROWS} rows, {len(content) / 1e6:.1f} MB of {kind.upper()}")
        results = []
        for run in range(RUNS):
            found = one_run(url, str(path), f"p{kind}{run}")
            results.append(found)
            print(
                f"  run {run + 1}: request {found['request_s']:.2f} s, check "
                f"{found['check_s']:.1f} s ({found['cpu_s']:.1f} s of CPU; {found['rows']} "
                f"rows, {found['status']}), the worker's peak RSS {found['worker_rss_mb']:.0f} MB",
                flush=True,
            )
        traced = one_run(url, str(path), f"t{kind}", traced=True)
        request = statistics.median(r["request_s"] for r in results)
        whole = statistics.median(r["check_s"] for r in results)
        cpu = statistics.median(r["cpu_s"] for r in results)
        rss = statistics.median(r["worker_rss_mb"] for r in results)
        print(
            f"preview {kind}: median request {request:.2f} s (limit {REQUEST_LIMIT_S} s), "
            f"check {whole:.1f} s ({cpu:.1f} s of CPU), the worker's peak RSS {rss:.0f} MB "
            f"(limit {LIMIT_MB} MB), Python's peak (tracemalloc) "
            f"{traced.get('traced_peak_mb', float('nan')):.0f} MB"
        )
        worst += rss > LIMIT_MB or request > REQUEST_LIMIT_S
    return 1 if worst else 0


if __name__ == "__main__":
    sys.exit(main())
