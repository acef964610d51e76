"""After a person is erased, their name is in no page, no export, no API answer and no
log line the service writes. The test crawls every page a director and the public can
reach from the club's home (club, nights, rooms, matches, deals, settlements with their
PDF and CSV, standings, ratings, leagues, players' statistics, public pages, TV), asks
every API list and each object's detail, downloads the export ZIP, and reads the log; the
same crawl before the erasure finds the name in each kind of answer (so the instruments
can see it), and the ledger and standings answer the same numbers afterwards."""

import base64
import io
import logging
import re
import zipfile
import zlib

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from scorebook.clubs.models import Player
from scorebook.ledger.models import Entry
from scorebook.matches.models import Deal, Match, Night
from scorebook.standings.models import LeaderboardRow, League, Season
from tests.archive.conftest import client_of

pytestmark = pytest.mark.django_db
NAME = re.compile(r"carmelo|bellini", re.IGNORECASE)
LINK = re.compile(r'(?:href|hx-get|src)="(/[^"#]*)"')
SKIP = ("/logout", "/static/", "/sw.js", "/api/", "/admin/", "/join/", "/login")


def text_of(body: bytes, content_type: str) -> str:
    """What a reader of the answer sees: a PDF's inflated streams, a ZIP's every file."""
    if content_type.startswith("application/pdf"):
        parts = [body]
        for stream in re.findall(rb"stream\r?\n(.*?)endstream", body, re.S):
            data = b"".join(stream.split())
            if data.endswith(b"~>"):  # reportlab: ASCII85, then Flate
                data = base64.a85decode(data[:-2])
            parts.append(zlib.decompress(data))
        return b"\n".join(parts).decode("latin-1")
    if content_type.startswith("application/zip"):
        archive = zipfile.ZipFile(io.BytesIO(body))
        return "\n".join(archive.read(n).decode() for n in archive.namelist())
    return body.decode("utf-8", "replace")


def crawl(client, starts, limit=600):
    """Every page reachable from ``starts`` by links (GET only), with its text."""
    seen, queue, found = set(), list(starts), {}
    while queue and len(seen) < limit:
        url = queue.pop(0)
        if url in seen or url.startswith(SKIP):
            continue
        seen.add(url)
        response = client.get(url)
        kind = response.get("Content-Type", "")
        if response.status_code != 200 or response.streaming:
            found[url] = text_of(b"".join(getattr(response, "streaming_content", [])), kind)
            continue
        found[url] = text_of(response.content, kind)
        if kind.startswith("text/html"):
            for link in LINK.findall(found[url]):
                queue.append(link.replace("&amp;", "&"))
    return found


def api_answers(club):
    """Every API list of the club and each object's detail, as its director."""
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(get_user_model().objects.get(username="director"))
    season = Season.objects.filter(club=club).first()
    urls = [
        "/api/v1/me",
        "/api/v1/clubs",
        "/api/v1/memberships",
        "/api/v1/players",
        "/api/v1/nights",
        "/api/v1/tables",
        "/api/v1/matches",
        "/api/v1/entries",
        "/api/v1/seasons",
        "/api/v1/leagues",
        "/api/v1/fixtures",
        f"/api/v1/leaderboard?season={season.pk}",
        f"/api/v1/clubs/{club.pk}/export",
        f"/api/v1/public/clubs/{club.slug}/nights",
        f"/api/v1/public/clubs/{club.slug}/seasons",
    ]
    for match in Match.objects.filter(night__club=club):
        urls += [f"/api/v1/matches/{match.pk}", f"/api/v1/matches/{match.pk}/state"]
        urls += [
            f"/api/v1/matches/{match.pk}/deals",
            f"/api/v1/public/clubs/{club.slug}/matches/{match.pk}",
        ]
        urls.append(f"/api/v1/ratings?club={club.pk}&game={match.game}")
    for deal in Deal.objects.filter(match__night__club=club, is_current=True):
        urls += [f"/api/v1/deals/{deal.pk}", f"/api/v1/deals/{deal.pk}/history"]
    for night in Night.objects.filter(club=club):
        for tail in ("settlement", "settlements", "settlement/csv", "settlement/pdf"):
            urls.append(f"/api/v1/nights/{night.pk}/{tail}")
    for player in Player.objects.filter(club=club):
        urls += [f"/api/v1/players/{player.pk}", f"/api/v1/players/{player.pk}/statistics"]
        urls.append(f"/api/v1/public/clubs/{club.slug}/players/{player.pk}/statistics")
    for league in League.objects.filter(club=club):
        urls += [f"/api/v1/leagues/{league.pk}", f"/api/v1/leagues/{league.pk}/standings"]
        urls.append(f"/api/v1/public/clubs/{club.slug}/leagues/{league.pk}/standings")
        urls.append(f"/api/v1/public/clubs/{club.slug}/leagues/{league.pk}/standings/csv")
    found, failed = {}, []
    for url in urls:
        response = api.get(url)
        if response.status_code != 200:
            failed.append((url, response.status_code))
        body = b"".join(response.streaming_content) if response.streaming else response.content
        found[url] = text_of(body, response.get("Content-Type", ""))
    assert not failed
    return found


def everything(club):
    pages = crawl(client_of("director"), ["/", f"/c/{club.slug}/", "/me/"])
    public = crawl(APIClient(), [f"/public/{club.slug}/", "/privacy"])
    return pages, public, api_answers(club)


def numbers(club):
    return (
        sorted(Entry.objects.filter(club=club).values_list("payer", "payee", "amount")),
        sorted(
            LeaderboardRow.objects.filter(club=club).values_list("player", "game", "won", "units")
        ),
    )


def test_after_the_erasure_the_name_is_nowhere(demo, caplog):
    carmelo = Player.objects.get(club=demo, name="Carmelo")
    pages, public, answers = everything(demo)
    assert len(pages) > 40, sorted(pages)
    named = [url for url, text in {**pages, **public, **answers}.items() if NAME.search(text)]
    # the instruments see the name before: pages, the PDF and CSV sheets, public pages, API
    assert any(u.endswith("settlement.pdf") for u in named), named
    assert any(u.endswith("settlement.csv") for u in named)
    assert any(u.startswith("/public/") for u in named)
    assert any(u.startswith("/api/v1/players") for u in named)
    assert any(u.endswith("/export") for u in named)
    before = numbers(demo)

    caplog.clear()
    with caplog.at_level(logging.DEBUG):
        director = client_of("director")
        page = director.get(f"/c/{demo.slug}/players/{carmelo.pk}/erase")
        assert page.status_code == 200 and NAME.search(page.content.decode())
        done = director.post(
            f"/c/{demo.slug}/players/{carmelo.pk}/erase", {"name": "Carmelo"}, follow=True
        )
        assert done.status_code == 200
        assert "Erased player #1" in done.content.decode()
        pages, public, answers = everything(demo)
    named = [url for url, text in {**pages, **public, **answers}.items() if NAME.search(text)]
    assert named == []
    logged = [r.getMessage() for r in caplog.records]
    assert logged and not [line for line in logged if NAME.search(line)]
    assert numbers(demo) == before
    assert any("Erased player #1" in text for text in pages.values())
