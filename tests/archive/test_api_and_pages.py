"""The export and erasure through HTTP: the API's ZIPs and erasures, the pages' links,
forms and refusals; cross-club ids are 404, bad input is a refusal in words, never a 500,
and changes nothing."""

import io
import json
import zipfile

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scorebook.archive.models import Erasure
from scorebook.clubs.models import Club, Membership, Player
from tests.archive.conftest import client_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(demo_made_once):
    """The demo club made once for the module, each test in a savepoint of it."""
    return demo_made_once


def api(username=None, language="en"):
    client = APIClient(HTTP_ACCEPT_LANGUAGE=language)
    if username:
        client.force_authenticate(get_user_model().objects.get(username=username))
    return client


def unzip(response) -> zipfile.ZipFile:
    return zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))


def test_the_club_export_over_the_api(demo):
    response = api("director").get(f"/api/v1/clubs/{demo.pk}/export")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"].startswith('attachment; filename="scorebook-san-rocco-')
    archive = unzip(response)
    assert "README.md" in archive.namelist()
    assert json.loads(archive.read("club.json"))[0]["id"] == demo.pk


def test_a_member_is_refused_the_club_export_and_another_club_is_404(demo):
    response = api("carmelo.bellini", "it").get(f"/api/v1/clubs/{demo.pk}/export")
    assert response.status_code == 403
    assert response.json()["errors"][0]["code"] == "role.required"
    other = Club.objects.create(name="Altrove", slug="altrove")
    assert api("director").get(f"/api/v1/clubs/{other.pk}/export").status_code == 404
    assert api("director").get("/api/v1/clubs/99999/export").status_code == 404
    assert api().get(f"/api/v1/clubs/{demo.pk}/export").status_code == 401


def test_my_own_data_over_the_api(demo):
    response = api("carmelo.bellini").get("/api/v1/me/export")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    account = json.loads(unzip(response).read("account.json"))
    assert account[0]["email"] == "carmelo@example.org"


def test_erasing_a_player_over_the_api(demo):
    carmelo = Player.objects.get(club=demo, name="Carmelo")
    url = f"/api/v1/players/{carmelo.pk}/erase"
    wrong = api("director", "it").post(url, {"name": "Carmel"}, format="json")
    assert wrong.status_code == 400
    error = wrong.json()["errors"][0]
    assert error["code"] == "erase.not_confirmed" and error["path"] == "name"
    assert "Carmelo" in error["message"] and "Scrivi" in error["message"]
    done = api("director").post(url, {"name": "carmelo"}, format="json")
    assert done.status_code == 200
    assert done.json() == {"player": carmelo.pk, "name": "Erased player #1", "number": 1}
    again = api("director").post(url, {"name": "Erased player #1"}, format="json")
    assert again.status_code == 409 and again.json()["errors"][0]["code"] == "erase.already_erased"
    shown = api("director").get(f"/api/v1/players/{carmelo.pk}").json()
    assert shown["name"] == "Erased player #1"


@pytest.mark.parametrize(
    "body",
    [{}, {"name": None}, {"name": ["Carmelo"]}, {"name": {"x": 1}}, {"name": 5}, {"name": ""},
     {"name": "Carmelo\u0000"}, {"name": "x" * 5000}, "Carmelo", [1]],
)  # fmt: skip
def test_bad_erasure_bodies_are_refused_and_change_nothing(demo, body):
    carmelo = Player.objects.get(club=demo, name="Carmelo")
    response = api("director").post(f"/api/v1/players/{carmelo.pk}/erase", body, format="json")
    assert 400 <= response.status_code < 500, response.content
    assert response.json()["errors"][0]["code"]
    assert not Erasure.objects.exists()


def test_erasing_another_clubs_player_is_404(demo):
    other = Club.objects.create(name="Altrove", slug="altrove")
    stranger = Player.objects.create(club=other, name="Ugo")
    response = api("director").post(f"/api/v1/players/{stranger.pk}/erase", {"name": "Ugo"})
    assert response.status_code == 404
    assert not Erasure.objects.exists()


def test_a_member_cannot_erase_another(demo):
    tano = Player.objects.get(club=demo, name="Tano")
    response = api("carmelo.bellini").post(
        f"/api/v1/players/{tano.pk}/erase", {"name": "Tano"}, format="json"
    )
    assert response.status_code == 403
    assert not Erasure.objects.exists()


def test_erasing_ones_own_account_over_the_api(demo):
    token = Token.objects.create(user=get_user_model().objects.get(username="carmelo.bellini"))
    client = APIClient(HTTP_AUTHORIZATION=f"Token {token.key}")
    wrong = client.post("/api/v1/me/erase", {"username": "carmelo"}, format="json")
    assert wrong.status_code == 400 and wrong.json()["errors"][0]["path"] == "username"
    assert client.post("/api/v1/me/erase", {"username": "carmelo.bellini"}).status_code == 204
    assert client.get("/api/v1/me").status_code == 401
    assert Player.objects.filter(club=demo, name="Erased player #1").exists()


