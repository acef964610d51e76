"""Every output of a club, as the text a reader gets, and a search of it for a person's
names (issue 31: after an erasure the name is in none of them).

``outputs(club)`` reads, with GET only:

- the pages: every page a director of the club reaches by links from the club's home,
  their own account page and the club's menus (PDFs and CSVs linked from them included),
  and every public page an anonymous visitor reaches from the club's public page;
- the API: every GET operation of the OpenAPI schema, each with every object of the club
  its path names (and every season, game of the club its required query asks for),
  following the pages of a list; the public API anonymously. A new operation whose path
  this module cannot fill makes ``outputs`` fail: it is crawled from the day it exists;
- both ZIP exports: the club's (page and API) and each member's own data (``/me``);
- the calendar feeds (ICS): each member's, each league's and the public one.

Each answer is turned into what a person reads: a PDF's text (pypdf, and its raw streams
and metadata), a ZIP's every file, JSON without escapes, HTML and URLs unescaped, ICS
unfolded. ``holding(crawl, names)`` lists the outputs that hold one of ``names`` in any
case and any spelling (only letters and digits are compared: ``zebulon_quixote.csv``,
``ZebulonQuixote`` and ``Zebulon Quixote`` are one name).

The stateful test (issue 31 item 3) calls ``outputs`` after an erasure; the erasure crawl
(``tests/archive/test_erasure_crawl.py``) counts the outputs before and after.
"""

from __future__ import annotations

import html
import io
import itertools
import json
import re
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote_plus, urlsplit

from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from scorebook.clubs.models import ROLE_RANK, Club, Membership, Player, Role
from scorebook.federations.models import (
    Affiliation,
    Championship,
    ChampionshipFixture,
    ClubInvitation,
    FederalTournament,
    Federation,
    PersonLink,
)
from scorebook.history.models import Import
from scorebook.ledger.models import Entry as LedgerEntry
from scorebook.matches.models import Deal, Match, Night, Table
from scorebook.sharing.services import calendar_feed_for
from scorebook.standings.models import Fixture, League, LeagueEntry, Season
from scorebook.tournaments.models import Tournament

#: Where the page crawl does not go: leaving, the static files, the API (crawled apart),
#: the admin, other people's invitations, the login form.
SKIP = ("/logout", "/static/", "/sw.js", "/api/", "/admin/", "/join/", "/login")
LINK = re.compile(r'(?:href|hx-get|src)="(/[^"#]*)"')
#: The API's operations that read no club's data (the engine's games and schemas).
NOT_A_CLUBS = ("/api/v1/rules/",)


@dataclass
class Crawl:
    """What was read: each output's text and answer status, by ``who url``."""

    texts: dict[str, str] = field(default_factory=dict)
    statuses: dict[str, int] = field(default_factory=dict)

    def add(self, key: str, status: int, text: str) -> None:
        self.texts[key] = text
        self.statuses[key] = status

    def errors(self) -> list[str]:
        """Outputs that answered 5xx (never expected)."""
        return sorted(k for k, status in self.statuses.items() if status >= 500)

    def kinds(self) -> dict[str, int]:
        """How many outputs of each kind (page, api, pdf, csv, zip, ics)."""
        counts: dict[str, int] = {}
        for key in self.texts:
            counts[kind_of(key)] = counts.get(kind_of(key), 0) + 1
        return counts


def kind_of(key: str) -> str:
    path = key.split(" ", 1)[1].split("?")[0]
    for kind in ("pdf", "csv", "zip", "ics"):
        if path.endswith((f".{kind}", f"/{kind}")):
            return kind
    if path.endswith("/export"):
        return "zip"
    return "api" if path.startswith("/api/") else "page"


# -- what a reader reads --------------------------------------------------------------------


