"""Browser tests: Playwright driving Debian's Chromium at a phone's size, against a live
server (pytest-django's ``live_server``; on SQLite the test database is a file, its
threads and the test's each with a connection of their own: tests/sqlite_file.py).

Chromium is launched by its path (Playwright cannot download its own browser here). When
it is missing the tests are skipped with a message saying so, except under
``E2E_REQUIRED=1`` (CI), where they fail instead. Screenshots of every page go to
``tests/e2e/artifacts/`` (git-ignored).
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).parent / "artifacts"
PHONE = {"width": 390, "height": 844}
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

# Playwright's sync API runs an event loop in the test's thread; the ORM calls the tests
# make there (setting up a club) are plain synchronous calls all the same.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Playwright's expect() waits 5 s by default, half what the pages' actions may take
# (context.set_default_timeout below). Under the whole suite's load (two cores, the
# workers' live servers, Chromium; load averages of 7-12) an assertion's 5 s ran out on
# pages that were answering: table_taps' deal loops were rerun in each of the last two
# whole-suite runs. A check that holds passes at once either way.
expect.set_options(timeout=10_000)


# A browser test that fails is run once more (pytest-rerunfailures), as Playwright's own
# runner does on CI: two cores shared by the suite's workers, their live servers and
# Chromium make a rare timeout that says nothing of the product. A test that fails twice
# fails; every rerun is counted in the summary line ("1 rerun") and listed (the R of
# -rfER, beside the failures and errors) so a test that starts to need one is seen. Only
# the browser tests: the rest must pass first time.
E2E_RERUNS = int(os.environ.get("E2E_RERUNS", "1"))


#: Why each rerun browser test failed the first time: (test, the error's last line).
RERUN_CAUSES: list[tuple[str, str]] = []


def pytest_runtest_logreport(report):
    """Keep why a browser test was rerun; pytest-rerunfailures lists only its name."""
    if report.outcome == "rerun":
        lines = [line for line in str(report.longreprtext).splitlines() if line.strip()]
        errors = [line for line in lines if line.startswith("E ")]
        named = [line for line in errors if "Error" in line]  # TimeoutError: Locator.click...
        cause = " ".join((named or errors[-1:] or lines[-1:])[0].split())
        RERUN_CAUSES.append((report.nodeid, cause[:300]))


def pytest_terminal_summary(terminalreporter):
    """Each rerun's first failure in one line, so a run that needed reruns says why."""
    if RERUN_CAUSES:
        terminalreporter.section("why the reruns failed the first time")
        for nodeid, cause in RERUN_CAUSES:
            terminalreporter.line(f"{nodeid}: {cause}")


