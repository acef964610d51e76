"""Numbers and ids the API reads from bodies, paths and query parameters (issue 23): a 4xx
in the documented shape for anything that is not one, never a 500, nothing stored."""

import pytest

from scorebook.matches.models import Deal
from tests.api.common import api
from tests.api.test_no_server_errors import assert_shape, raw_post

HUGE = "1" + "0" * 4400


def test_a_json_integer_of_thousands_of_digits_is_refused_anonymously(db):
    from rest_framework.test import APIClient

    response = raw_post(APIClient(), "/api/v1/rules/score", '{"x": ' + HUGE + "}")
    body = assert_shape(response, 400)
    assert body["errors"][0]["code"] == "input.number_too_large"


def test_a_json_integer_of_thousands_of_digits_stores_nothing(people, match):
    client = api(people, "scorer")
    body = '{"number": 1, "deal": {"sides": {"A": {"thirds": ' + HUGE + "}}}}"
    response = raw_post(client, f"/api/v1/matches/{match.pk}/deals", body)
    assert_shape(response, 400)
    negative = raw_post(client, f"/api/v1/matches/{match.pk}/deals", body.replace(HUGE, "-" + HUGE))
    assert_shape(negative, 400)
    assert Deal.objects.count() == 0


BAD_IDS = ["²", "abc", "1.5", "0", "-1", "9" * 4400, "9223372036854775808", "%00"]


@pytest.fixture
def published(people):
    people.club.public = True
    people.club.save(update_fields=["public"])
    return people.club


def _paths(people, match, deal):
    from scorebook.standings.models import Season

    season = Season.objects.create(club=people.club, name="2026-27", starts_on="2026-09-01")
    club, slug = people.club.pk, people.club.slug
    return season, [
        "/api/v1/matches/{}/deals",
        "/api/v1/matches/{}",
        "/api/v1/matches/{}/state",
        "/api/v1/deals/{}",
        "/api/v1/deals/{}/history",
        "/api/v1/nights/{}",
        "/api/v1/tables/{}",
        "/api/v1/players/{}",
        "/api/v1/players/{}/statistics",
        "/api/v1/clubs/{}",
        "/api/v1/clubs/{}/standings-settings",
        "/api/v1/leagues/{}",
        "/api/v1/fixtures/{}",
        "/api/v1/seasons/{}",
        "/api/v1/leaderboard?season={}",
        f"/api/v1/leaderboard?season={season.pk}&page={{}}",
        "/api/v1/ratings?game=tressette4&club={}",
        f"/api/v1/rating-history?game=tressette4&club={club}&player={{}}",
        f"/api/v1/public/clubs/{slug}/leaderboard?season={{}}",
        f"/api/v1/public/clubs/{slug}/leaderboard?season={season.pk}&page={{}}",
        f"/api/v1/public/clubs/{slug}/matches/{{}}",
        f"/api/v1/public/clubs/{slug}/players/{{}}/statistics",
    ]


@pytest.mark.parametrize("who", ["owner", "anonymous"])
def test_a_bad_id_or_number_in_a_path_or_query_is_a_4xx_like_a_missing_one(
    people, match, deal, published, who
):
    client = api(people, who)
    _season, paths = _paths(people, match, deal)
    for path in paths:
        if who == "anonymous" and "/public/" not in path:
            continue
        missing = client.get(path.format("987654"))
        for bad in BAD_IDS:
            response = client.get(path.format(bad))
            # a filter: no player's rows, as for a missing player
            if "player=" in path and bad != "%00":
                assert response.status_code == missing.status_code == 200, (path, bad)
                assert response.json()["results"] == [], (path, bad)
                continue
            assert 400 <= response.status_code < 500, (path, bad, response.status_code)
            assert response.json()["errors"], (path, bad)
            if "?" not in path and bad != "%00":  # a malformed ?season= may be a 400
                assert response.status_code == missing.status_code, (path, bad)


def test_a_nul_in_a_game_parameter_is_a_4xx(people, published):
    slug = people.club.slug
    client = api(people, "anonymous")
    for path in (
        f"/api/v1/public/clubs/{slug}/ratings?game=t%00x",
        f"/api/v1/public/clubs/{slug}/leaderboard?season=1&game=t%00x",
    ):
        response = client.get(path)
        assert 400 <= response.status_code < 500, (path, response.status_code)


def test_a_deal_posted_to_a_match_whose_id_is_not_a_number_is_not_found(people, match):
    client = api(people, "scorer")
    for bad in ("²", "abc", "9" * 4400):
        response = raw_post(client, f"/api/v1/matches/{bad}/deals", '{"number": 1, "deal": {}}')
        assert_shape(response, 404)
    assert Deal.objects.count() == 0