def _pdf_text(body: bytes) -> str:
    from pypdf import PdfReader

    parts = []
    reader = PdfReader(io.BytesIO(body))
    parts += [page.extract_text() or "" for page in reader.pages]
    parts += [str(value) for value in (reader.metadata or {}).values()]
    for stream in re.findall(rb"stream\r?\n(.*?)endstream", body, re.S):
        data = b"".join(stream.split())
        try:
            if data.endswith(b"~>"):  # reportlab: ASCII85, then Flate
                import base64

                data = base64.a85decode(data[:-2])
            parts.append(zlib.decompress(data).decode("latin-1"))
        except (ValueError, zlib.error):
            continue
    return "\n".join(parts)


def text_of(body: bytes, content_type: str) -> str:
    """What a person reads in an answer."""
    kind = content_type.split(";")[0].strip()
    if kind == "application/pdf":
        return _pdf_text(body)
    if kind == "application/zip" or body[:2] == b"PK":
        archive = zipfile.ZipFile(io.BytesIO(body))
        return "\n".join(
            f"== {name}\n" + text_of(archive.read(name), _type_of(name))
            for name in archive.namelist()
        )
    text = body.decode("utf-8", "replace")
    if kind.endswith("json"):
        try:
            return json.dumps(json.loads(text), ensure_ascii=False)
        except ValueError:
            return text
    if kind == "text/calendar":
        return re.sub(r"\r?\n[ \t]", "", text)  # RFC 5545 folds long lines
    return text


def _type_of(name: str) -> str:
    return {
        "json": "application/json",
        "pdf": "application/pdf",
        "ics": "text/calendar",
    }.get(name.rsplit(".", 1)[-1], "text/plain")


def _letters(text: str) -> str:
    return re.sub(r"[\W_]+", "", text).casefold()


def _readable(text: str) -> str:
    """The text as read, with its HTML entities and URL escapes undone (a share link's
    ``?text=Zebulon%20Quixote``), letters and digits only, in one case."""
    return "\n".join(_letters(t) for t in (text, html.unescape(text), unquote_plus(text)))


def holding_text(text: str, names: Iterable[str]) -> bool:
    """Does ``text`` hold one of ``names``, in any case and spelling?"""
    readable = _readable(text)
    return any(key in readable for key in map(_letters, names) if key)


def holding(crawl: Crawl, names: Iterable[str]) -> list[str]:
    """The outputs that hold one of ``names`` in any case and spelling."""
    names = list(names)
    return sorted(url for url, text in crawl.texts.items() if holding_text(text, names))


# -- who reads --------------------------------------------------------------------------------


def _director(club: Club) -> Any:
    """An active account of the club with the highest role (the owner, else a director)."""
    found = [
        m
        for m in Membership.objects.filter(club=club, user__is_active=True).select_related("user")
        if ROLE_RANK[Role(m.role)] >= ROLE_RANK[Role.DIRECTOR]
    ]
    assert found, f"club {club.pk} has no active director to crawl as"
    return max(found, key=lambda m: ROLE_RANK[Role(m.role)]).user


def _get(client: Any, url: str) -> tuple[int, str, str]:
    response = client.get(url)
    body = (
        b"".join(response.streaming_content)
        if getattr(response, "streaming", False)
        else response.content
    )
    kind = response.get("Content-Type", "")
    return response.status_code, kind, text_of(body, kind) if body else ""


# -- the pages ---------------------------------------------------------------------------------


def pages(crawl: Crawl, who: str, client: Any, starts: Iterable[str], limit: int) -> None:
    """Every page reachable from ``starts`` by links (GET only)."""
    seen: set[str] = set()
    queue = list(starts)
    while queue and len(seen) < limit:
        url = queue.pop(0)
        if url in seen or url.startswith(SKIP):
            continue
        seen.add(url)
        status, kind, text = _get(client, url)
        crawl.add(f"{who} {url}", status, text)
        if status == 200 and kind.startswith("text/html"):
            queue += [html.unescape(link) for link in LINK.findall(text)]


# -- the API ------------------------------------------------------------------------------------

_SCHEMA: list[tuple[str, list[str]]] = []


