"""Token authentication as scripts and apps use it: the header, not force_authenticate."""

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scorebook.matches.models import Deal
from tests.api.common import SIDES


def with_token(key, **headers):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}", **headers)
    return client


@pytest.fixture
def scorer_token(people):
    return Token.objects.create(user=people.scorer).key


def test_a_token_signs_in_its_user(club, scorer_token):
    answer = with_token(scorer_token).get("/api/v1/clubs")
    assert answer.status_code == 200
    assert [c["slug"] for c in answer.json()["results"]] == ["san-rocco"]


def test_the_request_carries_the_stored_token(people, scorer_token):
    from api.authentication import FastTokenAuthentication

    user, token = FastTokenAuthentication().authenticate_credentials(scorer_token)
    stored = Token.objects.get(key=scorer_token)
    assert user == people.scorer and token.user is user
    assert (token.key, token.user_id, token.created) == (stored.key, stored.user_id, stored.created)


def test_the_token_endpoint_gives_a_key_that_works(club):
    got = APIClient().post(
        "/api/v1/auth/token", {"username": "scorer", "password": "pw-scorer"}, format="json"
    )
    assert got.status_code == 200
    assert with_token(got.json()["token"]).get("/api/v1/clubs").status_code == 200


def test_an_unknown_key_is_refused_with_a_challenge(club):
    answer = with_token("0" * 40).get("/api/v1/clubs")
    assert answer.status_code == 401
    assert answer["WWW-Authenticate"] == "Token"
    assert answer.json()["errors"][0]["message"] == "Invalid token."


def test_an_inactive_user_is_refused(people, scorer_token):
    people.scorer.is_active = False
    people.scorer.save()
    answer = with_token(scorer_token).get("/api/v1/clubs")
    assert answer.status_code == 401
    assert answer.json()["errors"][0]["message"] == "User inactive or deleted."


def test_the_refusal_speaks_italian_when_asked(club):
    answer = with_token("0" * 40, HTTP_ACCEPT_LANGUAGE="it").get("/api/v1/clubs")
    assert answer.status_code == 401
    assert answer.json()["errors"][0]["message"] == "Token invalido."  # DRF's own catalogue


def test_a_deal_entered_with_a_token_is_the_token_users(match, people, scorer_token):
    answer = with_token(scorer_token, HTTP_IDEMPOTENCY_KEY="phone-1").post(
        f"/api/v1/matches/{match.pk}/deals", {"deal": SIDES, "number": 1}, format="json"
    )
    assert answer.status_code == 201, answer.json()
    assert answer.json()["entered_by"] == "scorer"
    assert answer.json()["confirmations"] == []
    assert Deal.objects.get(pk=answer.json()["id"]).entered_by == people.scorer


def test_a_members_token_cannot_enter_a_deal(match, people):
    key = Token.objects.create(user=people.member).key
    answer = with_token(key).post(
        f"/api/v1/matches/{match.pk}/deals", {"deal": SIDES, "number": 1}, format="json"
    )
    assert answer.status_code == 403
    assert not Deal.objects.exists()
