"""The championship's pages (issue 34 item 3): the home director plays a fixture from the
championship page, the away captain confirms it there, the table moves, and the public page
shows it when the federation publishes (404 otherwise). Never any money."""

from __future__ import annotations

import pytest
from django.test import Client

from scorebook.federations.models import ChampionshipFixture
from tests import builders as build
from tests.federations.championship_helpers import home_fixture, league, play_out, tonight

pytestmark = pytest.mark.django_db


def client_of(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def test_play_confirm_and_the_table_moves(people):
    made = league(people)
    fixture = home_fixture(made)
    tonight(people)
    url = f"/f/{made.federation.slug}/championships/{made.pk}/"
    director = client_of(people.director)
    page = director.get(url).content.decode()
    assert "Play this fixture" in page and "Championships" in page
    # the away captain may not play it; the home director does
    away = client_of(people.stranger)
    assert away.post(url, {"fixture": fixture.pk, "do": "play"}).status_code == 403
    assert director.post(url, {"fixture": fixture.pk, "do": "play"}).status_code == 302
    fixture.refresh_from_db()
    assert fixture.status == ChampionshipFixture.Status.PLAYING
    play_out(people, fixture)
    assert "Confirm the result" in away.get(url).content.decode()
    assert away.post(url, {"fixture": fixture.pk, "do": "confirm"}).status_code == 302
    fixture.refresh_from_db()
    assert fixture.status == ChampionshipFixture.Status.CONFIRMED
    page = director.get(url).content.decode()
    assert "<strong>2</strong>" in page and "EUR" not in page
    public = f"/public/f/{made.federation.slug}/championships/{made.pk}/"
    assert Client().get(public).status_code == 404
    made.federation.publishes = True
    made.federation.save()
    shown = Client(HTTP_ACCEPT_LANGUAGE="it").get(public)
    assert shown.status_code == 200 and "San Rocco A" in shown.content.decode()


def test_a_refusal_is_said_in_words(people):
    made = league(people)
    fixture = home_fixture(made)
    url = f"/f/{made.federation.slug}/championships/{made.pk}/"
    answer = client_of(people.director).post(url, {"fixture": fixture.pk, "do": "play"})
    assert answer.status_code == 409 and "no night open today" in answer.content.decode()


def test_a_championship_of_a_federation_one_does_not_see_is_404(people):
    made = league(people)
    outsider = build.club("Borgo", "borgo")[1]
    url = f"/f/{made.federation.slug}/championships/{made.pk}/"
    assert client_of(outsider).get(url).status_code == 404