def _get_operations() -> list[tuple[str, list[str]]]:
    """(path, required query parameters) of every GET operation of the API's schema."""
    if not _SCHEMA:
        from drf_spectacular.generators import SchemaGenerator

        schema = SchemaGenerator().get_schema(request=None, public=True)
        for path, operations in schema["paths"].items():
            if "get" in operations:
                required = [
                    p["name"]
                    for p in operations["get"].get("parameters", [])
                    if p["in"] == "query" and p.get("required")
                ]
                _SCHEMA.append((path, required))
    return _SCHEMA


def _objects(club: Club) -> dict[str, Any]:
    """A path's segment before ``{id}`` -> the club's objects it can name."""
    return {
        "clubs": Club.objects.filter(pk=club.pk),
        "deals": Deal.objects.filter(match__night__club=club),
        "entries": LedgerEntry.objects.filter(club=club),
        # the federations the club belongs or belonged to, their invitations, its links
        "federations": _federations(club),
        "federation-invitations": ClubInvitation.objects.filter(club=club),
        "affiliations": Affiliation.objects.filter(club=club),
        "person-links": PersonLink.objects.filter(club=club),
        # the championships its teams play in, and their fixtures
        "championships": Championship.objects.filter(teams__club=club).distinct(),
        "championship-fixtures": ChampionshipFixture.objects.filter(
            championship__teams__club=club
        ).distinct(),
        "federal-tournaments": FederalTournament.objects.filter(host=club),
        "fixtures": Fixture.objects.filter(league__club=club),
        "imports": Import.objects.filter(club=club),
        "league-entries": LeagueEntry.objects.filter(league__club=club),
        "leagues": League.objects.filter(club=club),
        "matches": Match.objects.filter(night__club=club),
        "memberships": Membership.objects.filter(club=club),
        "nights": Night.objects.filter(club=club),
        "players": Player.objects.filter(club=club),
        "seasons": Season.objects.filter(club=club),
        "tables": Table.objects.filter(night__club=club),
        "tournaments": Tournament.objects.filter(club=club),
    }


def _federations(club: Club) -> Any:
    periods = Affiliation.objects.filter(club=club).values("federation_id")
    return Federation.objects.filter(pk__in=periods)


def _queries(club: Club) -> dict[str, list[str]]:
    games = set(Match.objects.filter(night__club=club).values_list("game", flat=True))
    games |= {g for g in League.objects.filter(club=club).values_list("game", flat=True) if g}
    return {
        "season": [str(pk) for pk in Season.objects.filter(club=club).values_list("pk", flat=True)],
        "game": sorted(games),
        "club": [str(club.pk)],
    }


def _filled(path: str, club: Club, objects: dict[str, Any]) -> Iterator[str]:
    """``path`` with every combination of the club's objects in its parameters."""
    names = re.findall(r"\{(\w+)\}", path)
    choices = []
    for name in names:
        if name == "slug" and "/federations/" in path:  # the club's federations' addresses
            choices.append(list(_federations(club).values_list("slug", flat=True)))
        elif name == "slug":
            choices.append([club.slug])
        elif name == "club_id":
            choices.append([str(club.pk)])
        elif name == "user_id":  # a person linked in the club (their federal history)
            linked = PersonLink.objects.filter(club=club).values_list("user_id", flat=True)
            choices.append([str(pk) for pk in linked])
        elif name == "id":
            segment = path.split("{id}")[0].rstrip("/").rsplit("/", 1)[-1]
            if segment not in objects:
                raise AssertionError(f"tests/archive/crawl.py cannot fill {{id}} in {path}")
            choices.append([str(pk) for pk in objects[segment].values_list("pk", flat=True)])
        else:
            raise AssertionError(f"tests/archive/crawl.py cannot fill {{{name}}} in {path}")
    for values in itertools.product(*choices):
        filled = path
        for name, value in zip(names, values, strict=True):
            filled = filled.replace(f"{{{name}}}", value, 1)
        yield filled


