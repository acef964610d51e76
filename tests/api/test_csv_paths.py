"""One media type per answer (issue 26 step 5): every table's CSV at its own path
(``/leaderboard.csv``, ``/ratings.csv``...), answered as CSV whatever the Accept header
says and declared as text/csv alone; the JSON paths declare JSON alone. The old
``?format=csv`` still answers the same CSV (clients written before; undocumented)."""

import csv
import datetime
import io

import pytest

from scorebook.clubs.models import Club
from scorebook.matches import services as matches
from scorebook.standings import refresh
from scorebook.standings import services as standings
from tests.api.common import SIDES, api
from tests.api.shapes import live_schema


@pytest.fixture
def played(people, club, match):
    for _ in range(3):
        matches.deal_create(match=match, data=SIDES, expected_number=None, user=people.scorer)
    season = standings.season_create(
        club_id=club.pk,
        name="2026-27",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=None,
        user=people.director,
    )
    refresh.rebuild(club_id=club.pk)
    Club.objects.filter(pk=club.pk).update(public=True)
    return season


def tables(club, season):
    public = f"/api/v1/public/clubs/{club.slug}"
    return [
        ("/api/v1/leaderboard", {"season": season.pk}, "member"),
        ("/api/v1/ratings", {"club": club.pk, "game": "tressette4"}, "member"),
        ("/api/v1/rating-history", {"club": club.pk, "game": "tressette4"}, "member"),
        (f"{public}/seasons", {}, "anonymous"),
        (f"{public}/leaderboard", {"season": season.pk}, "anonymous"),
        (f"{public}/ratings", {"game": "tressette4"}, "anonymous"),
    ]


def rows(answer):
    return list(csv.reader(io.StringIO(answer.content.decode())))


@pytest.mark.parametrize("accept", ["text/csv", "application/json", "*/*"])
def test_each_table_has_its_csv_at_its_own_path(people, club, played, accept):
    for path, query, who in tables(club, played):
        client = api(people, who)
        sheet = client.get(f"{path}.csv", query, HTTP_ACCEPT=accept)
        assert sheet.status_code == 200, (path, sheet.content[:200])
        assert sheet["Content-Type"].startswith("text/csv"), path
        old = client.get(path, {**query, "format": "csv"})
        assert rows(sheet) == rows(old) and len(rows(sheet)) >= 2, path
        plain = client.get(path, query)
        assert plain["Content-Type"].startswith("application/json"), path


def test_a_refused_csv_answers_json(people, club, played):
    answer = api(people, "member").get("/api/v1/leaderboard.csv")
    assert answer.status_code == 400
    assert answer["Content-Type"].startswith("application/json")
    assert answer.json()["errors"][0]["path"] == "season"
    missing = api(people, "anonymous").get("/api/v1/public/clubs/nobody/seasons.csv")
    assert missing.status_code == 404
    assert missing.json()["errors"][0]["code"] == "club.not_found"


def test_every_answer_declares_one_media_type(db):
    schema = live_schema()
    types = {}
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            for code, response in operation.get("responses", {}).items():
                if code.startswith("2") and response.get("content"):
                    assert len(response["content"]) == 1, (method, path, code)
                    types[path] = next(iter(response["content"]))
    for path in ("/api/v1/leaderboard", "/api/v1/ratings", "/api/v1/public/clubs/{slug}/seasons"):
        assert types[path] == "application/json"
        assert types[f"{path}.csv"] == "text/csv"
        params = {p["name"] for p in schema["paths"][f"{path}.csv"]["get"]["parameters"]}
        assert "page" not in params and "format" not in params
    pdf = schema["paths"]["/api/v1/nights/{id}/settlement/pdf"]["get"]["responses"]["200"]
    assert pdf["content"]["application/pdf"]["schema"] == {"type": "string", "format": "binary"}
    assert types["/api/v1/nights/{id}/settlement/csv"] == "text/csv"
