"""The calendar addresses through the API: a member's own (made once), new ones that
revoke the old, members only; the addresses answer ICS without a session."""

from django.test import Client

from scorebook.clubs.models import Club
from tests.api.common import api


def test_a_member_gets_their_addresses_and_they_answer(people, world, league):
    member = api(people, "member")
    first = member.get(f"/api/v1/clubs/{people.club.pk}/calendar")
    assert first.status_code == 200
    body = first.json()
    assert body["mine"].startswith("http://testserver/cal/") and body["mine"].endswith("/mine.ics")
    assert body["public"] is None
    assert [entry["name"] for entry in body["leagues"]] == ["Coppa d'inverno"]
    assert member.get(f"/api/v1/clubs/{people.club.pk}/calendar").json() == body  # the same
    for url in (body["mine"], body["club"], body["leagues"][0]["url"]):
        assert Client().get(url).content.startswith(b"BEGIN:VCALENDAR")


def test_new_addresses_revoke_the_old(people, world):
    member = api(people, "member")
    old = member.get(f"/api/v1/clubs/{people.club.pk}/calendar").json()
    rotated = member.post(f"/api/v1/clubs/{people.club.pk}/calendar/rotate")
    assert rotated.status_code == 201
    new = rotated.json()
    assert new["club"] != old["club"]
    assert Client().get(old["club"]).status_code == 404
    assert Client().get(new["club"]).status_code == 200
    # a retry with the same Idempotency-Key answers the first result, rotating nothing more
    again = member.post(
        f"/api/v1/clubs/{people.club.pk}/calendar/rotate", HTTP_IDEMPOTENCY_KEY="k-1"
    )
    replay = member.post(
        f"/api/v1/clubs/{people.club.pk}/calendar/rotate", HTTP_IDEMPOTENCY_KEY="k-1"
    )
    assert replay.json() == again.json()
    assert Client().get(again.json()["club"]).status_code == 200


def test_a_public_club_lists_its_public_feed(people, world):
    Club.objects.filter(pk=people.club.pk).update(public=True)
    body = api(people, "member").get(f"/api/v1/clubs/{people.club.pk}/calendar").json()
    assert body["public"] == f"http://testserver/public/{people.club.slug}/nights.ics"


def test_members_only(people, world):
    for who in ("stranger", "anonymous"):
        client = api(people, who)
        get = client.get(f"/api/v1/clubs/{people.club.pk}/calendar")
        post = client.post(f"/api/v1/clubs/{people.club.pk}/calendar/rotate")
        assert (get.status_code, post.status_code) in ((404, 404), (401, 401), (403, 403))
    assert api(people, "member").get("/api/v1/clubs/999999/calendar").status_code == 404
    assert api(people, "member").get("/api/v1/clubs/abc/calendar").status_code == 404