def api(crawl: Crawl, who: str, client: Any, club: Club, public: bool) -> None:
    """Every GET operation of the API (the public ones when ``public``), every object."""
    objects, queries = _objects(club), _queries(club)
    for path, required in _get_operations():
        if path.startswith(NOT_A_CLUBS) or path.startswith("/api/v1/public/") != public:
            continue
        for unknown in set(required) - set(queries):
            raise AssertionError(f"tests/archive/crawl.py cannot fill ?{unknown}= of {path}")
        for url in _filled(path, club, objects):
            for values in itertools.product(*(queries[q] for q in required)):
                query = "&".join(f"{q}={v}" for q, v in zip(required, values, strict=True))
                _api_pages(crawl, who, client, f"{url}?{query}" if query else url)


def _api_pages(crawl: Crawl, who: str, client: Any, url: str) -> None:
    """A list's every page (``next``)."""
    seen = 0
    while url and seen < 200:
        seen += 1
        status, kind, text = _get(client, url)
        crawl.add(f"{who} {url}", status, text)
        url = ""
        if status == 200 and kind.startswith("application/json"):
            answer = json.loads(text)
            following = answer.get("next") if isinstance(answer, dict) else None
            if isinstance(following, str) and following:
                parts = urlsplit(following)
                url = parts.path + (f"?{parts.query}" if parts.query else "")


# -- exports and calendars ----------------------------------------------------------------


def _members(club: Club) -> list[Any]:
    users = get_user_model().objects.filter(memberships__club=club, is_active=True)
    return list(users.order_by("pk").distinct())


def own_exports(crawl: Crawl, club: Club) -> None:
    """Each member's own data, as a ZIP (page and API)."""
    for user in _members(club):
        page = Client()
        page.force_login(user)
        status, _, text = _get(page, "/me/export.zip")
        crawl.add(f"{user.get_username()} /me/export.zip", status, text)
        status, _, text = _get(page, "/me/")
        crawl.add(f"{user.get_username()} /me/", status, text)


def feeds(crawl: Crawl, club: Club) -> None:
    """Each member's calendar feeds (their own, the club's, each league's) and the public
    one."""
    leagues = list(League.objects.filter(club=club).values_list("pk", flat=True))
    anyone = Client()
    for membership in Membership.objects.filter(club=club, user__is_active=True):
        feed = calendar_feed_for(membership=membership, language="it")
        urls = [reverse("web:calendar_mine", args=[feed.token])]
        urls.append(reverse("web:calendar_club", args=[feed.token]))
        urls += [reverse("web:calendar_league", args=[feed.token, pk]) for pk in leagues]
        for url in urls:
            status, _, text = _get(anyone, url)
            crawl.add(f"{membership.user.get_username()} {url}", status, text)
    url = reverse("web:calendar_public", args=[club.slug])
    status, _, text = _get(anyone, url)
    crawl.add(f"anyone {url}", status, text)


# -- everything -------------------------------------------------------------------------------


def outputs(club: Club, *, limit: int = 3000) -> Crawl:
    """Every output of ``club`` (pages, API, both ZIP exports, calendars, PDFs and CSVs
    wherever they are linked or served), read as a director and as anyone."""
    crawl = Crawl()
    director = _director(club)
    who = director.get_username()
    page = Client()
    page.force_login(director)
    slug = club.slug
    menus = [
        f"/c/{slug}/{tail}"
        for tail in (
            "",
            "players",
            "members",
            "settings",
            "standings/",
            "standings/ratings",
            "leagues/",
            "calendar",
            "import",
        )
    ]
    pages(crawl, who, page, ["/", *menus, "/me/"], limit)
    public_pages = [f"/public/{slug}/", f"/public/{slug}/tv", "/privacy"]
    pages(crawl, "anyone", Client(), public_pages, limit)
    client = APIClient()
    client.force_authenticate(director)
    api(crawl, who, client, club, public=False)
    api(crawl, "anyone", APIClient(), club, public=True)
    own_exports(crawl, club)
    feeds(crawl, club)
    return crawl
