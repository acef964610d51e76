"""`make fuzz-pages`: every form of every page and every query parameter, with hostile
values, as each role and anonymously, against gunicorn on PostgreSQL (as `make fuzz` does
for the API, whose helpers it reuses).

What is fuzzed is found, not listed: the routes come from the URLconf (each filled with the
ids of the demo club's objects), then every page is crawled for its links and its HTML
forms (``<form>`` with its inputs, selects, textareas and named buttons, and the htmx
``hx-post``/``hx-get`` addresses), and the query parameters are those the links carry
plus every ``request.GET.get("...")`` the page views read. So a new page, form or
parameter is fuzzed without editing this file.

Each form is sent: with each field in turn set to each hostile value (NUL, a lone
surrogate, ``²``, 10,000 characters, huge and negative numbers, deep and huge JSON,
another club's ids), with every field missing, then as the page filled it, then that
again four times at once (duplicate submissions). Each page is asked for with its query
parameters set to each hostile value. A POST answered with anything but a redirect was
refused: the rows of the domain's tables are counted before and after, and must not
change. At the end gunicorn's own access log is read, as `make fuzz` does: a single 5xx
fails the run, and so does anything stored by a refused form.

Then the import's file fuzzer (deploy/checks/fuzz_files.py: CSV and XLSX truncated, bits
flipped, wrong encodings, huge cells, many columns, formulas, digits that are not ASCII
in every column, zip bombs, malformed XML, XXE, billion laughs, sizes around the limit)
uploads each file as the director and follows its check: no 5xx, and nothing of the
club's record stored (FUZZ_FILES_SECONDS, default 300).

Bounded: FUZZ_PAGES_SECONDS in all (default 300), shared among the roles (the powerful
ones, which see the most forms, get the most), and every route plus FUZZ_PAGES_MAX_PAGES
pages found by links crawled per role (default 80). Within a role's time the query
parameters come first, then the forms breadth first (every form's fields with the first
hostile value, then the next...), so a deadline leaves no form untried; each role's line
says how many forms got every value.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urljoin, urlsplit

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from deploy.bench.common import fresh_database, wait_until_up  # noqa: E402
from deploy.checks.fuzz import answers, run  # noqa: E402

PY = sys.executable
BIN = Path(PY).parent
PORT = int(os.environ.get("FUZZ_PAGES_PORT", "8767"))
DB_URL = os.environ.get(
    "FUZZ_PAGES_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/scorebook_fuzz_pages"
)
SECONDS = float(os.environ.get("FUZZ_PAGES_SECONDS", "300"))
MAX_PAGES = int(os.environ.get("FUZZ_PAGES_MAX_PAGES", "80"))
#: The import's file fuzzer's time (deploy/checks/fuzz_files.py), after the forms.
FILES_SECONDS = float(os.environ.get("FUZZ_FILES_SECONDS", "300"))
DUPLICATES = 4
#: Least to most powerful: the powerful ones' valid submissions (close a night, remove a
#: member) come last, after the others have been refused everything.
#: The owner (demo) is the demo federation's president; the secretary is its secretary.
ROLES = ("anonymous", "stranger", "member", "scorer", "secretary", "director", "owner")
#: Each role's share of FUZZ_PAGES_SECONDS; the roles with few values send FEW.
SHARE = {"anonymous": 0.1, "stranger": 0.07, "member": 0.08, "scorer": 0.17, "secretary": 0.08,
         "director": 0.2, "owner": 0.3}  # fmt: skip
FULL = {"anonymous", "scorer", "secretary", "director", "owner"}
PASSWORD = "Fuzz-only-7sette"
#: Never submitted: it ends the session the rest of the run uses.
SKIP_ACTIONS = ("/logout",)

SETUP = """
import datetime, json
from django.contrib.auth import get_user_model
from scorebook.clubs import services as clubs
from scorebook.clubs.models import Club, Membership, Player
from scorebook.matches import services
from scorebook.matches.models import Deal, Match, Night
from scorebook.standings.leagues import services as leagues
from scorebook.standings import services as standings

