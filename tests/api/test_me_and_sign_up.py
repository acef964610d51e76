"""An app does what the pages do (issue 26 steps 5 and 6): the token is accepted after
``Bearer`` as after ``Token``; ``GET /api/v1/me`` says who is signed in, their clubs,
roles and players; a new person accepts an invitation through the API with a username
and a password, under the join page's rules (the same service, the same form's checks)."""

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from scorebook.clubs import services
from scorebook.clubs.models import Membership, Player
from tests.api.shapes import live_schema, validate

SIGN_UP = "/api/v1/invitations/sign-up"


def _with(prefix: str, key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"{prefix} {key}")
    return client


def test_the_token_is_accepted_as_token_or_bearer(people):
    key = Token.objects.create(user=people.member).key
    for prefix in ("Token", "Bearer", "bearer"):
        answer = _with(prefix, key).get("/api/v1/me")
        assert answer.status_code == 200, (prefix, answer.content)
        assert answer.json()["username"] == "member"
    assert _with("Bearer", "not-a-token").get("/api/v1/me").status_code == 401
    assert _with("Bearer", "").get("/api/v1/me").status_code == 401
    assert _with("Basic", key).get("/api/v1/me").status_code == 401
    anonymous = APIClient().get("/api/v1/me")
    assert anonymous.status_code == 401 and anonymous["WWW-Authenticate"] == "Token"


def test_me_lists_my_clubs_roles_and_players(people):
    # The member is Nino at San Rocco; give them a second club where no player is theirs.
    Membership.objects.create(club=people.other, user=people.member, role="scorer")
    key = Token.objects.create(user=people.member).key
    answer = _with("Bearer", key).get("/api/v1/me")
    assert answer.status_code == 200
    me = answer.json()
    assert (me["id"], me["username"]) == (people.member.pk, "member")
    assert [(c["club"]["slug"], c["role"], c["player"]) for c in me["clubs"]] == [
        ("san-rocco", "member", {"id": people.seated[0].pk, "name": "Nino"}),
        ("altrove", "scorer", None),
    ]
    validate(live_schema(), "Me", me)


def test_the_schema_declares_the_bearer_scheme_me_and_sign_up(db):
    schema = live_schema()
    schemes = schema["components"]["securitySchemes"]
    assert schemes["bearerAuth"] == {**schemes["bearerAuth"], "type": "http", "scheme": "bearer"}
    assert schemes["tokenAuth"]["type"] == "apiKey"
    me = schema["paths"]["/api/v1/me"]["get"]
    assert {"bearerAuth": []} in me["security"] and {"tokenAuth": []} in me["security"]
    sign_up = schema["paths"][SIGN_UP]["post"]
    assert sign_up["responses"]["201"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/SignedUp"
    }
    request = schema["components"]["schemas"]["InvitationSignUpRequest"]
    assert set(request["required"]) == {"token", "username", "password"}


@pytest.fixture
def invitation(people):
    return services.invitation_create(
        club=people.club,
        role="scorer",
        player=people.seated[1],
        max_uses=1,
        days=7,
        user=people.director,
    )


def test_a_new_person_signs_up_with_an_invitation(people, invitation):
    body = {"token": invitation.token, "username": "ettore", "password": "tre-sette-calabria"}
    answer = APIClient().post(SIGN_UP, body, format="json")
    assert answer.status_code == 201, answer.content
    validate(live_schema(), "SignedUp", answer.json())
    user = get_user_model().objects.get(username="ettore")
    assert user.check_password("tre-sette-calabria")
    assert answer.json()["membership"]["role"] == "scorer"
    assert Player.objects.get(pk=people.seated[1].pk).user == user  # becomes Ettore
    me = _with("Bearer", answer.json()["token"]).get("/api/v1/me").json()
    assert [(c["club"]["slug"], c["role"], c["player"]["name"]) for c in me["clubs"]] == [
        ("san-rocco", "scorer", "Ettore")
    ]
    # The invitation is used up: a second newcomer is refused, and no account is made.
    again = APIClient().post(SIGN_UP, {**body, "username": "salvo"}, format="json")
    assert again.status_code in (400, 409, 410) and again.json()["errors"][0]["code"]
    assert not get_user_model().objects.filter(username="salvo").exists()


@pytest.mark.parametrize(
    ("username", "password", "path", "code"),
    [
        ("ettore", "short", "password", "input.password_too_short"),
        ("ettore", "password", "password", "input.password_too_common"),
        ("et tore", "tre-sette-calabria", "username", "input.invalid"),
    ],
)
def test_the_join_pages_rules_refuse_and_store_nothing(
    people, invitation, username, password, path, code
):  # noqa: E501
    users = get_user_model().objects.count()
    body = {"token": invitation.token, "username": username, "password": password}
    answer = APIClient().post(SIGN_UP, body, format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert answer.status_code == 400, answer.content
    errors = answer.json()["errors"]
    assert (errors[0]["path"], errors[0]["code"]) == (path, code)
    assert get_user_model().objects.count() == users
    invitation.refresh_from_db()
    assert invitation.uses == 0


def test_a_username_taken_in_any_case_is_the_services_409_in_words(people, invitation):
    """Django's form said 400 input.unique for a taken name typed again, the service 409
    user.username_taken for two at once: one refusal now (tests/api/test_one_refusal.py)."""
    users = get_user_model().objects.count()
    body = {"token": invitation.token, "username": "MEMBER", "password": "tre-sette-calabria"}
    answer = APIClient().post(SIGN_UP, body, format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert answer.status_code == 409, answer.content
    error = answer.json()["errors"][0]
    assert (error["path"], error["code"]) == ("username", "user.username_taken")
    assert "MEMBER" in error["message"] and "taken" not in error["message"]  # in Italian
    assert get_user_model().objects.count() == users
    invitation.refresh_from_db()
    assert invitation.uses == 0


def test_an_unknown_invitation_makes_no_account(db):
    body = {"token": "nope", "username": "ettore", "password": "tre-sette-calabria"}
    answer = APIClient().post(SIGN_UP, body, format="json")
    assert answer.status_code in (400, 404) and answer.json()["errors"][0]["code"]
    assert not get_user_model().objects.filter(username="ettore").exists()


def test_sign_ups_are_throttled_per_address(people, invitation, monkeypatch):
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {"signup": "2/hour"})
    body = {"token": "nope", "username": "x", "password": "tre-sette-calabria"}
    statuses = [
        APIClient().post(SIGN_UP, body, format="json", REMOTE_ADDR="10.9.8.7").status_code
        for _ in range(3)
    ]
    assert statuses[:2] != [429, 429] and statuses[2] == 429
    other = APIClient().post(SIGN_UP, body, format="json", REMOTE_ADDR="10.9.8.8")
    assert other.status_code != 429
