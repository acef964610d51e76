"""Calendar feeds: parsed back with icalendar. The club's nights and its leagues'
fixtures, per club, per player and per league, by a member's private token; a public
club's nights for anyone. A revoked, unknown or malformed token, a league of another club,
a private club's public feed: 404, never a 500."""

import datetime

import pytest
from django.test import Client
from icalendar import Calendar

from scorebook.clubs.models import Club
from scorebook.matches.models import Match, Night
from scorebook.sharing import services
from scorebook.sharing.models import CalendarFeed
from scorebook.standings.leagues import services as leagues
from scorebook.standings.models import League
from scorebook.tournaments.services.registration import entry_add
from tests.tournaments.helpers import tournament
from tests.web.test_deal_pages import as_

#: The night's stake, as any text could write it.
MONEY = ("EUR", "0.50", "0,50", "pays", "paga")


def events(body: bytes) -> dict[str, dict]:
    """UID -> the event's summary, start, end, stamp, description, from the parsed file."""
    cal = Calendar.from_ical(body)
    found = {}
    for event in cal.walk("VEVENT"):
        found[str(event["UID"])] = {
            "summary": str(event["SUMMARY"]),
            "start": event.decoded("DTSTART"),
            "end": event.decoded("DTEND"),
            "stamp": event.decoded("DTSTAMP"),
            "tzid": event["DTSTART"].params.get("TZID"),
            "description": str(event.get("DESCRIPTION", "")),
        }
    return found


def token_of(people, who="member", language="it"):
    membership = people[who].memberships.get(club=people.club)
    return services.calendar_feed_for(membership=membership, language=language).token


@pytest.fixture
def played(people, world, league):
    """The finished match of the night counts for the league's first fixture."""
    fixture = league.fixtures.get()
    match = Match.objects.get(pk=world["finished"])
    leagues.fixture_match_link(fixture=fixture, match=match, user=people.director)
    return fixture


def test_the_club_feed_holds_the_nights_and_the_fixtures(people, world, played):
    body = Client().get(f"/cal/{token_of(people)}/club.ics")
    assert body.status_code == 200 and body["Content-Type"].startswith("text/calendar")
    found = events(body.content)
    night = found[f"night-{world['night']}@testserver"]
    assert night["summary"] == "Serata al circolo: Circolo San Rocco"
    assert night["tzid"] == "Europe/Rome"
    assert night["start"] == datetime.datetime(2026, 11, 20, 21, 0, tzinfo=night["start"].tzinfo)
    assert str(night["start"].tzinfo) == "Europe/Rome"
    assert night["end"] - night["start"] == datetime.timedelta(hours=3)
    assert night["stamp"].tzinfo is not None
    assert "Nino & Salvo 25–19 Walter & Ettore" in night["description"]
    assert f"night-{world['closed']}@testserver" in found
    fixture = found[f"fixture-{played.pk}@testserver"]
    assert fixture["summary"] == "Coppa d'inverno, turno 1: Ettore & Walter – Nino & Salvo"
    assert fixture["start"].date() == datetime.date(2026, 11, 20)
    assert len(found) == 3
    for event in found.values():
        assert not any(word in event["description"] for word in MONEY)
    # the file names the zone it uses
    assert Calendar.from_ical(body.content).walk("VTIMEZONE")[0]["TZID"] == "Europe/Rome"


def test_uids_are_stable_from_one_fetch_to_the_next(people, world, played):
    url = f"/cal/{token_of(people)}/club.ics"
    assert set(events(Client().get(url).content)) == set(events(Client().get(url).content))


def test_the_words_are_in_the_members_language(people, world, played):
    english = events(Client().get(f"/cal/{token_of(people, 'scorer', 'en')}/club.ics").content)
    summaries = {e["summary"] for e in english.values()}
    assert "Club night: Circolo San Rocco" in summaries
    assert "Coppa d'inverno, round 1: Ettore & Walter – Nino & Salvo" in summaries


def test_my_feed_holds_my_nights_and_fixtures(people, world, played):
    """Nino (the member) played the night of the 20th, not the closed one of the 13th."""
    found = events(Client().get(f"/cal/{token_of(people)}/mine.ics").content)
    assert set(found) == {f"night-{world['night']}@testserver", f"fixture-{played.pk}@testserver"}
    # a member who plays no match: the club's nights to come only, no fixtures
    found = events(Client().get(f"/cal/{token_of(people, 'scorer')}/mine.ics").content)
    assert not any(uid.startswith("fixture-") for uid in found)


def test_a_league_feed_holds_its_fixtures_only(people, world, played, league):
    found = events(Client().get(f"/cal/{token_of(people)}/leagues/{league.pk}.ics").content)
    assert set(found) == {f"fixture-{played.pk}@testserver"}


