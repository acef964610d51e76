"""The notice board: the season's leaderboard and a league table as A4 PDFs, from the
pages and the API. Names are text: ``Nino <b`` or ``<img src=...>`` print as written
(reportlab's Paragraph reads markup: it broke on the first and embedded a file of the
server's disk for the second). A notice board hangs where anyone passes: no money."""

import re

import pytest
from django.test import Client

from scorebook.clubs.models import Club, Player
from tests.api.common import api
from tests.api.test_hostile_exports import _pdf_text
from tests.web.test_deal_pages import as_

HOSTILE = {"Nino": "Nino <b", "Salvo": '<img src="/etc/passwd">', "Ettore": "<a href=x>E"}


def shown(pdf: bytes) -> bytes:
    """The text the PDF shows (reportlab writes it in pieces, "(<) Tj (img ...) Tj")."""
    body = _pdf_text(pdf)
    assert b"/URI" not in body and b"/Link" not in body  # no link
    assert b"/Subtype /Image" not in body and b"/XObject" not in body  # no file of the disk
    text = b"".join(re.findall(rb"\(((?:\\.|[^\\)])*)\) Tj", body))
    # a narrow cell wraps a name over lines: compare without the spaces
    return text.replace(b"\\(", b"(").replace(b"\\)", b")").replace(b" ", b"")


@pytest.fixture
def hostile(people):
    for old, new in HOSTILE.items():
        Player.objects.filter(club=people.club, name=old).update(name=new)
    Club.objects.filter(pk=people.club.pk).update(name="Circolo <b>San Rocco")


def _get(client, url):
    answer = client.get(url)
    assert answer.status_code == 200, answer.content[:300]
    assert answer["Content-Type"] == "application/pdf" and answer.content.startswith(b"%PDF")
    return answer.content


@pytest.mark.parametrize("where", ["page", "api"])
def test_the_leaderboard_pdf_prints_hostile_names_as_written(people, season, hostile, where):
    if where == "page":
        url = f"/c/{people.club.slug}/standings/pdf?season={season.pk}"
        pdf = _get(as_(people, "member"), url)
    else:
        pdf = _get(api(people, "member"), f"/api/v1/leaderboard/pdf?season={season.pk}")
    text = shown(pdf)
    for name in (b"Nino <b", b'<img src="/etc/passwd">', b"Circolo <b>San Rocco"):
        assert name.replace(b" ", b"") in text, (name, text)
    assert b"2026-27" in text and b"Won" in text
    # the notice board shows no money: neither the stake's currency nor units
    assert b"EUR" not in text and b"Units" not in text


@pytest.mark.parametrize("where", ["page", "api"])
def test_the_league_pdf_prints_hostile_names_as_written(people, league, hostile, where):
    league.entries.filter(seed=1).update(name="Nino <b & <img src=x>")
    if where == "page":
        pdf = _get(as_(people, "member"), f"/c/{people.club.slug}/leagues/{league.pk}/pdf")
    else:
        pdf = _get(api(people, "member"), f"/api/v1/leagues/{league.pk}/standings/pdf")
    text = shown(pdf)
    assert b"Nino<b&<imgsrc=x>" in text and b"Coppad'inverno" in text
    assert b"Circolo<b>SanRocco" in text


def test_the_pages_link_their_pdf(people, season, league):
    member = as_(people, "member")
    board = member.get(f"/c/{people.club.slug}/standings/").content.decode()
    assert f"/c/{people.club.slug}/standings/pdf?season={season.pk}" in board
    table = member.get(f"/c/{people.club.slug}/leagues/{league.pk}/").content.decode()
    assert f"/c/{people.club.slug}/leagues/{league.pk}/pdf" in table


def test_the_pdfs_are_for_members_only(people, season, league):
    slug = people.club.slug
    stranger = as_(people, "stranger")
    assert stranger.get(f"/c/{slug}/standings/pdf?season={season.pk}").status_code == 404
    assert stranger.get(f"/c/{slug}/leagues/{league.pk}/pdf").status_code == 404
    outsider = api(people, "stranger")
    assert outsider.get(f"/api/v1/leaderboard/pdf?season={season.pk}").status_code == 404
    assert outsider.get(f"/api/v1/leagues/{league.pk}/standings/pdf").status_code == 404
    anyone = Client()
    assert anyone.get(f"/c/{slug}/standings/pdf").status_code == 302  # to the login


@pytest.mark.parametrize(
    "query", ["", "season=abc", "season=99999", "season=1&game=%00", "season=1&game=nope"]
)
def test_bad_parameters_are_refused_not_500(people, season, query):
    query = query.replace("season=1", f"season={season.pk}")
    answer = api(people, "member").get(f"/api/v1/leaderboard/pdf?{query}")
    assert answer.status_code in (400, 404), answer.content[:200]
    page = as_(people, "member").get(f"/c/{people.club.slug}/standings/pdf?{query}")
    assert page.status_code in (200, 400, 404)  # a NUL is refused before the view


def test_a_club_without_a_season_has_no_leaderboard_pdf(people):
    page = as_(people, "member").get(f"/c/{people.club.slug}/standings/pdf")
    assert page.status_code == 404