PASSWORD = %r
User = get_user_model()
demo = User.objects.get(username="demo")
demo.set_password(PASSWORD)
demo.save()
club = Club.objects.get(slug="san-rocco")
users = {"owner": "demo"}
for role in ("director", "scorer", "member"):
    user = User.objects.create_user(f"fuzz-{role}", password=PASSWORD)
    Membership.objects.create(club=club, user=user, role=role)
    users[role] = user.username
stranger = User.objects.create_user("fuzz-stranger", password=PASSWORD)
users["stranger"] = stranger.username
secretary = User.objects.get(username="segreteria")  # the demo federation's (load_demo)
secretary.set_password(PASSWORD)
secretary.save()
users["secretary"] = secretary.username
other = clubs.club_create(name="Altrove", slug="altrove", user=stranger, public=True)
far = [clubs.player_create(club=other, name=n, user=stranger) for n in "ABCD"]
today = datetime.date.today()
far_night = services.night_open(club_id=other.pk, date=today, venue="", user=stranger)
far_table = services.table_create(night=far_night, number=1, name="", user=stranger)
far_match = services.match_create(
    night=far_night, game="tressette4", rules={"profile": "classic_21"}, table=far_table,
    seats=dict(zip("NESW", (p.pk for p in far), strict=True)), first_dealer="N", user=stranger,
)
far_league = leagues.league_create(club=other, name="Lontana", user=stranger, game="tressette4")
tonight = Night.objects.filter(club=club, status="open").order_by("-date").first()
match = Match.objects.filter(night=tonight).order_by("pk").first()
deal = Deal.objects.filter(match__night__club=club, is_current=True).order_by("-pk").first()
league = leagues.league_create(
    club=club, name="Coppa fuzz", user=demo, game="tressette4", kind="players"
)
draft = leagues.league_create(
    club=club, name="Bozza fuzz", user=demo, game="tressette4", kind="players"
)
everyone = list(Player.objects.filter(club=club).order_by("pk"))
for number, player in enumerate(everyone[:4]):  # a started league: fixtures, their forms
    leagues.entry_add(league=league, name=f"E{number}", player_ids=[player.pk], user=demo)
season = standings.season_create(
    club_id=club.pk, name="fuzz", starts_on=datetime.date(2026, 9, 1), ends_on=None, user=demo
)
leagues.league_start(league=league, user=demo)
invitation = clubs.invitation_create(club=club, role="member", user=demo, max_uses=50)
player = Player.objects.filter(club=club).order_by("pk").first()
closed = Night.objects.filter(club=club, status="closed").order_by("pk").first()
from scorebook.tournaments.services.registration import entry_add  # noqa: E402
from scorebook.tournaments.services.rounds import round_start  # noqa: E402
from scorebook.tournaments.services.setup import tournament_create  # noqa: E402

cup = tournament_create(  # tonight's tournament, round 1 playing: every form
    night=tonight, name="Torneo fuzz", game="tressette4", rules={"profile": "classic_21"},
    user=demo, entry_fee="5", currency="EUR", prizes=["60", "40"],
)
for number in range(4):
    entry_add(
        tournament=cup, players=[f"Fuzz {number}A", f"Fuzz {number}B"], user=demo
    )
round_start(tournament=cup, user=demo)
from scorebook.federations.models import Championship, FederalTournament  # noqa: E402
from scorebook.federations.services import championships as champs  # noqa: E402

