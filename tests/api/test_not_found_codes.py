"""Every 404 names what is missing (issue 26 step 4): ``match.not_found``,
``club.not_found``, ``page.not_found``..., never a catch-all, through HTTP; an id that is
not a number is the same 404 as one that does not exist."""

import pytest
from rest_framework.test import APIClient

from tests.api.common import SIDES, api

MISSING = 987654


@pytest.mark.parametrize(
    "method,url,code",
    [
        ("get", f"/api/v1/matches/{MISSING}", "match.not_found"),
        ("get", f"/api/v1/matches/{MISSING}/state", "match.not_found"),
        ("post", f"/api/v1/matches/{MISSING}/deals", "match.not_found"),
        ("get", f"/api/v1/nights/{MISSING}/settlement", "night.not_found"),
        ("get", f"/api/v1/deals/{MISSING}", "deal.not_found"),
        ("post", f"/api/v1/deals/{MISSING}/confirm", "deal.not_found"),
        ("get", "/api/v1/deals/abc/history", "deal.not_found"),
        ("get", f"/api/v1/clubs/{MISSING}", "club.not_found"),
        ("patch", f"/api/v1/clubs/{MISSING}", "club.not_found"),
        ("get", f"/api/v1/clubs/{MISSING}/standings-settings", "club.not_found"),
        ("get", f"/api/v1/players/{MISSING}/statistics", "player.not_found"),
        ("post", f"/api/v1/transfers/{MISSING}/paid", "transfer.not_found"),
        ("get", f"/api/v1/league-entries/{MISSING}", "league_entry.not_found"),
        ("get", f"/api/v1/seasons/{MISSING}", "season.not_found"),
        ("get", "/api/v1/matches?page=99", "page.not_found"),
        ("get", f"/api/v1/clubs/{MISSING}/export", "club.not_found"),
        ("get", f"/api/v1/leaderboard/pdf?season={MISSING}", "season.not_found"),
        ("get", "/api/v1/no-such-thing", "route.not_found"),
    ],
)
def test_each_404_names_what_is_missing(people, method, url, code):
    body = {"deal": SIDES} if url.endswith("/deals") else {}
    answer = getattr(api(people, "director"), method)(url, body, format="json")
    assert answer.status_code == 404, answer.content
    assert [e["code"] for e in answer.json()["errors"]] == [code]


def test_a_public_club_that_is_not_there_and_its_match(people):
    client = APIClient()
    nights = client.get("/api/v1/public/clubs/no-such-club/nights")
    assert nights.status_code == 404
    assert nights.json()["errors"][0]["code"] == "club.not_found"
    people.club.public = True
    people.club.save()
    match = client.get(f"/api/v1/public/clubs/{people.club.slug}/matches/{MISSING}")
    assert match.status_code == 404
    assert match.json()["errors"][0]["code"] == "match.not_found"


def test_another_clubs_object_is_the_same_404_as_a_missing_one(people, match):
    stranger = api(people, "stranger").get(f"/api/v1/matches/{match.pk}")
    missing = api(people, "stranger").get(f"/api/v1/matches/{MISSING}")
    assert stranger.status_code == missing.status_code == 404
    assert stranger.json() == missing.json()


def test_the_leaderboard_of_a_season_not_there(people):
    answer = api(people, "member").get(
        "/api/v1/leaderboard", {"club": people.club.pk, "season": MISSING}
    )
    assert answer.status_code == 404
    assert answer.json()["errors"][0]["code"] == "season.not_found"
