"""The rules engine over HTTP: stateless scoring and the games catalogue."""

import pytest

DEAL = {
    "game": "tressette4",
    "sides": {"A": {"thirds": 14, "tricks": 4}, "B": {"thirds": 18, "tricks": 6}},
    "last_trick": "B",
}


@pytest.mark.django_db
def test_score_a_deal_anonymously(client):
    response = client.post("/api/v1/rules/score", DEAL, content_type="application/json")
    assert response.status_code == 200
    assert response.json()["result"]["points"] == {"A": 4, "B": 7}


@pytest.mark.django_db
def test_score_a_match(client):
    deal = {k: v for k, v in DEAL.items() if k != "game"}
    body = {"game": "tressette4", "deals": [deal] * 3}
    response = client.post("/api/v1/rules/score", body, content_type="application/json")
    assert response.status_code == 200
    assert response.json()["match"]["outcome"]["winners"] == ["E", "W"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "language,start",
    [("it", "I terzi inseriti sommano 31"), ("en", "The thirds entered add up to 31")],
)
def test_rejection_is_400_in_the_requests_language(client, language, start):
    bad = {**DEAL, "sides": {"A": {"thirds": 13, "tricks": 4}, "B": {"thirds": 18, "tricks": 6}}}
    response = client.post(
        "/api/v1/rules/score", bad, content_type="application/json", HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["code"] == "capture.thirds_total"
    assert error["message"].startswith(start)


@pytest.mark.django_db
def test_malformed_json_is_a_400(client):
    response = client.post("/api/v1/rules/score", "{nope", content_type="application/json")
    assert response.status_code == 400


@pytest.mark.django_db
def test_games_catalogue(client):
    response = client.get("/api/v1/rules/games")
    assert response.status_code == 200
    keys = {g["key"] for g in response.json()["games"]}
    assert {"tressette4", "terziglio", "calabrasella", "spinado", "trappola"} <= keys


@pytest.mark.django_db
def test_score_a_play_record(client):
    from tests.api.test_matches_api import RECORD

    body = {"game": "tressette4", "dealer": "N", **RECORD}
    response = client.post("/api/v1/rules/score", body, content_type="application/json")
    assert response.status_code == 200, response.json()
    result = response.json()["result"]
    assert result["level"] == "play" and result["points"] == {"A": 0, "B": 11}
