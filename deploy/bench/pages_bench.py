"""What a deal saved through the page costs the server, beside the same deal through the API
(`make bench-pages`; issue 13 asks for at most 1.3x). One process, one run, the two paths
interleaved deal by deal so both see the same database, caches and machine load: Django's
test client drives the whole middleware stack (sessions, CSRF, locale, authentication) of
each path; the page POST is the form a phone sends (the quick form: TV01's points as "4 e 2"
and the last trick, with an Idempotency-Key field; its answer is the redirect to the next
deal's form, not followed), the API POST is the same deal as JSON with a token and an
Idempotency-Key header. Reported per deal: this process's CPU time and the wall time (which
adds the database's own work). Uses PostgreSQL when BENCH_DATABASE_URL is set (a throw-away
database of that name is created), else a throw-away SQLite file.
"""

from __future__ import annotations

import os
import re
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from deploy.bench.common import bench_club, fresh_database  # noqa: E402 - once ROOT is on sys.path

DEALS = int(os.environ.get("BENCH_DEALS", "600"))
DEALS_PER_MATCH = 5  # target 41: five deals of 7-4 never end a match
TARGET = 1.3


def main() -> int:
    url = os.environ.get("BENCH_DATABASE_URL") or f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
    fresh_database(url)
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorebook.settings")
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("SECRET_KEY", "bench-only")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    os.environ.setdefault("SECURE_SSL_REDIRECT", "0")  # plain HTTP, as behind nginx
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client
    from rest_framework.authtoken.models import Token

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = False
    # The one GET (the form, for its CSRF cookie) renders without collectstatic.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    call_command("migrate", verbosity=0)
    scorer, new_match = bench_club()

    page = Client(enforce_csrf_checks=True)
    page.force_login(scorer)
    # The form, as the phone gets it: its CSRF cookie and the shape it is read with.
    html = page.get(f"/m/{new_match().pk}/deals/new").content.decode()
    shape = re.search(r'name="shape" value="([^"]+)"', html).group(1)
    csrf = page.cookies[settings.CSRF_COOKIE_NAME].value
    api = Client()
    token = Token.objects.create(user=scorer).key
    # The quick form, as a phone sends it: A's whole points and the figures left over
    # ("4 e 2": 14 thirds), the last trick; no trick counts. The API gets the same deal.
    form = {
        "level": "quick",
        "shape": shape,
        "sides.A.thirds": "4",
        "sides.A.thirds~figures": "2",
        "last_trick": "B",
    }
    deal = {"sides": {"A": {"thirds": 14}, "B": {"thirds": 18}}, "last_trick": "B"}

    def save_page(match_id: int, number: int) -> int:
        data = {**form, "csrfmiddlewaretoken": csrf, "expected_number": str(number),
                "idempotency_key": str(uuid.uuid4())}  # fmt: skip
        return page.post(
            f"/m/{match_id}/deals/new",
            urlencode(data),
            content_type="application/x-www-form-urlencoded",  # as a browser sends a form
        ).status_code

    def save_api(match_id: int, number: int) -> int:
        return api.post(
            f"/api/v1/matches/{match_id}/deals",
            {"deal": deal, "number": number},
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Token {token}",
            HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        ).status_code

    costs: dict[str, list[tuple[float, float]]] = {"page": [], "api": []}
    paths = (("page", save_page, 303), ("api", save_api, 201))
    for warm in (True, False):
        matches = {name: new_match() for name, _, _ in paths}
        number = 0
        for i in range(DEALS // 10 if warm else DEALS):
            number += 1
            if number > DEALS_PER_MATCH:
                matches, number = {name: new_match() for name, _, _ in paths}, 1
            for name, save, expected in paths if i % 2 else reversed(paths):
                cpu, wall = time.process_time(), time.perf_counter()
                status = save(matches[name].pk, number)
                cost = (time.process_time() - cpu, time.perf_counter() - wall)
                if status != expected:
                    print(f"{name}: answered {status}, expected {expected}", file=sys.stderr)
                    return 1
                if not warm:
                    costs[name].append(cost)

    if os.environ.get("BENCH_PROFILE"):
        import cProfile
        import pstats

        match, which = new_match(), os.environ["BENCH_PROFILE"]
        save = save_page if which == "page" else save_api
        profile = cProfile.Profile()
        profile.enable()
        for n in range(1, DEALS_PER_MATCH + 1):
            save(match.pk, n)
        profile.disable()
        pstats.Stats(profile).sort_stats(os.environ.get("BENCH_SORT", "cumulative")).print_stats(45)

    def ms(name: str, k: int) -> float:
        return statistics.median(c[k] for c in costs[name]) * 1000

    vendor = "PostgreSQL" if "postgres" in os.environ["DATABASE_URL"] else "SQLite"
    print(f"Deal saved through the page vs the API: {DEALS} deals each, interleaved, {vendor}")
    print(f"{'path':<34}{'CPU ms (median)':>17}{'wall ms (median)':>18}")
    print(f"{'page (POST /m/<id>/deals/new)':<34}{ms('page', 0):>17.2f}{ms('page', 1):>18.2f}")
    print(f"{'API (POST /api/v1/matches/...)':<34}{ms('api', 0):>17.2f}{ms('api', 1):>18.2f}")
    ratio_cpu, ratio_wall = ms("page", 0) / ms("api", 0), ms("page", 1) / ms("api", 1)
    print(f"page / API: CPU {ratio_cpu:.2f}, wall {ratio_wall:.2f} (target <= {TARGET})")
    # A smoke run (BENCH_SMOKE=1, `make bench-smoke`) is too small to judge the target.
    return 0 if max(ratio_cpu, ratio_wall) <= TARGET or os.environ.get("BENCH_SMOKE") else 1


if __name__ == "__main__":
    sys.exit(main())
