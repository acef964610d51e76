"""The standings API: seasons, a leaderboard sorted by any column, the ranked first,
ratings with the provisional flag, rating history, CSV, public versions."""

import csv
import datetime
import io

import pytest

from scorebook.standings.models import Season
from tests.api.common import api
from tests.standings.conftest import A_WINS_DEAL, B_WINS_DEAL, play_pairs


@pytest.fixture
def season_played(people, settings, django_capture_on_commit_callbacks):
    settings.CELERY_TASK_ALWAYS_EAGER = True  # refresh in-process, even in the Redis CI pass
    from scorebook.matches import services as matches

    director = people.director
    with django_capture_on_commit_callbacks(execute=True):
        response = api(people, "director").post(
            "/api/v1/seasons",
            {"club": people.club.pk, "name": "2026-27", "starts_on": "2026-09-01"},
            format="json",
        )
        assert response.status_code == 201, response.content
        night = matches.night_open(
            club_id=people.club.pk, date=datetime.date(2026, 11, 20), venue="", user=director
        )
        play_pairs(people, night, [A_WINS_DEAL] * 3)
        play_pairs(people, night, [B_WINS_DEAL] * 3)
        play_pairs(people, night, [A_WINS_DEAL] * 3)
    return Season.objects.get(pk=response.json()["id"])


def test_leaderboard_ranked_first_and_sorted(people, season_played):
    client = api(people, "member")
    nino, ettore, salvo, walter = people.seated
    page = client.get(f"/api/v1/leaderboard?season={season_played.pk}").json()
    assert page["updated_at"] and page["pending"] is False
    names = [row["player_name"] for row in page["results"]]
    assert names == ["Nino", "Salvo", "Ettore", "Walter"]  # won desc, then name
    assert [row["position"] for row in page["results"]] == [1, 2, 3, 4]
    first = page["results"][0]
    assert (first["matches"], first["won"], first["money"]) == (3, 2, {"EUR": "0.50"})
    by_money = client.get(
        f"/api/v1/leaderboard?season={season_played.pk}&game=tressette4&ordering=money:EUR"
    ).json()
    assert [r["player_name"] for r in by_money["results"]] == ["Ettore", "Walter", "Nino", "Salvo"]
    # Raising the minimum to 4 matches leaves everyone unranked, listed below.
    api(people, "director").patch(
        f"/api/v1/clubs/{people.club.pk}/standings-settings", {"min_matches": 4}, format="json"
    )
    page = client.get(f"/api/v1/leaderboard?season={season_played.pk}").json()
    assert {row["ranked"] for row in page["results"]} == {False}
    assert {row["position"] for row in page["results"]} == {None}


def test_leaderboard_refuses_unknown_columns_and_missing_season(people, season_played):
    client = api(people, "member")
    response = client.get(f"/api/v1/leaderboard?season={season_played.pk}&ordering=-shoe")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "standings.unknown_column"
    response = client.get("/api/v1/leaderboard")
    assert response.json()["errors"][0]["path"] == "season"


def test_csv_export_is_the_whole_table(people, season_played):
    response = api(people, "member").get(
        f"/api/v1/leaderboard?season={season_played.pk}&format=csv"
    )
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == 4
    assert rows[0]["player_name"] == "Nino" and rows[0]["money:EUR"] == "0.50"


def test_ratings_and_history(people, season_played):
    client = api(people, "member")
    ratings = client.get(f"/api/v1/ratings?club={people.club.pk}&game=tressette4").json()["results"]
    assert [r["player_name"] for r in ratings[:2]] == ["Nino", "Salvo"]
    assert all(r["provisional"] for r in ratings)  # 3 matches < 5
    nino = people.seated[0]
    history = client.get(
        f"/api/v1/rating-history?club={people.club.pk}&game=tressette4&player={nino.pk}"
    ).json()["results"]
    assert [h["seq"] for h in history] == [0, 1, 2]
    assert history[0]["mu_after"] > history[0]["mu_before"]  # won the first
    assert history[1]["mu_after"] < history[1]["mu_before"]  # lost the second
    assert history[1]["mu_before"] == history[0]["mu_after"]


def test_public_versions_only_for_public_clubs(people, season_played):
    url = f"/api/v1/public/clubs/{people.club.slug}/leaderboard?season={season_played.pk}"
    assert api(people, "anonymous").get(url).status_code == 404
    people.club.public = True
    people.club.save()
    page = api(people, "anonymous").get(url).json()
    assert len(page["results"]) == 4
    ratings = api(people, "anonymous").get(
        f"/api/v1/public/clubs/{people.club.slug}/ratings?game=tressette4"
    )
    assert ratings.status_code == 200
    seasons = api(people, "anonymous").get(f"/api/v1/public/clubs/{people.club.slug}/seasons")
    assert [s["name"] for s in seasons.json()["results"]] == ["2026-27"]


def test_a_season_cannot_end_before_it_starts(people):
    response = api(people, "director").post(
        "/api/v1/seasons",
        {"club": people.club.pk, "name": "x", "starts_on": "2026-09-01", "ends_on": "2026-08-01"},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "season.dates"


def test_a_leaderboard_page_is_one_query(people, season_played):
    """Issue 14: one indexed query for a page: the rows, their players, who is ranked,
    the count and when the standings were brought up to date, all at once."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = api(people, "member")
    with CaptureQueriesContext(connection) as queries:
        page = client.get(f"/api/v1/leaderboard?season={season_played.pk}").json()
    assert page["count"] == 4 and len(page["results"]) == 4 and page["next"] is None
    assert page["updated_at"] and page["pending"] is False
    assert len(queries.captured_queries) == 1, [q["sql"] for q in queries.captured_queries]


def test_leaderboard_pages_and_an_invalid_page(people, season_played, monkeypatch):
    from rest_framework.pagination import PageNumberPagination

    monkeypatch.setattr(PageNumberPagination, "page_size", 3)
    client = api(people, "member")
    url = f"/api/v1/leaderboard?season={season_played.pk}"
    first = client.get(url).json()
    assert first["count"] == 4 and len(first["results"]) == 3 and first["previous"] is None
    second = client.get(first["next"]).json()
    assert [r["position"] for r in second["results"]] == [4]
    assert second["previous"].endswith(f"season={season_played.pk}")
    assert client.get(f"{url}&page=3").status_code == 404
    assert client.get(f"{url}&page=x").status_code == 404
    other = Season.objects.create(club=people.other, name="x", starts_on="2026-01-01")
    assert client.get(f"/api/v1/leaderboard?season={other.pk}").status_code == 404
