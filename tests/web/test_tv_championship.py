"""The TV on a championship night (issue 34 item 7): the home club's TV shows tonight's
fixture as a team result beside its tables, tables won then game points, moving with each
finished table, and says whether it is being played, waits for the away captain or is
confirmed. No money."""

import pytest
from django.test import Client

from scorebook.clubs.models import Club
from scorebook.federations import championship_selectors as reads
from scorebook.federations.models import FixtureTable
from scorebook.federations.services import championships as champs
from tests import builders as build
from tests.federations.championship_helpers import home_fixture, league, tonight

pytestmark = pytest.mark.django_db


def tv(people) -> str:
    return (
        Client().get(f"/public/{people.club.slug}/tv", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    )


def test_the_tv_shows_tonights_fixture_as_a_team_result(people):
    Club.objects.filter(pk=people.club.pk).update(public=True)
    made = league(people)
    fixture = home_fixture(made)
    tonight(people)
    champs.fixture_play(fixture=fixture, user=people.director)
    first, second = (
        t.match for t in FixtureTable.objects.filter(fixture=fixture).order_by("number")
    )
    page = tv(people)
    assert "tv-fixtures" in page and made.name in page
    assert "San Rocco A" in page and "<strong>0–0</strong>" in page and "being played" in page
    build.finish(people, first, build.A_WINS)
    page = tv(people)
    assert "<strong>1–0</strong>" in page and "being played" in page
    points = reads.result(fixture)
    assert f"game points {points.home_points}–{points.away_points}" in page
    build.finish(people, second, build.B_WINS)
    page = tv(people)
    assert "<strong>1–1</strong>" in page and "waiting for the away captain" in page
    champs.fixture_confirm(fixture=fixture, user=people.stranger)
    assert "confirmed" in tv(people)
    assert "EUR" not in page


def test_a_night_without_a_fixture_shows_no_fixture_panel(people):
    Club.objects.filter(pk=people.club.pk).update(public=True)
    build.night(people)
    assert "tv-fixtures" not in tv(people)
