"""The import's preview of a 99,999-row file (`make bench-import` runs it after the
import's own figures; issue 31 asks for under 200 MB at its peak and no request over 2 s).

A made-up history (deploy/bench/history_file.py, weekly nights from 1960 so that every
night is in the past) cut to whole nights and topped up with one-row matches kept by
their final score, to exactly BENCH_PREVIEW_ROWS data rows (default 99,999), written as
the template's CSV (and, with BENCH_PREVIEW_XLSX=1, also as XLSX). Then, each in a fresh
process on a throw-away database (PostgreSQL when BENCH_DATABASE_URL is set, else SQLite):

- **the request**: what the upload's request does before it answers (the service the
  page and the API call), timed;
- **the preview**: the whole check of every row as the task runs it, timed, with the
  process's peak resident memory above what it held before the file was read
  (``ru_maxrss``: what the worker really takes), and in a second process the peak of
  Python's own allocations (tracemalloc, which slows Python: that run is not timed).

Three runs; the median is printed last. The file is kept in the temporary folder
between runs of the same size (its making takes a minute).
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

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

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
import json, os, resource, sys, time, tracemalloc
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
from deploy.bench.preview_bench import club, preview
user, the_club = club(%(slug)r)
data = open(%(path)r, "rb").read()
traced = %(traced)r
if traced:
    tracemalloc.start()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
request_s, preview_s, rows, status = preview(the_club, user, data)
peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
out = {"request_s": request_s, "preview_s": preview_s, "rows": rows, "status": status,
       "rss_before_mb": before / 1024, "rss_peak_mb": peak_rss / 1024}
if traced:
    out["traced_peak_mb"] = tracemalloc.get_traced_memory()[1] / 1e6
print("RESULT " + json.dumps(out))
"""


def club(slug: str):
    from django.contrib.auth import get_user_model

    from scorebook.clubs.models import Club, Membership

    director = get_user_model().objects.create_user(f"director-{slug}")
    made = Club.objects.create(name=f"Club {slug}", slug=slug)
    Membership.objects.create(club=made, user=director, role="director")
    return director, made


def preview(the_club, user, data: bytes) -> tuple[float, float, int, str]:
    """(the request's seconds, the whole preview's seconds, rows checked, its status).

    With the preview as a task (``import_upload`` then the task's body) the request is
    the upload alone; before it (``import_preview`` in the request) both are the same."""
    from scorebook.history import services

    started = time.perf_counter()
    if hasattr(services, "import_upload"):
        batch = services.import_upload(
            club=the_club, user=user, filename="preview.csv", data=data, run=False
        )
        request_s = time.perf_counter() - started
        from scorebook.history.checker import check_run

        batch = check_run(batch.pk)
        total = time.perf_counter() - started
        return request_s, total, batch.rows_done, batch.status
    batch = services.import_preview(club=the_club, user=user, filename="preview.csv", data=data)
    total = time.perf_counter() - started
    return total, total, sum(n["deals"] for n in batch.plan["nights"]), batch.status


def run_child(url: str, path: str, slug: str, traced: bool) -> dict:
    code = CHILD % {"root": str(ROOT), "url": url, "path": path, "slug": slug, "traced": traced}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    for line in done.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    raise RuntimeError(f"the preview's process failed:\n{done.stdout}\n{done.stderr[-3000:]}")


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
            found = run_child(url, str(path), f"p{kind}{run}", traced=False)
            results.append(found)
            print(
                f"  run {run + 1}: request {found['request_s']:.2f} s, preview "
                f"{found['preview_s']:.1f} s ({found['rows']} rows, {found['status']}), "
                f"peak RSS {found['rss_peak_mb']:.0f} MB "
                f"({found['rss_peak_mb'] - found['rss_before_mb']:.0f} MB above the "
                f"{found['rss_before_mb']:.0f} MB before the file)",
                flush=True,
            )
        traced = run_child(url, str(path), f"t{kind}", traced=True)
        request = statistics.median(r["request_s"] for r in results)
        whole = statistics.median(r["preview_s"] for r in results)
        rss = statistics.median(r["rss_peak_mb"] for r in results)
        print(
            f"preview {kind}: median request {request:.2f} s (limit {REQUEST_LIMIT_S} s), "
            f"preview {whole:.1f} s, peak RSS {rss:.0f} MB (limit {LIMIT_MB} MB), "
            f"Python's peak (tracemalloc) {traced['traced_peak_mb']:.0f} MB"
        )
        worst += rss > LIMIT_MB or request > REQUEST_LIMIT_S
    return 1 if worst else 0


if __name__ == "__main__":
    sys.exit(main())
