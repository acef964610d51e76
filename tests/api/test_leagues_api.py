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
        league_id=league, home__name__in=["Nino-Ettore", "Salvo-Walter"],
        away__name__in=["Nino-Ettore", "Salvo-Walter"],
    )  # fmt: skip
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