def test_a_league_of_another_club_is_not_there(people, league):
    other = League.objects.create(club=people.other, name="Altrove cup")
    anyone = Client()
    assert anyone.get(f"/cal/{token_of(people)}/leagues/{other.pk}.ics").status_code == 404
    stranger = people.stranger.memberships.get()
    theirs = services.calendar_feed_for(membership=stranger, language="it").token
    assert anyone.get(f"/cal/{theirs}/leagues/{league.pk}.ics").status_code == 404
    assert anyone.get(f"/cal/{theirs}/leagues/{other.pk}.ics").status_code == 200


def test_a_token_is_required_and_a_rotated_one_stops_working(people, world):
    member = as_(people, "member")
    page = member.get(f"/c/{people.club.slug}/calendar", HTTP_ACCEPT_LANGUAGE="it")
    assert page.status_code == 200
    old = CalendarFeed.objects.get(membership__user=people.member).token
    body = page.content.decode()
    assert f"webcal://testserver/cal/{old}/mine.ics" in body
    assert f"http://testserver/cal/{old}/club.ics" in body
    assert member.post(f"/c/{people.club.slug}/calendar").status_code == 302
    new = CalendarFeed.objects.get(membership__user=people.member, revoked_at=None).token
    assert new != old
    anyone = Client()
    assert anyone.get(f"/cal/{old}/club.ics").status_code == 404
    assert anyone.get(f"/cal/{old}/mine.ics").status_code == 404
    assert anyone.get(f"/cal/{new}/club.ics").status_code == 200
    # asking for the page again keeps the live token
    member.get(f"/c/{people.club.slug}/calendar")
    assert CalendarFeed.objects.filter(membership__user=people.member, revoked_at=None).count() == 1


def test_a_member_who_leaves_takes_their_token_with_them(people, world):
    token = token_of(people)
    people.member.memberships.get(club=people.club).delete()
    assert Client().get(f"/cal/{token}/club.ics").status_code == 404


@pytest.mark.parametrize(
    "token",
    ["x", "a" * 15, "a" * 65, "%00" * 20, "a" * 20 + "%00", "..%2F..%2Fetc", "ü" * 20, "🂡" * 20],
)
def test_bad_tokens_are_404_not_500(people, world, token):
    token_of(people)
    for feed in ("club.ics", "mine.ics", "leagues/1.ics"):
        answer = Client().get(f"/cal/{token}/{feed}")
        assert answer.status_code in (400, 404), (token, feed, answer.status_code)


def test_the_calendar_page_is_for_members(people, world):
    assert as_(people, "stranger").get(f"/c/{people.club.slug}/calendar").status_code == 404
    assert Client().get(f"/c/{people.club.slug}/calendar").status_code == 302


def test_a_public_club_has_a_public_nights_feed_without_money(people, world, played):
    anyone = Client()
    assert anyone.get(f"/public/{people.club.slug}/nights.ics").status_code == 404
    Club.objects.filter(pk=people.club.pk).update(public=True)
    answer = anyone.get(f"/public/{people.club.slug}/nights.ics", HTTP_ACCEPT_LANGUAGE="it")
    assert answer.status_code == 200
    found = events(answer.content)
    assert {uid.split("-")[0] for uid in found} == {"night"}  # nights only
    assert not any(word in answer.content.decode() for word in MONEY)
    page = as_(people, "member").get(f"/c/{people.club.slug}/calendar").content.decode()
    assert f"webcal://testserver/public/{people.club.slug}/nights.ics" in page


def test_tournaments_are_in_the_club_feed_and_in_their_players_feeds(people, world):
    """A tournament is one event on its night (its entry fee never in it); Nino's own
    feed has the one he entered; a league's feed has none."""
    night = Night.objects.get(pk=world["closed"])  # the 13th: past, so entries decide
    night.status = Night.Status.OPEN
    night.save(update_fields=["status"])
    cup = tournament(people, night, entry_fee="5.00", currency="EUR")
    n, e, s, w = people.seated
    entry_add(tournament=cup, players=[e.pk, w.pk], user=people.director)
    club = events(Client().get(f"/cal/{token_of(people)}/club.ics").content)
    event = club[f"tournament-{cup.pk}@testserver"]
    assert event["summary"] == "Torneo: Torneo di San Rocco"
    assert event["start"].date() == datetime.date(2026, 11, 13)
    assert "EUR" not in Client().get(f"/cal/{token_of(people)}/club.ics").content.decode()
    mine = events(Client().get(f"/cal/{token_of(people)}/mine.ics").content)
    assert f"tournament-{cup.pk}@testserver" not in mine  # Nino has not entered
    entry_add(tournament=cup, players=[n.pk, s.pk], user=people.director)
    mine = events(Client().get(f"/cal/{token_of(people)}/mine.ics").content)
    assert f"tournament-{cup.pk}@testserver" in mine
