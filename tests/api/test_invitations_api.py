"""Invitations through the API: a director makes one, the invitee accepts it."""

from scorebook.clubs.models import Membership
from tests.api.common import api


def test_invite_then_accept(club, people):
    made = api(people, "director").post(
        "/api/v1/invitations",
        {"club": club.pk, "role": "scorer", "max_uses": 2, "days": 3},
        format="json",
    )
    assert made.status_code == 201, made.json()
    body = made.json()
    assert body["url"].endswith(f"/join/{body['token']}") and body["uses"] == 0
    listed = api(people, "director").get("/api/v1/invitations").json()
    assert [i["id"] for i in listed["results"]] == [body["id"]]
    assert api(people, "member").get("/api/v1/invitations").json()["results"] == []
    joined = api(people, "stranger").post(
        "/api/v1/invitations/accept", {"token": body["token"]}, format="json"
    )
    assert joined.status_code == 201, joined.json()
    assert joined.json()["role"] == "scorer"
    assert Membership.objects.get(club=club, user=people["stranger"]).role == "scorer"


def test_unknown_token_and_already_member_in_the_error_shape(club, people):
    unknown = api(people, "stranger").post(
        "/api/v1/invitations/accept", {"token": "nope"}, format="json"
    )
    assert unknown.status_code == 404
    assert unknown.json()["errors"][0]["code"] == "invitation.invalid"
    assert unknown.json()["errors"][0]["path"] == "token"


def test_a_director_cannot_invite_above_their_role_or_to_another_club(club, people):
    above = api(people, "director").post(
        "/api/v1/invitations", {"club": club.pk, "role": "owner"}, format="json"
    )
    assert above.status_code == 403
    elsewhere = api(people, "director").post(
        "/api/v1/invitations", {"club": people.other.pk, "role": "member"}, format="json"
    )
    missing = api(people, "director").post(
        "/api/v1/invitations", {"club": 999999, "role": "member"}, format="json"
    )
    assert elsewhere.status_code == missing.status_code == 400
    assert elsewhere.json()["errors"][0]["code"] == missing.json()["errors"][0]["code"]
