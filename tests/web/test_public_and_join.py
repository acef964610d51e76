"""Public results and the TV view; joining a club through the invitation page."""

import re

import pytest
from django.test import Client

from scorebook.clubs.models import Club, Membership


@pytest.fixture
def public(club):
    Club.objects.filter(pk=club.pk).update(public=True)
    return club


def test_private_clubs_have_no_public_pages(club, world):
    anyone = Client()
    for url in ("/public/{slug}/", "/public/{slug}/tv", "/public/{slug}/m/{match}"):
        assert anyone.get(url.format(**world)).status_code == 404


def test_public_results_carry_no_stakes(public, world):
    anyone = Client()
    page = anyone.get("/public/{slug}/".format(**world))
    assert page.status_code == 200 and b"Tressette" in page.content
    match = anyone.get("/public/{slug}/m/{finished}".format(**world))
    body = match.content.decode()
    assert match.status_code == 200 and '<svg class="chart"' in body
    assert "EUR" not in body and "0.50" not in body and "settlement" not in body


def test_a_match_of_another_club_is_not_public_here(public, people, world):
    other = people.other
    Club.objects.filter(pk=other.pk).update(public=True)
    assert Client().get(f"/public/{other.slug}/m/{world['match']}").status_code == 404


def test_tv_refreshes_itself_with_htmx_and_no_script(public, world):
    anyone = Client()
    page = anyone.get("/public/{slug}/tv".format(**world)).content.decode()
    assert 'hx-trigger="every 5s"' in page and "/static/web/htmx.min.js" in page
    assert "<script>" not in page
    partial = anyone.get("/public/{slug}/tv".format(**world), HTTP_HX_REQUEST="true")
    assert b"<html" not in partial.content and b'class="points"' in partial.content


def test_join_with_a_new_account(club, world):
    visitor = Client()
    page = visitor.get("/join/{token}".format(**world))
    assert page.status_code == 200 and b"Circolo San Rocco" in page.content
    response = visitor.post(
        "/join/{token}".format(**world),
        {
            "signup": "1",
            "username": "rosa",
            "password1": "a-long-secret-1",
            "password2": "a-long-secret-1",
        },
    )
    assert response.status_code == 302 and response["Location"] == f"/c/{club.slug}/"
    assert Membership.objects.get(club=club, user__username="rosa").role == "member"
    assert visitor.get(f"/c/{club.slug}/").status_code == 200  # logged in


def test_join_with_a_weak_password_is_refused_in_italian_next_to_the_field(club, world):
    response = Client().post(
        "/join/{token}".format(**world),
        {"signup": "1", "username": "rosa", "password1": "123", "password2": "123"},
        HTTP_ACCEPT_LANGUAGE="it",
    )
    assert response.status_code == 400
    assert re.search(r'<p class="error">Questa password è troppo comune', response.content.decode())
    assert not Membership.objects.filter(user__username="rosa").exists()


def test_join_logged_in_and_the_link_is_then_used_up(club, people, world):
    stranger = Client()
    stranger.force_login(people["stranger"])
    assert stranger.post("/join/{token}".format(**world)).status_code == 302
    assert Membership.objects.filter(club=club, user=people["stranger"]).exists()
    again = Client().get("/join/{token}".format(**world), HTTP_ACCEPT_LANGUAGE="it")
    assert again.status_code == 410
    assert "già stato usato" in again.content.decode()


def test_a_member_joining_again_is_told_so(club, people, world):
    member = Client()
    member.force_login(people["member"])
    response = member.post("/join/{token}".format(**world))
    assert response.status_code == 409 and b"already a member" in response.content


def test_an_unknown_link_is_a_404_that_says_why(db):
    response = Client().get("/join/not-a-token")
    assert response.status_code == 404 and b"not valid" in response.content


def test_a_director_makes_and_withdraws_an_invitation_with_a_qr_code(club, people, world):
    director = Client()
    director.force_login(people["director"])
    made = director.post(
        f"/c/{club.slug}/invite", {"role": "scorer", "max_uses": 3, "days": 2}, follow=True
    )
    body = made.content.decode()
    assert '<svg xmlns="http://www.w3.org/2000/svg" viewBox=' in body and "/join/" in body
    owner_role = director.post(
        f"/c/{club.slug}/invite", {"role": "owner", "max_uses": 1, "days": 1}
    )
    assert owner_role.status_code == 200 and b'class="error"' in owner_role.content  # not a choice
    invitation = club.invitations.get(role="scorer")
    director.post(f"/c/{club.slug}/invite/{invitation.pk}/withdraw")
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None
