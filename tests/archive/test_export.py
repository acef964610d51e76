"""The club's export: every table as JSON and CSV with the same rows, a README naming
each file, the record's numbers as stored, and the import template's file; the person's
own export: their account, players, matches, deals, confirmations and ledger lines, and
nobody else's account."""

import csv
import io
import json
import zipfile

import pytest
from django.contrib.auth import get_user_model

from scorebook.archive import exports
from scorebook.clubs.models import Club, Player
from scorebook.ledger.models import Entry
from scorebook.matches.models import Deal, Match
from scorebook.standings.models import LeaderboardRow

pytestmark = pytest.mark.django_db


def club_zip(club) -> zipfile.ZipFile:
    out = io.BytesIO()
    exports.club_export(club, out)
    return zipfile.ZipFile(io.BytesIO(out.getvalue()))


def test_every_table_as_json_and_csv_with_the_same_rows(demo):
    archive = club_zip(demo)
    names = set(archive.namelist())
    assert "README.md" in names and "import/matches.csv" in names
    readme = archive.read("README.md").decode()
    for part in exports.club_parts(demo):
        rows = json.loads(archive.read(f"{part.name}.json"))
        table = list(csv.DictReader(io.StringIO(archive.read(f"{part.name}.csv").decode())))
        assert len(table) == len(rows), part.name
        if rows:
            assert list(table[0]) == list(rows[0]), part.name
        assert f"`{part.name}.json, {part.name}.csv`" in readme
        assert f"({len(rows)} rows)" in readme
    assert archive.testzip() is None


def test_the_record_comes_out_whole(demo):
    archive = club_zip(demo)
    deals = json.loads(archive.read("deals.json"))
    assert len(deals) == Deal.objects.filter(match__night__club=demo).count()
    assert any(d["version"] > 1 for d in deals), "the demo's corrected deal, every version"
    assert {d["id"] for d in deals if not d["is_current"]}
    stored = {d.pk: d.result for d in Deal.objects.filter(match__night__club=demo)}
    assert {d["id"]: d["result"] for d in deals} == stored
    entries = json.loads(archive.read("ledger_entries.json"))
    assert sorted(e["amount"] for e in entries) == sorted(
        str(a) for a in Entry.objects.filter(club=demo).values_list("amount", flat=True)
    )
    board = json.loads(archive.read("leaderboard.json"))
    assert {(r["player_id"], r["game"], r["won"]) for r in board} == set(
        LeaderboardRow.objects.filter(club=demo).values_list("player_id", "game", "won")
    )
    assert json.loads(archive.read("audit.json"))
    assert json.loads(archive.read("club.json"))[0]["slug"] == "san-rocco"


def test_the_import_file_has_the_templates_columns_and_every_current_deal(demo):
    text = club_zip(demo).read("import/matches.csv").decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert tuple(rows[0]) == exports.IMPORT_COLUMNS
    with_deals = Match.objects.filter(night__club=demo, deals__isnull=False).distinct()
    assert len(rows) == Deal.objects.filter(match__night__club=demo, is_current=True).count()
    firsts = [r for r in rows if r["seats"]]
    assert len(firsts) == with_deals.count()
    names = set(Player.objects.filter(club=demo).values_list("name", flat=True))
    for row in firsts:
        seated = dict(pair.split("=", 1) for pair in row["seats"].split("; "))
        assert set(seated.values()) <= names
        assert json.loads(row["rules"])["values"]
    assert all(json.loads(r["deal"]) for r in rows)


def test_an_empty_club_exports_empty_tables(db):
    club = Club.objects.create(name="Vuoto", slug="vuoto")
    archive = club_zip(club)
    assert json.loads(archive.read("deals.json")) == []
    assert archive.read("deals.csv") == b""
    assert archive.read("import/matches.csv").decode().strip() == ",".join(exports.IMPORT_COLUMNS)


def test_a_formula_in_a_name_is_text_in_the_csv(demo):
    Player.objects.create(club=demo, name="=HYPERLINK(1)")
    table = club_zip(demo).read("players.csv").decode()
    assert "'=HYPERLINK(1)" in table
    assert "\n=HYPERLINK" not in table and ",=HYPERLINK" not in table


def person_zip(user) -> zipfile.ZipFile:
    out = io.BytesIO()
    exports.person_export(user, out)
    return zipfile.ZipFile(io.BytesIO(out.getvalue()))


def test_a_player_downloads_their_own_data(demo):
    carmelo = get_user_model().objects.get(username="carmelo.bellini")
    player = Player.objects.get(club=demo, user=carmelo)
    archive = person_zip(carmelo)
    account = json.loads(archive.read("account.json"))
    assert account == [
        {**account[0], "username": "carmelo.bellini", "email": "carmelo@example.org"}
    ]
    assert [p["id"] for p in json.loads(archive.read("players.json"))] == [player.pk]
    matches = json.loads(archive.read("matches.json"))
    seated = [m.pk for m in Match.objects.filter(night__club=demo) if player.pk in m.seats.values()]
    assert seated and sorted(m["id"] for m in matches) == sorted(seated)
    deals = json.loads(archive.read("deals.json"))
    assert {d["match_id"] for d in deals} <= set(seated)
    assert len(deals) == Deal.objects.filter(match_id__in=seated).count()
    ledger = json.loads(archive.read("ledger.json"))
    mine = Entry.objects.filter(payer__player=player) | Entry.objects.filter(payee__player=player)
    assert sorted(e["id"] for e in ledger) == sorted(mine.values_list("pk", flat=True))
    assert json.loads(archive.read("standings.json"))
    assert json.loads(archive.read("memberships.json"))[0]["club__slug"] == "san-rocco"
    text = b"".join(archive.read(n) for n in archive.namelist()).decode()
    assert "demo" not in json.loads(archive.read("account.json"))[0]["username"]
    assert "pw-" not in text and "password" not in text


def test_a_person_without_players_gets_their_account_only(db):
    nobody = get_user_model().objects.create_user("nobody", password="x")
    archive = person_zip(nobody)
    assert json.loads(archive.read("players.json")) == []
    assert json.loads(archive.read("matches.json")) == []
    assert json.loads(archive.read("account.json"))[0]["username"] == "nobody"
