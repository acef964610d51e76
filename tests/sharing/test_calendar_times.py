"""The club's usual night in the calendar feeds: a director sets when nights start, how
long they last and the club's time zone (Club settings); the feeds place every night,
fixture and tournament there. Defaults: 21:00, three hours, the installation's zone."""

import datetime

import pytest
from django.test import Client
from icalendar import Calendar

from scorebook.clubs import services as clubs
from scorebook.clubs.models import Club
from scorebook.core.refusals import Refusal
from tests.sharing.test_calendars import events, token_of
from tests.web.test_deal_pages import as_


def test_the_defaults_are_nine_for_three_hours_in_the_installations_zone(people, world):
    club = Club.objects.get(pk=people.club.pk)
    assert (club.night_starts, club.night_minutes, club.zone_name) == (
        datetime.time(21, 0),
        180,
        "Europe/Rome",
    )


def test_a_director_sets_the_usual_night_and_the_feed_follows(people, world):
    clubs.club_update(
        club=people.club,
        changes={
            "night_starts": datetime.time(20, 30),
            "night_minutes": 240,
            "time_zone": "Europe/Zurich",
        },
        user=people.director,
    )
    body = Client().get(f"/cal/{token_of(people)}/club.ics").content
    night = events(body)[f"night-{world['night']}@testserver"]
    assert night["tzid"] == "Europe/Zurich"
    assert night["start"] == datetime.datetime(2026, 11, 20, 20, 30, tzinfo=night["start"].tzinfo)
    assert night["end"] - night["start"] == datetime.timedelta(hours=4)
    cal = Calendar.from_ical(body)
    assert str(cal["X-WR-TIMEZONE"]) == "Europe/Zurich"
    assert cal.walk("VTIMEZONE")[0]["TZID"] == "Europe/Zurich"


@pytest.mark.parametrize(
    "changes, code",
    [
        ({"time_zone": "Europe/Nowhere"}, "club.unknown_time_zone"),
        ({"night_minutes": 5}, "club.night_length"),
    ],
)
def test_a_zone_or_a_length_that_cannot_be_is_refused(people, changes, code):
    with pytest.raises(Refusal) as refused:
        clubs.club_update(club=people.club, changes=changes, user=people.director)
    assert refused.value.code == code


def test_the_settings_page_sets_them_in_italian(people, world):
    client = as_(people, "director")
    url = f"/c/{people.club.slug}/settings"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="it")
    assert "Le serate iniziano di solito alle" in page.content.decode()
    sent = client.post(
        url,
        {
            "confirmation_policy": people.club.confirmation_policy,
            "night_starts": "20:00",
            "night_minutes": "150",
            "time_zone": "Europe/Rome",
        },
        HTTP_ACCEPT_LANGUAGE="it",
    )
    assert sent.status_code == 302
    club = Club.objects.get(pk=people.club.pk)
    assert (club.night_starts, club.night_minutes) == (datetime.time(20, 0), 150)
    wrong = client.post(
        url,
        {
            "confirmation_policy": people.club.confirmation_policy,
            "night_starts": "20:00",
            "night_minutes": "150",
            "time_zone": "Europa/Roma",
        },
        HTTP_ACCEPT_LANGUAGE="it",
    )
    assert "non è un fuso orario" in wrong.content.decode()


def test_an_unplayed_fixture_is_in_the_feed_on_its_planned_night(people, world, league):
    from scorebook.matches.models import Match
    from scorebook.standings.leagues import services as leagues

    fixture = league.fixtures.get()
    url = f"/cal/{token_of(people)}/club.ics"
    uid = f"fixture-{fixture.pk}@testserver"
    assert uid not in events(Client().get(url).content)  # no date: not in the feed
    client = as_(people, "director")
    sent = client.post(
        f"/c/{people.club.slug}/leagues/{league.pk}/plan",
        {"fixture": fixture.pk, "day": "2026-12-04"},
    )
    assert sent.status_code == 302
    found = events(Client().get(url).content)[uid]
    assert found["start"] == datetime.datetime(2026, 12, 4, 21, 0, tzinfo=found["start"].tzinfo)
    page = client.get(f"/c/{people.club.slug}/leagues/{league.pk}/", HTTP_ACCEPT_LANGUAGE="it")
    assert "prevista per il venerdì 4 dicembre 2026" in page.content.decode().lower()
    # once a match of it is played, it is on that match's night
    match = Match.objects.get(pk=world["finished"])
    leagues.fixture_match_link(fixture=fixture, match=match, user=people.director)
    found = events(Client().get(url).content)[uid]
    assert found["start"].date() == datetime.date(2026, 11, 20)


def test_only_a_director_plans_a_fixture(people, league):
    from scorebook.standings.leagues import services as leagues

    with pytest.raises(Refusal) as refused:
        leagues.fixture_plan(
            fixture=league.fixtures.get(), day=datetime.date(2026, 12, 4), user=people.scorer
        )
    assert refused.value.code == "role.required"
