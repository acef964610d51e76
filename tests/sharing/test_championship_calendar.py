"""A championship's fixtures in the clubs' calendar feeds (issue 34 item 3): both clubs'
feeds hold them on their planned night, a postponement moves the event (same UID), a
played fixture is on its night, a player's feed holds their teams' fixtures only, a
league's feed none."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client

from scorebook.federations.services import championships as champs
from tests.federations.championship_helpers import home_fixture, league, officer, tonight
from tests.sharing.test_calendars import events, token_of

pytestmark = pytest.mark.django_db


def test_both_clubs_feeds_move_with_a_postponement(people):
    made = league(people, first_day=datetime.date(2026, 12, 4))
    at_home = home_fixture(made)
    away = made.fixtures.exclude(pk=at_home.pk).get()
    url = f"/cal/{token_of(people)}/club.ics"
    found = events(Client().get(url).content)
    home_event = found[f"championship-fixture-{at_home.pk}@testserver"]
    away_event = found[f"championship-fixture-{away.pk}@testserver"]
    assert home_event["start"].date() == at_home.planned_on
    assert away_event["start"].date() == away.planned_on
    assert home_event["summary"] == "Campionato a squadre, turno 2: San Rocco A – Altrove A"
    assert home_event["start"].hour == 21 and str(home_event["start"].tzinfo) == "Europe/Rome"
    champs.fixture_plan(
        fixture=at_home,
        day=datetime.date(2026, 12, 15),
        reason="Sala occupata",
        user=officer(made.federation),
    )
    moved = events(Client().get(url).content)[f"championship-fixture-{at_home.pk}@testserver"]
    assert moved["start"].date() == datetime.date(2026, 12, 15)
    assert moved["description"] == "Sala occupata"
    # Nino plays for San Rocco A: his own feed has both; the scorer plays for no team
    mine = events(Client().get(f"/cal/{token_of(people)}/mine.ics").content)
    assert f"championship-fixture-{at_home.pk}@testserver" in mine
    scorer = events(Client().get(f"/cal/{token_of(people, 'scorer')}/mine.ics").content)
    assert not any(uid.startswith("championship-") for uid in scorer)


def test_a_played_fixture_is_on_its_night(people):
    made = league(people)
    at_home = home_fixture(made)
    night = tonight(people)
    champs.fixture_play(fixture=at_home, user=people.director)
    found = events(Client().get(f"/cal/{token_of(people)}/club.ics").content)
    assert found[f"championship-fixture-{at_home.pk}@testserver"]["start"].date() == night.date
    # no planned night, not played: not in the feed
    away = made.fixtures.exclude(pk=at_home.pk).get()
    assert f"championship-fixture-{away.pk}@testserver" not in found
