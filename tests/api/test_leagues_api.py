"""Leagues, fixtures, standings (JSON and CSV) and player statistics through HTTP."""

import csv
import io

import pytest

from scorebook.standings.models import Fixture
from tests.api.common import api
from tests.standings.league_helpers import night, pair_match, players


@pytest.fixture
def started(people):
    club = people.club
    """Three pairs, single round robin, started through the API."""
    director = api(people, "director")
    response = director.post(
        "/api/v1/leagues",
        {"club": club.pk, "name": "Coppa", "points_win": 3, "withdrawals": "keep"},
        format="json",
    )
    assert response.status_code == 201, response.content
    league = response.json()["id"]
    six = players(club, "Nino", "Ettore", "Salvo", "Walter", "Zina", "Rosa")
    for i, name in enumerate(("Nino-Ettore", "Salvo-Walter", "Zina-Rosa")):
        pair = [six[2 * i].pk, six[2 * i + 1].pk]
        response = director.post(
            f"/api/v1/leagues/{league}/entries", {"name": name, "players": pair}, format="json"
        )
        assert response.status_code == 201, response.content
    assert director.post(f"/api/v1/leagues/{league}/start").status_code == 200
    return league, six


def test_a_league_played_and_read(club, people, started, django_assert_max_num_queries):
    league, (nino, ettore, salvo, walter, zina, rosa) = started
    fixture = Fixture.objects.get(
        league_id=league,
        home__name__in=["Nino-Ettore", "Salvo-Walter"],
        away__name__in=["Nino-Ettore", "Salvo-Walter"],
    )
    match = pair_match(people, night(people), (nino, ettore), (salvo, walter), "NS")
    scorer = api(people, "scorer")
    linked = scorer.post(f"/api/v1/fixtures/{fixture.pk}/matches", {"match": match.pk})
    assert linked.status_code == 201, linked.content
    assert linked.json()["status"] == "played"
    again = scorer.post(f"/api/v1/fixtures/{fixture.pk}/matches", {"match": match.pk})
    assert again.status_code == 409
    assert again.json()["errors"][0]["code"] == "league.match_linked"

    member = api(people, "member")
    with django_assert_max_num_queries(8):
        table = member.get(f"/api/v1/leagues/{league}/standings").json()
    # Zina-Rosa have not played: level on points with the losers, ahead on the difference
    assert [(r["name"], r["position"], r["points"], r["decided_by"]) for r in table["rows"]] == [
        ("Nino-Ettore", 1, 3, "points"),
        ("Zina-Rosa", 2, 0, "point_difference"),
        ("Salvo-Walter", 3, 0, "point_difference"),
    ]
    assert len(table["rounds"]) == 3 and all(r["bye"] for r in table["rounds"])

    sheet = member.get(f"/api/v1/leagues/{league}/standings/csv")
    assert sheet["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(sheet.content.decode())))
    assert rows[2][:2] == ["1", "Nino-Ettore"] and rows[2][6] == "3"

    stats = member.get(f"/api/v1/players/{nino.pk}/statistics?min_shared=1").json()
    assert stats["by_game"] == {"tressette4": {"played": 1, "won": 1, "lost": 0}}
    assert stats["best_partner"] == {"id": ettore.pk, "name": "Ettore"}
    assert stats["longest_streak"]["length"] == 1
    assert stats["nemesis"] is None
    bad = member.get(f"/api/v1/players/{nino.pk}/statistics?min_shared=0")
    assert bad.status_code == 400


def test_refusals_carry_their_code_and_path(club, people, started):
    league, six = started
    director = api(people, "director")
    late = director.post(
        f"/api/v1/leagues/{league}/entries",
        {"name": "late", "players": [six[0].pk, six[1].pk]},
        format="json",
    )
    assert late.status_code == 409 and late.json()["errors"][0]["code"] == "league.started"
    chain = director.post(
        "/api/v1/leagues",
        {"club": club.pk, "name": "x", "tiebreaks": ["points", "lots", "wins"]},
        format="json",
    )
    assert chain.status_code == 400
    assert chain.json()["errors"][0]["path"] == "tiebreaks"


def test_withdrawal_and_public_versions(club, people, started):
    league, _ = started
    entry = api(people, "director").get(f"/api/v1/leagues/{league}/entries").json()[2]
    out = api(people, "director").post(f"/api/v1/league-entries/{entry['id']}/withdraw", {})
    assert out.status_code == 200 and out.json()["withdrawn_at"]
    anonymous = api(people, "anonymous")
    url = f"/api/v1/public/clubs/{club.slug}/leagues/{league}/standings"
    assert anonymous.get(url).status_code == 404  # the club does not publish
    club.public = True
    club.save()
    table = anonymous.get(url).json()
    assert [r["withdrawn"] for r in table["rows"]].count(True) == 1
    assert anonymous.get(url + "/csv").status_code == 200
    assert anonymous.get(f"/api/v1/public/clubs/{club.slug}/leagues").json()[0]["id"] == league


def _knockout(people, count, **settings):
    """A knockout of ``count`` pairs made through the API; returns its id and pairs."""
    director = api(people, "director")
    response = director.post(
        "/api/v1/leagues",
        {"club": people.club.pk, "name": "Coppa KO", "format": "knockout", **settings},
        format="json",
    )
    assert response.status_code == 201, response.content
    league = response.json()["id"]
    assert response.json()["format"] == "knockout"
    names = ("Nino-Ettore", "Salvo-Walter", "Zina-Rosa", "Ada-Bice", "Ciro-Dario")[:count]
    found = players(people.club, *(n for pair in names for n in pair.split("-")))
    pairs = {}
    for i, name in enumerate(names):
        pairs[name] = found[2 * i : 2 * i + 2]
        response = director.post(
            f"/api/v1/leagues/{league}/entries",
            {"name": name, "players": [p.pk for p in pairs[name]]},
            format="json",
        )
        assert response.status_code == 201, response.content
    assert director.post(f"/api/v1/leagues/{league}/start").status_code == 200
    return league, pairs


def test_a_knockout_with_byes_a_best_of_three_and_a_forfeit_through_http(
    people, django_assert_max_num_queries
):
    league, pairs = _knockout(people, 3, series="best_of", series_games=3)
    member, scorer, director = (api(people, who) for who in ("member", "scorer", "director"))
    with django_assert_max_num_queries(8):  # as many as a round robin's table
        table = member.get(f"/api/v1/leagues/{league}/standings").json()
    assert table["series"] == {"kind": "best_of", "games": 3, "bella": True}
    first, final = table["bracket"]
    assert [s["bye"] for s in first] == [True, False]  # seed 1 has the bye
    assert final[0]["home"] is not None and final[0]["away"] is None  # waits for 2 v 3
    semi = first[1]["fixture"]
    assert [r["name"] for r in table["rounds"]] == ["semi_final", "final"]

    on = night(people)
    for _ in range(2):  # Salvo-Walter (home) win 2-0
        match = pair_match(people, on, pairs["Salvo-Walter"], pairs["Zina-Rosa"], "NS")
        assert (
            scorer.post(f"/api/v1/fixtures/{semi}/matches", {"match": match.pk}).status_code == 201
        )
    third = pair_match(people, on, pairs["Salvo-Walter"], pairs["Zina-Rosa"], "EW")
    refused = scorer.post(f"/api/v1/fixtures/{semi}/matches", {"match": third.pk})
    assert refused.status_code == 409
    assert refused.json()["errors"][0]["code"] == "league.series_decided"
    shown = member.get(f"/api/v1/fixtures/{semi}").json()
    assert (shown["status"], shown["decided"], shown["home_wins"]) == ("played", True, 2)

    final_id = member.get(f"/api/v1/leagues/{league}/standings").json()["bracket"][1][0]
    assert final_id["away"] is not None  # the winner went on
    fixture = final_id["fixture"]
    nino = final_id["home"]
    body = {"entry": nino, "reason": "left before the final"}
    assert scorer.post(f"/api/v1/fixtures/{fixture}/forfeit", body).status_code == 403
    no_reason = director.post(f"/api/v1/fixtures/{fixture}/forfeit", {"entry": nino, "reason": " "})
    assert no_reason.status_code == 400
    forfeited = director.post(
        f"/api/v1/fixtures/{fixture}/forfeit", body, HTTP_ACCEPT_LANGUAGE="it"
    )
    assert forfeited.status_code == 201, forfeited.content
    data = forfeited.json()
    assert data["status"] == "forfeit" and data["winner"] == final_id["away"]
    assert (data["home_wins"], data["away_wins"]) == (0, 2)
    assert (data["home_points"], data["away_points"]) == (0, 42)  # 21 per game needed
    assert data["forfeit"]["reason"] == "left before the final"
    again = director.post(f"/api/v1/fixtures/{fixture}/forfeit", body, HTTP_ACCEPT_LANGUAGE="it")
    assert again.status_code == 409
    assert "perso a tavolino" in again.json()["errors"][0]["message"]  # in Italian
    assert again.json()["errors"][0]["code"] == "league.fixture_forfeited"
    rows = member.get(f"/api/v1/leagues/{league}/standings").json()["rows"]
    assert [(r["name"], r["position"]) for r in rows][:2] == [
        ("Salvo-Walter", 1),
        ("Nino-Ettore", 2),
    ]
    sheet = member.get(f"/api/v1/leagues/{league}/standings/csv").content.decode()
    assert "Salvo-Walter" in sheet and "forfeit" in sheet

    planned = director.post(f"/api/v1/fixtures/{fixture}/plan", {"planned_on": "2026-12-04"})
    assert planned.status_code == 200 and planned.json()["planned_on"] == "2026-12-04"
    assert member.get(f"/api/v1/fixtures/{fixture}").json()["planned_on"] == "2026-12-04"
    refused = member.post(f"/api/v1/fixtures/{fixture}/plan", {"planned_on": "2026-12-05"})
    assert refused.status_code == 403
    unplanned = director.post(
        f"/api/v1/fixtures/{fixture}/plan", {"planned_on": None}, content_type="application/json"
    )
    assert unplanned.status_code == 200 and unplanned.json()["planned_on"] is None
    undo = director.post(f"/api/v1/fixtures/{fixture}/forfeit/undo", {"reason": "a mistake"})
    assert undo.status_code == 200 and undo.json()["status"] == "scheduled"
    missing = director.post(f"/api/v1/fixtures/{fixture}/forfeit/undo", {"reason": "again"})
    assert missing.status_code == 409
    assert missing.json()["errors"][0]["code"] == "league.not_forfeited"


def test_a_knockout_refuses_two_legs_and_a_series_of_no_games(club, people):
    director = api(people, "director")
    legs = director.post(
        "/api/v1/leagues",
        {"club": club.pk, "name": "x", "format": "knockout", "legs": 2},
        format="json",
    )
    assert legs.status_code == 400 and legs.json()["errors"][0]["code"] == "league.knockout_legs"
    none = director.post(
        "/api/v1/leagues",
        {"club": club.pk, "name": "y", "series": "best_of", "series_games": 0},
        format="json",
    )
    assert none.status_code == 400 and none.json()["errors"][0]["path"] == "series_games"


def test_a_knockout_stage_from_a_round_robin_through_http(people, started):
    league, _ = started
    director = api(people, "director")
    made = director.post(f"/api/v1/leagues/{league}/knockout", {"name": "Finale", "top": 2})
    assert made.status_code == 201, made.content
    assert (made.json()["format"], made.json()["started_at"]) == ("knockout", None)
    entries = director.get(f"/api/v1/leagues/{made.json()['id']}/entries").json()
    assert len(entries) == 2
    too_many = director.post(f"/api/v1/leagues/{league}/knockout", {"name": "Tutti", "top": 5})
    assert too_many.status_code == 400
    assert too_many.json()["errors"][0]["code"] == "league.too_few_entries"
    again = director.post(f"/api/v1/leagues/{league}/knockout", {"name": "Finale", "top": 2})
    assert again.status_code == 409 and again.json()["errors"][0]["code"] == "league.name_taken"
