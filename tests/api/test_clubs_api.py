"""Members and players: nobody hands out a role above their own, a club keeps an owner,
a player is linked only to a member, and every change is in the audit log."""

from scorebook.clubs.models import Membership
from scorebook.core.models import AuditEvent
from tests.api.common import api


def membership(people, who):
    return Membership.objects.get(club=people.club, user=people[who])


def test_a_director_cannot_make_an_owner_or_touch_one(people):
    director = api(people, "director")
    promote = director.patch(
        f"/api/v1/memberships/{membership(people, 'scorer').pk}", {"role": "owner"}, format="json"
    )
    assert promote.status_code == 403
    assert promote.json()["errors"][0]["code"] == "role.required"
    demote = director.patch(
        f"/api/v1/memberships/{membership(people, 'owner').pk}", {"role": "member"}, format="json"
    )
    assert demote.status_code == 403
    self_promote = director.patch(
        f"/api/v1/memberships/{membership(people, 'director').pk}", {"role": "owner"}, format="json"
    )
    assert self_promote.status_code == 403
    assert membership(people, "director").role == "director"


def test_the_last_owner_stays(people):
    owner = api(people, "owner")
    url = f"/api/v1/memberships/{membership(people, 'owner').pk}"
    refused = owner.patch(url, {"role": "director"}, format="json")
    assert refused.status_code == 409
    assert refused.json()["errors"][0]["code"] == "club.last_owner"
    assert owner.delete(url).status_code == 409
    # With a second owner the first may step down.
    owner.patch(f"/api/v1/memberships/{membership(people, 'director').pk}", {"role": "owner"})
    assert owner.patch(url, {"role": "director"}, format="json").status_code == 200


def test_nobody_is_added_to_a_club_by_username(people):
    """Joining is an invitation the person accepts: adding an account by its username would
    tell whether it exists and add it without consent (issue 15)."""
    for username in ("stranger", "nobody"):
        response = api(people, "director").post(
            "/api/v1/memberships",
            {"club": people.club.pk, "username": username, "role": "scorer"},
            format="json",
        )
        assert response.status_code == 405
    assert not people.club.memberships.filter(user=people.stranger).exists()
    assert not AuditEvent.objects.filter(verb="member_added").exists()


def test_a_player_links_only_to_a_member_and_stays_in_its_club(people):
    scorer = api(people, "scorer")
    outsider = scorer.post(
        "/api/v1/players",
        {"club": people.club.pk, "name": "Spia", "user": people.stranger.pk},
        format="json",
    )
    # Another club's member is as unknown as an account that does not exist.
    assert outsider.status_code == 400
    assert outsider.json()["errors"][0]["code"] == "input.does_not_exist"
    assert outsider.json()["errors"][0]["path"] == "user"
    nino = people.seated[0]
    moved = scorer.patch(f"/api/v1/players/{nino.pk}", {"club": people.other.pk}, format="json")
    assert moved.status_code == 200
    nino.refresh_from_db()
    assert nino.club_id == people.club.pk
    renamed = scorer.patch(f"/api/v1/players/{nino.pk}", {"name": "Nino B."}, format="json")
    assert renamed.json()["name"] == "Nino B."
    event = AuditEvent.objects.get(verb="player_changed", object_id=str(nino.pk))
    assert event.before == {"name": "Nino"} and event.after == {"name": "Nino B."}


def test_validation_errors_name_the_field_in_the_requests_language(people):
    body = {"club": people.club.pk, "date": "ieri"}
    response = api(people, "director").post(
        "/api/v1/nights", body, format="json", HTTP_ACCEPT_LANGUAGE="it"
    )
    assert response.status_code == 400
    (problem,) = response.json()["errors"]
    assert problem["path"] == "date" and problem["code"] == "input.invalid"
    assert "data" in problem["message"].lower()