# -- pages ---------------------------------------------------------------------------------


def test_the_settings_page_offers_directors_the_export(demo):
    page = client_of("director").get(f"/c/{demo.slug}/settings").content.decode()
    assert f"/c/{demo.slug}/export.zip" in page
    member = client_of("carmelo.bellini").get(f"/c/{demo.slug}/settings").content.decode()
    assert "export.zip" not in member
    assert client_of("carmelo.bellini").get(f"/c/{demo.slug}/export.zip").status_code == 403
    response = client_of("director").get(f"/c/{demo.slug}/export.zip")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"


def test_the_players_page_offers_directors_the_erasure(demo):
    carmelo = Player.objects.get(club=demo, name="Carmelo")
    link = f"/c/{demo.slug}/players/{carmelo.pk}/erase"
    assert link in client_of("director").get(f"/c/{demo.slug}/players").content.decode()
    assert link not in client_of("carmelo.bellini").get(f"/c/{demo.slug}/players").content.decode()


def test_the_erase_page_asks_for_the_name(demo):
    carmelo = Player.objects.get(club=demo, name="Carmelo")
    url = f"/c/{demo.slug}/players/{carmelo.pk}/erase"
    director = client_of("director")
    for body in ({}, {"name": ""}, {"name": "Carmel"}, {"name": "x" * 300}):
        response = director.post(url, body)
        assert response.status_code == 400, body
        assert 'class="error"' in response.content.decode() or "errors" in response.content.decode()
    assert not Erasure.objects.exists()
    italian = client_of("director")
    italian.defaults["HTTP_ACCEPT_LANGUAGE"] = "it"
    refused = italian.post(url, {"name": "Carmel"}).content.decode()
    assert "Scrivi" in refused
    done = director.post(url, {"name": "Carmelo"}, follow=True)
    assert "Erased player #1" in done.content.decode()
    assert director.get(url).status_code == 200  # says it is done, offers nothing


def test_a_member_gets_no_form_and_cannot_post_it(demo):
    tano = Player.objects.get(club=demo, name="Tano")
    member = client_of("carmelo.bellini")
    url = f"/c/{demo.slug}/players/{tano.pk}/erase"
    assert '<form method="post" class="stack">' not in member.get(url).content.decode()
    assert member.post(url, {"name": "Tano"}).status_code == 403
    assert not Erasure.objects.exists()


def test_another_clubs_player_page_is_404(demo):
    other = Club.objects.create(name="Altrove", slug="altrove")
    ugo = Player.objects.create(club=other, name="Ugo")
    director = client_of("director")
    assert director.get(f"/c/{demo.slug}/players/{ugo.pk}/erase").status_code == 404
    assert director.get(f"/c/altrove/players/{ugo.pk}/erase").status_code == 404
    assert director.get(f"/c/{demo.slug}/players/abc/erase").status_code == 404
    assert director.get("/c/altrove/export.zip").status_code == 404


def test_the_account_page_exports_and_erases(demo):
    carmelo = client_of("carmelo.bellini")
    page = carmelo.get("/me/").content.decode()
    assert "/me/export.zip" in page and "/me/erase" in page
    data = carmelo.get("/me/export.zip")
    assert data.status_code == 200 and "account.json" in unzip(data).namelist()
    refused = carmelo.post("/me/erase", {"username": "carmelo.bellini"})
    assert refused.status_code == 400  # the box "I understand" not ticked
    done = carmelo.post("/me/erase", {"username": "carmelo.bellini", "understood": "on"})
    assert done.status_code == 302
    assert carmelo.get("/me/").status_code == 302  # signed out
    assert not Membership.objects.filter(user__username="carmelo.bellini").exists()


def test_the_only_owner_is_told_why(demo):
    owner = client_of("demo")
    response = owner.post("/me/erase", {"username": "demo", "understood": "on"})
    assert response.status_code == 409
    assert "only owner" in response.content.decode()


def test_the_privacy_page_is_public_and_linked_from_every_page(demo):
    for language, words in (("en", "What is stored"), ("it", "Cosa conserviamo")):
        page = APIClient(HTTP_ACCEPT_LANGUAGE=language).get("/privacy")
        assert page.status_code == 200 and words in page.content.decode()
    assert 'href="/privacy"' in APIClient().get("/").content.decode()
    assert 'href="/privacy"' in client_of("director").get(f"/c/{demo.slug}/").content.decode()


def test_the_privacy_page_says_what_erasure_cannot_reach(demo):
    """Backups made before an erasure, with their retention (deploy/RUNBOOK.md)."""
    for language, words in (("en", "daily ones after 30 days"), ("it", "dopo 13 mesi")):
        page = APIClient(HTTP_ACCEPT_LANGUAGE=language).get("/privacy").content.decode()
        assert words in page
