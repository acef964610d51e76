"""The federation's calendar feed (issue 34 item 7): every fixture of its championships at
the home club's hours and place (a postponement moves it, the same UID) and its federal
tournaments (one called off stays, marked cancelled); for who sees the federation, and for
anyone when it publishes; never a fee."""

import datetime

import pytest
from django.test import Client
from icalendar import Calendar

from scorebook.federations.services import championships as champs
from scorebook.federations.services import federal_tournaments as federal
from tests.federations.championship_helpers import home_fixture, league, officer

pytestmark = pytest.mark.django_db


def events(body: bytes) -> dict[str, dict]:
    cal = Calendar.from_ical(body)
    return {
        str(e["uid"]).split("@")[0]: {
            "summary": str(e["summary"]),
            "start": e.decoded("dtstart"),
            "location": str(e.get("location", "")),
            "status": str(e.get("status", "")),
        }
        for e in cal.walk("VEVENT")
    }


def as_(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_fixtures_and_federal_tournaments_in_the_federations_feed(people):
    made = league(people)
    fed = made.federation
    fixture = home_fixture(made)
    day = datetime.date.today() + datetime.timedelta(days=20)
    champs.fixture_plan(fixture=fixture, day=day, user=officer(fed), reason="festa patronale")
    cup = federal.federal_tournament_announce(
        federation=fed,
        user=officer(fed),
        name="Torneo di primavera",
        date=day + datetime.timedelta(days=1),
        host=people.other.slug,
        level="provincial",
        game="tressette4",
        rules={"profile": "classic_21"},
        format="swiss",
        rounds=2,
        cap=8,
        fee="5",
        federation_share="1",
        currency="EUR",
    )
    federal.federal_tournament_cancel(federal_tournament=cup, reason="pioggia", user=officer(fed))
    answer = as_(people.member).get(f"/f/{fed.slug}/calendar.ics", HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/calendar")
    found = events(answer.content)
    mine = found[f"championship-fixture-{fixture.pk}"]
    assert "San Rocco A" in mine["summary"] and "Altrove A" in mine["summary"]
    assert mine["start"].date() == day and mine["location"] == people.club.name
    dated = [f.pk for f in made.fixtures.all() if f.planned_on or f.night_id]
    assert {k for k in found if k.startswith("championship-fixture-")} == {
        f"championship-fixture-{pk}" for pk in dated
    }, list(made.fixtures.values_list("pk", "planned_on", "night_id"))
    tour = found[f"federal-tournament-{cup.pk}"]
    assert tour["location"] == people.other.name and tour["status"] == "CANCELLED"
    assert b"EUR" not in answer.content and b"5.00" not in answer.content
    # the stranger owns Altrove, a member club: they see it; an outsider does not
    assert as_(people.stranger).get(f"/f/{fed.slug}/calendar.ics").status_code == 200
    outsider = type(people.member).objects.create_user("outsider")
    assert as_(outsider).get(f"/f/{fed.slug}/calendar.ics").status_code == 404
    # public only when the federation publishes
    assert Client().get(f"/public/f/{fed.slug}/calendar.ics").status_code == 404
    fed.publishes = True
    fed.save(update_fields=["publishes"])
    public = Client().get(f"/public/f/{fed.slug}/calendar.ics")
    assert public.status_code == 200 and set(events(public.content)) == set(found)