def pytest_collection_modifyitems(config, items):
    if Path(CHROMIUM).exists() or os.environ.get("E2E_REQUIRED") == "1":
        for item in items:
            if "e2e" in item.keywords and E2E_RERUNS:
                item.add_marker(pytest.mark.flaky(reruns=E2E_RERUNS, reruns_delay=1))
        return
    skip = pytest.mark.skip(
        reason=f"browser tests skipped: {CHROMIUM} is not installed (apt-get install chromium)"
    )
    for item in items:
        if "e2e" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _chromium_required():
    """Under E2E_REQUIRED=1 (CI) a missing Chromium fails the tests instead of skipping."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"E2E_REQUIRED=1 but {CHROMIUM} is not installed")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": PHONE, "locale": "it-IT"}


_WARM: set[str] = set()


def _warm(url):
    """The live server's first answer (imports, templates compiled, static files found)
    once per server before a phone's first page: on a loaded box it took more than the
    phones' 10 s timeout, and each worker's first browser test failed on its first page
    (tests/e2e/test_club_home.py, tests/e2e/test_calendar_page.py, with or without the
    test database's template) while the same test passed second, in 3 s."""
    import urllib.error
    import urllib.request

    if url in _WARM:
        return
    for path in ("/", "/login"):
        try:
            urllib.request.urlopen(url + path, timeout=120).close()  # noqa: S310 - our server
        except urllib.error.HTTPError:
            pass  # an answer all the same
    _WARM.add(url)


def _answering(live_server):
    """The live server's threads: socketserver's, one per connection it accepted, until
    the connection is closed and its last answer sent."""
    serve = live_server.thread.httpd.process_request_thread
    return {t for t in threading.enumerate() if getattr(t, "_target", None) == serve}


def _quiet(live_server, before, timeout=30.0):
    """Wait for the connections opened since ``before`` to end. After the phones close, a
    request they sent last (the queue's round, a page's refresh) may still be at work in
    the live server, and its writes would land after the test's tables are emptied: in
    the next test's. (Connections already open before the phones, such as an HTTP client's
    pool left by an API test on this worker, may wait idle for ever: not theirs.)"""
    end = time.monotonic() + timeout
    while busy := _answering(live_server) - before:
        left = end - time.monotonic()
        if left <= 0:
            pytest.fail(f"the live server still answering {timeout:.0f} s after the phones closed")
        next(iter(busy)).join(left)


@pytest.fixture
def phone(browser, browser_context_args, live_server):
    """Make a new phone (a browser context) signed in as ``user``, in ``language``."""
    made = []
    _warm(live_server.url)
    before = _answering(live_server)

    def make(user=None, language="it"):
        context = browser.new_context(
            **{**browser_context_args, "locale": language}, base_url=live_server.url
        )
        context.set_default_timeout(10_000)
        if user is not None:
            from django.conf import settings
            from django.test import Client

            client = Client()
            client.force_login(user)
            cookie = client.cookies[settings.SESSION_COOKIE_NAME]
            context.add_cookies(
                [{"name": cookie.key, "value": cookie.value, "url": live_server.url}]
            )
        made.append(context)
        return context.new_page()

    yield make
    for context in made:
        context.close()
    _quiet(live_server, before)


@pytest.fixture(scope="session")
def shots():
    """Save a full-page screenshot of the page under a name; returns the path."""
    ARTIFACTS.mkdir(exist_ok=True)

    def shoot(page, name):
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return shoot


@pytest.fixture(scope="session")
def axe():
    """Run axe-core on a page; fail on any serious or critical violation."""
    from axe_playwright_python.sync_playwright import Axe

    checker = Axe()

    def check(page, name):
        results = checker.run(page)
        bad = [
            f"{v['id']} ({v['impact']}): {v['help']} -> "
            + "; ".join(n["target"][0] for n in v["nodes"][:3])
            for v in results.response["violations"]
            if v.get("impact") in ("serious", "critical")
        ]
        assert not bad, f"{name}: " + " | ".join(bad)

    return check


@pytest.fixture
def players(transactional_db):
    """Circolo San Rocco: a director, two scorers and two members, each a player with an
    account (Ettore has a table PIN). Returns the users by name."""
    from django.contrib.auth import get_user_model

    from scorebook.clubs.models import Club, Membership, Player
    from scorebook.web.services import pin_set

    users = get_user_model().objects
    club = Club.objects.create(name="Circolo San Rocco", slug="san-rocco")
    people = {}
    for name, role in (
        ("direttore", "director"),
        ("nino", "scorer"),
        ("ettore", "scorer"),
        ("salvo", "member"),
        ("walter", "member"),
    ):
        people[name] = users.create_user(name, password="pw-" + name)
        Membership.objects.create(club=club, user=people[name], role=role)
        if name != "direttore":
            Player.objects.create(club=club, name=name.capitalize(), user=people[name])
    pin_set(user=people["ettore"], pin="2468")
    return people


@pytest.fixture
def night(players):
    """Friday's night with a Tressette match (accuso 41), opened through the services."""
    from scorebook.clubs.models import Player
    from scorebook.matches import services

    director = players["direttore"]
    ids = dict(Player.objects.values_list("name", "pk"))
    night = services.night_open(
        club_id=director.memberships.get().club_id, date="2026-11-20", venue="", user=director
    )
    seats = {s: ids[n] for s, n in zip("NESW", ("Nino", "Ettore", "Salvo", "Walter"), strict=True)}
    night.people = players
    night.tressette = services.match_create(
        night=night,
        game="tressette4",
        rules={"profile": "accuso_41"},
        seats=seats,
        user=director,
    )
    return night