under_way = Championship.objects.get(federation__slug="comitato-palermo")
entries = champs.championship_create(  # taking entries: the team form, the start button
    federation=under_way.federation, name="Coppa fuzz", season="2026/27", game="tressette4",
    rules_spec={"profile": "classic_21"}, user=demo,
)
fixture = (
    under_way.fixtures.filter(status="planned").order_by("pk").first()
    or under_way.fixtures.order_by("pk").first()
)
federal = FederalTournament.objects.filter(federation=under_way.federation).order_by("pk").first()
print(json.dumps({
    "users": users,
    "ids": {
        "slug": club.slug, "night": tonight.pk, "closed": closed.pk, "match": match.pk,
        "deal": deal.pk, "league": league.pk, "player": player.pk, "season": season.pk,
        "token": invitation.token, "invitation": invitation.pk, "tournament": cup.pk,
        "federation": "comitato-palermo", "championship": [under_way.pk, entries.pk],
        "fixture": fixture.pk, "federal": federal.pk,
    },
    "foreign": [far_night.pk, far_table.pk, far_match.pk, far_league.pk, far[0].pk, other.pk],
}))
"""

DEEP_JSON = "[" * 5000 + "]" * 5000
#: For every field and query parameter.
HOSTILE = [
    "²", "9" * 4400, "\x00", "", "1.5", "9223372036854775808", "x" * 10_000, "\ud800",
    "-9223372036854775809", "-1", "0", "٣", "a\x00b",
]  # fmt: skip
#: Besides, for a textarea (a pasted play record, a reason).
HOSTILE_JSON = [DEEP_JSON, '{"a": ' + "9" * 5000 + "}", '{"deals": [' + DEEP_JSON + "]}"]
#: What the less powerful roles send (they are refused before any field is read).
FEW = ["\x00", "²", "9" * 4400]


# -- the pages' HTML: links and forms ----------------------------------------------------


class Form:
    def __init__(self, method: str, action: str) -> None:
        self.method, self.action = method, action
        self.fields: list[tuple[str, str]] = []
        self.buttons: list[tuple[str, str]] = []
        self.choices: dict[str, list[str]] = {}
        self.texts: set[str] = set()

    def key(self) -> tuple[Any, ...]:
        """The same form on another object (each deal's confirm button) is fuzzed once:
        by its route, not its address."""
        from django.urls import Resolver404, resolve

        path = urlsplit(self.action).path
        try:
            route = resolve(path).route
        except Resolver404:
            route = path
        names = sorted({n for n, _ in self.fields} | {n for n, _ in self.buttons})
        return (self.method, route, tuple(names))


class Page(HTMLParser):
    """Links, htmx addresses and forms of one page."""

    def __init__(self, url: str) -> None:
        super().__init__(convert_charrefs=True)
        self.url = url
        self.links: list[str] = []
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._select: str | None = None
        self._selected: str | None = None
        self._textarea: str | None = None
        self._text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "option":
            if self._form is not None and self._select is not None:
                self._form.choices[self._select].append(a.get("value", ""))
                if "selected" in a:
                    self._selected = a.get("value", "")
            return
        for attr in ("href", "hx-get"):
            if attr in a and tag != "link":
                self.links.append(urljoin(self.url, a[attr]))
        if tag == "form":
            action = urljoin(self.url, a.get("action") or a.get("hx-post") or self.url)
            self._form = Form(a.get("method", "get").lower(), action)
            self.forms.append(self._form)
            if a.get("hx-post") and a.get("action"):  # the live check beside the save
                extra = Form("post", urljoin(self.url, a["hx-post"]))
                extra.fields = self._form.fields  # the same fields, shared
                self.forms.append(extra)
        form = self._form
        if form is None or "name" not in a:
            if tag in ("input", "select", "textarea") and "hx-post" in a and form is not None:
                self.forms.append(_shared(form, urljoin(self.url, a["hx-post"])))
            return
        name = a["name"]
        if "hx-post" in a:
            self.forms.append(_shared(form, urljoin(self.url, a["hx-post"])))
        if tag == "input":
            kind = a.get("type", "text").lower()
            if kind in ("submit", "button", "image"):
                form.buttons.append((name, a.get("value", "")))
            elif kind in ("checkbox", "radio"):
                form.choices.setdefault(name, []).append(a.get("value", "on"))
                if "checked" in a:
                    form.fields.append((name, a.get("value", "on")))
            else:
                form.fields.append((name, a.get("value", "")))
        elif tag == "button":
            form.buttons.append((name, a.get("value", "")))
        elif tag == "select":
            self._select, self._selected = name, None
            form.choices[name] = []
        elif tag == "textarea":
            self._textarea, self._text = name, ""
            form.texts.add(name)

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select" and self._form is not None and self._select is not None:
            options = self._form.choices.get(self._select, [])
            value = self._selected if self._selected is not None else (options or [""])[0]
            self._form.fields.append((self._select, value))
            self._select = None
        elif tag == "textarea" and self._form is not None and self._textarea is not None:
            self._form.fields.append((self._textarea, self._text))
            self._textarea = None

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def unknown_decl(self, data: str) -> None:  # pragma: no cover - malformed HTML
        pass


def _shared(form: Form, action: str) -> Form:
    extra = Form("post", action)
    extra.fields = form.fields
    extra.buttons = form.buttons
    return extra


# -- the server's routes ------------------------------------------------------------------

#: The object a route's id names, by the path segment before it.
SEGMENT_OBJECT = {
    "n": "night", "m": "match", "d": "deal", "invite": "invitation", "t": "tournament",
    "championships": "championship", "fixtures": "fixture", "tournaments": "federal",
}  # fmt: skip
PARAM_OBJECT = {
    "match_id": "match", "deal_id": "deal", "league_id": "league", "player_id": "player",
    "slug": "slug", "token": "token", "fed": "federation",
}  # fmt: skip
CONVERTER = re.compile(r"<(?:(?P<conv>[^>:]+):)?(?P<name>[^>]+)>")


def route_urls(ids: dict[str, Any]) -> list[str]:
    """Every page route of the URLconf, its parameters filled with the demo club's ids."""
    from django.urls import URLPattern, URLResolver, get_resolver

    def walk(patterns: list[Any], prefix: str):
        for p in patterns:
            route = str(p.pattern)
            if isinstance(p, URLResolver):
                if route.startswith(("admin/", "api/")):
                    continue
                yield from walk(p.url_patterns, prefix + route)
            elif isinstance(p, URLPattern):
                yield prefix + route

    actions = _league_actions()
    urls: list[str] = []
    for route in walk(get_resolver().url_patterns, ""):
        if route.startswith("^") or "(?P" in route:
            continue
        filled = [route]
        for found in CONVERTER.finditer(route):
            name = found.group("name")
            if name == "action":
                values = actions
            elif name == "pk":
                before = route[: found.start()].rstrip("/").rsplit("/", 1)[-1]
                named = ids[SEGMENT_OBJECT.get(before, "night")]
                # an object or several (a championship started and one taking entries)
                values = [str(v) for v in (named if isinstance(named, list) else [named])]
            else:
                values = [str(ids[PARAM_OBJECT.get(name, "night")])]
            filled = [f.replace(found.group(0), v, 1) for f in filled for v in values]
        urls.extend("/" + f for f in filled)
    return urls


def _league_actions() -> list[str]:
    """The actions the league page's view answers (read from its source)."""
    source = (ROOT / "scorebook/web/views/leagues.py").read_text()
    return sorted(set(re.findall(r'action (?:==|in) \(?"(\w+)"', source))) or ["entry"]


def query_names() -> set[str]:
    """Every query parameter a page view reads."""
    names: set[str] = set()
    for path in (ROOT / "scorebook/web/views").glob("*.py"):
        names |= set(re.findall(r'GET\.get\(\s*"(\w+)"', path.read_text()))
    return names


# -- rows stored ---------------------------------------------------------------------------


def row_counter():
    """A function counting the rows of every table of the project's own apps (not
    sessions, login attempts, the cache or the API's idempotency answers) in one query."""
    from django.apps import apps
    from django.db import connection

    tables = sorted(
        m._meta.db_table
        for m in apps.get_models()
        if m.__module__.startswith("scorebook.") and not m._meta.proxy and m._meta.managed
    )
    sql = "SELECT " + ", ".join(f'(SELECT count(*) FROM "{t}")' for t in tables)

    def count() -> dict[str, int]:
        with connection.cursor() as cursor:
            cursor.execute(sql)
            return dict(zip(tables, cursor.fetchone(), strict=True))

    return count


# -- the fuzzer ----------------------------------------------------------------------------


def encode(pairs: list[tuple[str, str]]) -> bytes:
    """A form body; lone surrogates go as the bytes a broken client would send."""
    return urlencode(pairs, encoding="utf-8", errors="surrogatepass").encode("ascii")


class Fuzzer:
    def __init__(self, base: str, foreign: list[str], names: set[str], count) -> None:
        import requests

        self.requests = requests
        self.base, self.foreign, self.names, self.count = base, foreign, names, count
        self.full = True
        self.sent = 0
        self.statuses: Counter[int] = Counter()
        self.stored: list[str] = []
        self.failures: list[str] = []

    def session(self, role: str, username: str | None):
        s = self.requests.Session()
        if username is None:
            return s
        s.get(f"{self.base}/login", timeout=30)
        token = s.cookies.get("csrftoken", "")
        answer = s.post(
            f"{self.base}/login",
            data={"username": username, "password": PASSWORD, "csrfmiddlewaretoken": token},
            headers={"Referer": f"{self.base}/login"},
            allow_redirects=False,
            timeout=30,
        )
        if answer.status_code != 302:
            raise RuntimeError(f"could not log in as {role}: {answer.status_code}")
        return s

    def send(self, s, method: str, url: str, body: bytes | None = None):
        headers = {"Referer": url}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = s.cookies.get("csrftoken", "")
        try:
            answer = s.request(
                method, url, data=body, headers=headers, allow_redirects=False, timeout=60
            )
        except self.requests.RequestException as exc:
            self.failures.append(f"{method} {url[:120]}: {type(exc).__name__}")
            return None
        self.sent += 1
        self.statuses[answer.status_code] += 1
        if answer.status_code >= 500:
            self.failures.append(f"{answer.status_code} {method} {url[:120]}")
        return answer

    def crawl(self, s, start: list[str], deadline: float) -> tuple[list[str], list[Form]]:
        seen: set[str] = set()
        queue = list(dict.fromkeys(start))
        pages: list[str] = []
        forms: dict[tuple[Any, ...], Form] = {}
        # every route of the URLconf once, then up to MAX_PAGES more found by their links
        # (the limit counted them too: the routes last in the URLconf, the federation's,
        # were never reached by the roles that see most pages)
        most = len(queue) + MAX_PAGES
        while queue and len(pages) < most and time.monotonic() < deadline:
            url = queue.pop(0)
            path = urlsplit(url)
            if path.netloc and f"{path.scheme}://{path.netloc}" != self.base:
                continue
            url = self.base + path.path + (f"?{path.query}" if path.query else "")
            if url in seen or path.path.startswith(("/static/", "/admin", "/api/")):
                continue
            seen.add(url)
            answer = self.send(s, "GET", url)
            if answer is None or answer.status_code != 200:
                continue
            pages.append(url)
            if "html" not in answer.headers.get("Content-Type", ""):
                continue
            page = Page(url)
            page.feed(answer.text)
            for name, _ in (q for link in page.links for q in parse_qsl(urlsplit(link).query)):
                self.names.add(name)
            queue.extend(page.links)
            for form in page.forms:
                if not any(urlsplit(form.action).path.startswith(p) for p in SKIP_ACTIONS):
                    forms.setdefault(form.key(), form)
        return pages, list(forms.values())

    def query(self, s, pages: list[str], deadline: float) -> None:
        """Each route once (the first page of it), every parameter set to each value."""
        from django.urls import Resolver404, resolve

        routes: dict[str, str] = {}
        for url in pages:
            try:
                routes.setdefault(resolve(urlsplit(url).path).route, urlsplit(url).path)
            except Resolver404:
                continue
        for path in routes.values():
            for value in HOSTILE if self.full else FEW:
                if time.monotonic() > deadline:
                    return
                query = "&".join(
                    f"{quote(n)}={quote(value, errors='surrogatepass')}" for n in self.names
                )
                self.send(s, "GET", f"{self.base}{path}?{query}")

    def submit(self, s, form: Form, pairs: list[tuple[str, str]], what: str) -> None:
        if form.method != "post":
            query = urlencode(pairs, encoding="utf-8", errors="surrogatepass")
            self.send(s, "GET", f"{form.action.split('?')[0]}?{query}")
            return
        before = self.count()
        answer = self.send(s, "POST", form.action, encode(pairs))
        if answer is None or 300 <= answer.status_code < 400:
            return
        after = self.count()
        changed = {t: after[t] - before[t] for t in after if after[t] != before[t]}
        if changed:
            self.stored.append(f"{answer.status_code} POST {form.action} ({what}): {changed}")

    def variants(self, form: Form) -> list[tuple[str, str]]:
        """(field, hostile value) pairs for ``form``, most telling values first."""
        base = dict(form.fields)
        names = list(dict.fromkeys([n for n, _ in form.fields] + [n for n, _ in form.buttons]))
        names = [n for n in names if n != "csrfmiddlewaretoken"]
        per_name = {}
        for name in names:
            values = list(HOSTILE if self.full else FEW)
            if self.full and name in form.texts:
                values += HOSTILE_JSON
            if self.full and (base.get(name, "").isdigit() or name in form.choices):
                values += self.foreign  # another club's ids
            per_name[name] = values
        longest = max((len(v) for v in per_name.values()), default=0)
        return [
            (name, values[i])
            for i in range(longest)
            for name, values in per_name.items()
            if i < len(values)
        ]

    def fuzz_forms(self, s, forms: list[Form], deadline: float) -> int:
        """Breadth first, so that a deadline leaves no form untried: each form's fields
        with the first hostile value, then the next...; then each form with every field
        missing, as the page filled it, and that again DUPLICATES times at once (the
        last quarter of the time is kept for these). Returns how many forms got all."""
        csrf = [("csrfmiddlewaretoken", s.cookies.get("csrftoken", ""))]
        hostile_until = deadline - (deadline - time.monotonic()) / 4
        plans = [(form, self.variants(form)) for form in forms]
        complete = sum(not variants for _, variants in plans)
        for step in range(max((len(v) for _, v in plans), default=0)):
            for form, variants in plans:
                if step >= len(variants) or time.monotonic() > hostile_until:
                    continue
                name, value = variants[step]
                base = [(n, v) for n, v in form.fields + form.buttons[:1]]
                pairs = [(n, value if n == name else v) for n, v in base]
                if name not in dict(pairs):
                    pairs.append((name, value))
                self.submit(s, form, csrf + pairs, f"{name}={value[:12]!r}")
                complete += step == len(variants) - 1
        for form in forms:
            if time.monotonic() > deadline:
                break
            self.submit(s, form, csrf, "every field missing")
            for button in form.buttons[:3] or [None]:
                pairs = csrf + form.fields + ([button] if button else [])
                self.submit(s, form, pairs, "as filled")
                if form.method == "post":
                    self.duplicates(s, form, pairs)
        return complete

    def duplicates(self, s, form: Form, pairs: list[tuple[str, str]]) -> None:
        body = encode(pairs)
        threads = [
            threading.Thread(target=self.send, args=(s, "POST", form.action, body))
            for _ in range(DUPLICATES)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()


def main() -> int:
    # Stopped from outside: through the finally below, so gunicorn is stopped too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "CACHE_URL"))}
    env.update(
        DATABASE_URL=DB_URL,
        DEBUG="1",  # only for load_demo, which refuses to run with DEBUG off
        SECRET_KEY="fuzz-only-" + "x" * 50,
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="0",  # plain HTTP to gunicorn, as nginx speaks to it:
        SESSION_COOKIE_SECURE="0",  # so the client's cookies go over it too
        CSRF_COOKIE_SECURE="0",
        LOG_LEVEL="WARNING",
        THROTTLE_SCORE_RATE="100000/min",
        THROTTLE_PUBLIC_RATE="100000/min",
    )
    fresh_database(DB_URL)
    run(PY, "manage.py", "migrate", "--noinput", "-v0", env=env)
    run(PY, "manage.py", "createcachetable", env=env)
    run(PY, "manage.py", "collectstatic", "--noinput", "-v0", env={**env, "DEBUG": "0"})
    run(PY, "manage.py", "load_demo", env=env, capture_output=True)
    made = run(
        PY, "manage.py", "shell", "-c", SETUP % PASSWORD, env=env, capture_output=True, text=True
    )
    world = json.loads(made.stdout.strip().splitlines()[-1])
    env["DEBUG"] = "0"
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "scorebook.settings"
    import django

    django.setup()
    logs = tempfile.mkdtemp(prefix="scorebook-fuzz-pages-")
    access = os.path.join(logs, "access.log")
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
    fuzzer = Fuzzer(base, [str(i) for i in world["foreign"]], query_names(), row_counter())
    routes = [base + u for u in route_urls(world["ids"])]
    files: dict[str, Any] = {"failures": ["the file fuzzer did not run"], "stored": {}}
    try:
        wait_until_up(base)
        for role in ROLES:
            started, sent = time.monotonic(), fuzzer.sent
            deadline = started + SECONDS * SHARE[role]
            fuzzer.full = role in FULL
            s = fuzzer.session(role, world["users"].get(role))
            pages, forms = fuzzer.crawl(s, routes, deadline)
            left = deadline - time.monotonic()
            fuzzer.query(s, pages, time.monotonic() + left / 4)
            done = fuzzer.fuzz_forms(s, forms, deadline)
            print(
                f"fuzz-pages: as {role}: {len(pages)} pages, {done} of {len(forms)} forms, "
                f"{fuzzer.sent - sent} requests in {time.monotonic() - started:.0f} s",
                flush=True,
            )
        files = upload_files(fuzzer, base, world)
    finally:
        server.terminate()
        server.wait(timeout=30)
        server_log.close()
    statuses = answers(access)
    with open(os.path.join(logs, "server.log")) as log:
        logged = [line for line in log if '"level": "ERROR"' in line or "Traceback" in line]
    for line in logged[:30]:
        print(f"fuzz-pages: server log: {line.rstrip()[:400]}", file=sys.stderr)
    shutil.rmtree(logs, ignore_errors=True)
    for line in (fuzzer.failures + fuzzer.stored)[:40]:
        print(f"fuzz-pages: {line}", file=sys.stderr)
    total = sum(statuses.values())
    errors = sum(n for code, n in statuses.items() if code >= 500)
    print(
        f"fuzz-pages: the server answered {total} requests: "
        + ", ".join(f"{code}: {n}" for code, n in sorted(statuses.items()))
    )
    print(
        f"fuzz-pages: {errors} answers 5xx, {len(fuzzer.stored)} refused forms stored rows, "
        f"{len([f for f in fuzzer.failures if not f[:1].isdigit()])} requests failed"
    )
    bad_files = files["failures"] + [f"stored {files['stored']}"] * bool(files["stored"])
    return 1 if errors or fuzzer.stored or fuzzer.failures or bad_files else 0


def upload_files(fuzzer: Fuzzer, base: str, world: dict[str, Any]) -> dict[str, Any]:
    """The import's file fuzzer (deploy/checks/fuzz_files.py) through the upload page, as
    the director: each file uploaded, its check followed to the import's page (the check
    runs in-process here: no broker), and nothing of the club's record stored."""
    from deploy.checks.fuzz_files import club_record_counter, leftovers, run_files

    s = fuzzer.session("director", world["users"]["director"])
    page = f"{base}/c/{world['ids']['slug']}/import"

    def send(name: str, data: bytes):
        token = s.cookies.get("csrftoken", "")
        try:
            answer = s.post(
                page,
                data={"csrfmiddlewaretoken": token},
                files={"file": (name, data)},
                headers={"Referer": page},
                allow_redirects=False,
                timeout=300,
            )
        except fuzzer.requests.RequestException as exc:
            fuzzer.failures.append(f"upload {name}: {type(exc).__name__}")
            return None
        fuzzer.sent += 1
        return answer

    def follow(answer) -> tuple[str, int]:
        if answer.status_code != 302:
            return f"refused at once ({answer.status_code})", answer.status_code
        shown = s.get(base + answer.headers["Location"], timeout=120)
        fuzzer.sent += 1
        text = shown.text
        outcome = (
            "preview" if "Import these nights" in text
            else "refused by its check" if "Rows to correct" in text
            else "other"
        )  # fmt: skip
        return outcome, shown.status_code

    started = time.monotonic()
    found = run_files(send, follow, club_record_counter(), seconds=FILES_SECONDS)
    found["failures"] += leftovers()
    print(
        f"fuzz-pages: files: {found['sent']} uploaded in {time.monotonic() - started:.0f} s: "
        + ", ".join(f"{k}: {n}" for k, n in sorted(found["outcomes"].items()))
        + f"; answers {dict(sorted(found['statuses'].items()))}; "
        f"{len(found['failures'])} failures, stored by a refusal: {found['stored'] or 'nothing'}",
        flush=True,
    )
    for line in found["failures"][:20]:
        print(f"fuzz-pages: files: {line}", file=sys.stderr)
    return found


if __name__ == "__main__":
    sys.exit(main())
