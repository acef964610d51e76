"""The dates Scorebook keeps (issue 31 item 6): one range, 1900-01-01 to 2200-12-31, in
one home (``scorebook.core.dates``), refused in words outside it by the services that
store a date (a night, a season's days, a fixture's planned night, an imported night), on
the API, the pages and the import alike; every computation on a date in the range (the
calendar feeds, the TV, the shared texts) is safe at its edges, and a date stored before
the range existed is left out of the feeds rather than answering 500. "Today" is the
club's, in its time zone.

Before: a night dated 9999-12-31 (accepted by the API and the page) made every member's
ICS feed and the public one answer 500 (OverflowError in ``sharing.feeds._event``)."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.utils import timezone
from icalendar import Calendar

from scorebook.clubs.models import Club
from scorebook.core.dates import DATE_MAX, DATE_MIN, check_date, today_in
from scorebook.history.plan import plan_sheet
from scorebook.history.template import read_file
from scorebook.matches.models import Night
from scorebook.sharing import services as sharing
from scorebook.sharing import texts
from scorebook.standings.models import Fixture, Season
from tests import builders as build
from tests.api.common import api
from tests.web.test_pages import client_for

OUTSIDE = ["0001-01-01", "1899-12-31", "2201-01-01", "9999-12-31"]
INSIDE = [DATE_MIN.isoformat(), DATE_MAX.isoformat(), "2026-11-20"]


def test_the_range_is_one_home_and_refuses_in_both_languages():
    assert check_date("1900-01-01") == DATE_MIN and check_date(DATE_MAX) == DATE_MAX
    with pytest.raises(Exception) as refused:
        check_date(datetime.date(9999, 12, 31), path="date")
    assert refused.value.code == "date.out_of_range"
    (entry,) = refused.value.errors("it")
    assert entry["message"] == (
        "31/12/9999 è fuori dalle date che Scorebook tiene: dal 01/01/1900 al 31/12/2200."
    )
    assert entry["path"] == "date" and entry["params"]["value"] == "9999-12-31"
    (entry,) = refused.value.errors("en")
    assert "is outside the dates Scorebook keeps" in entry["message"]


# -- nights ---------------------------------------------------------------------------------


@pytest.mark.parametrize("day", OUTSIDE)
def test_a_night_outside_the_range_is_refused_on_the_api(people, day):
    answer = api(people, "director").post(
        "/api/v1/nights", {"club": people.club.pk, "date": day}, format="json"
    )
    assert answer.status_code == 400
    (error,) = answer.json()["errors"]
    assert (error["code"], error["path"]) == ("date.out_of_range", "date")
    assert not Night.objects.exists()


@pytest.mark.parametrize("day", INSIDE)
def test_a_night_inside_the_range_opens_on_the_api(people, day):
    answer = api(people, "director").post(
        "/api/v1/nights", {"club": people.club.pk, "date": day}, format="json"
    )
    assert answer.status_code == 201, answer.json()


@pytest.mark.parametrize("day", OUTSIDE)
def test_a_night_outside_the_range_is_refused_on_the_page_in_words(people, day):
    client = client_for(people, "director")
    url = f"/c/{people.club.slug}/nights/new"
    answer = client.post(url, {"date": day, "venue": ""}, HTTP_ACCEPT_LANGUAGE="it")
    assert answer.status_code == 400
    assert "è fuori dalle date che Scorebook tiene" in answer.content.decode()
    assert not Night.objects.exists()
    page = client.get(url).content.decode()
    assert 'min="1900-01-01"' in page and 'max="2200-12-31"' in page  # the date picker


def test_a_date_past_python_s_is_refused_as_input_not_a_500(people):
    answer = api(people, "director").post(
        "/api/v1/nights", {"club": people.club.pk, "date": "10000-01-01"}, format="json"
    )
    assert answer.status_code == 400
    client = client_for(people, "director")
    page = client.post(f"/c/{people.club.slug}/nights/new", {"date": "10000-01-01"})
    assert page.status_code == 200 and not Night.objects.exists()  # the form says it


# -- seasons and fixtures ---------------------------------------------------------------------


@pytest.mark.parametrize("field", ["starts_on", "ends_on"])
@pytest.mark.parametrize("day", ["1899-12-31", "9999-12-31"])
def test_a_season_day_outside_the_range_is_refused(people, field, day):
    body = {"club": people.club.pk, "name": "2026-27", "starts_on": "2026-09-01"}
    body[field] = day
    answer = api(people, "director").post("/api/v1/seasons", body, format="json")
    assert answer.status_code == 400
    (error,) = answer.json()["errors"]
    assert (error["code"], error["path"]) == ("date.out_of_range", field)
    season = api(people, "director").post(
        "/api/v1/seasons", {**body, field: "2026-09-01" if field == "starts_on" else None},
        format="json",
    )  # fmt: skip
    assert season.status_code == 201
    moved = api(people, "director").patch(
        f"/api/v1/seasons/{season.json()['id']}", {field: day}, format="json"
    )
    assert moved.status_code == 400 and moved.json()["errors"][0]["code"] == "date.out_of_range"
    page = client_for(people, "director").post(
        f"/c/{people.club.slug}/standings/",
        {"name": "Altra", "starts_on": "2026-09-01", "ends_on": "", field: day},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert page.status_code == 400
    assert "is outside the dates Scorebook keeps" in page.content.decode()
    assert not Season.objects.filter(name="Altra").exists()


@pytest.mark.parametrize("day", ["1899-12-31", "9999-12-31"])
def test_a_fixture_planned_outside_the_range_is_refused(people, day):
    league = build.league(people)
    fixture = league.fixtures.get()
    answer = api(people, "director").post(
        f"/api/v1/fixtures/{fixture.pk}/plan", {"planned_on": day}, format="json"
    )
    assert answer.status_code == 400
    (error,) = answer.json()["errors"]
    assert (error["code"], error["path"]) == ("date.out_of_range", "planned_on")
    page = client_for(people, "director").post(
        f"/c/{people.club.slug}/leagues/{league.pk}/plan",
        {"fixture": fixture.pk, "day": day},
        HTTP_ACCEPT_LANGUAGE="it",
    )
    assert page.status_code == 400
    assert "è fuori dalle date che Scorebook tiene" in page.content.decode()
    assert Fixture.objects.get(pk=fixture.pk).planned_on is None
    edge = api(people, "director").post(
        f"/api/v1/fixtures/{fixture.pk}/plan", {"planned_on": DATE_MAX.isoformat()}, format="json"
    )
    assert edge.status_code == 200


# -- the import -------------------------------------------------------------------------------

HEADER = "date,table,match,game,rules,seats,first_dealer,stake,currency,deal\n"
DEAL = '"{""sides"": {""A"": {""thirds"": 14}, ""B"": {""thirds"": 18}}, ""last_trick"": ""B""}"'


def _plan(day: str, today: datetime.date):
    data = f"{HEADER}{day},1,1,tressette4,,N=Nino; E=Lia; S=Salvo; W=Maria,,,,{DEAL}\n"
    return plan_sheet(read_file("f.csv", data.encode()), club_players=(), currencies=["EUR"],
                      today=today)  # fmt: skip


def test_an_imported_night_before_the_range_is_refused_in_words_with_row_and_column():
    found = _plan("31/12/1899", today=datetime.date(2026, 1, 1))
    (problem,) = found.problems
    assert (problem["row"], problem["column"], problem["code"]) == (2, "date", "date.out_of_range")
    assert problem["message"]["it"].startswith("31/12/1899 è fuori dalle date")
    assert not _plan("01/01/1900", today=datetime.date(2026, 1, 1)).problems


# -- computations at the edges ----------------------------------------------------------------


def _feeds(people):
    membership = people.member.memberships.get(club=people.club)
    token = sharing.calendar_feed_for(membership=membership, language="it").token
    Club.objects.filter(pk=people.club.pk).update(public=True)
    anyone = Client()
    return [
        anyone.get(f"/cal/{token}/club.ics"),
        anyone.get(f"/cal/{token}/mine.ics"),
        anyone.get(f"/public/{people.club.slug}/nights.ics"),
    ]


def test_a_night_and_a_fixture_on_the_last_day_are_in_the_feeds_in_any_zone(people):
    Club.objects.filter(pk=people.club.pk).update(
        time_zone="Pacific/Kiritimati", night_starts=datetime.time(23, 30), night_minutes=720
    )
    people.club.refresh_from_db()
    last = build.night(people, date=DATE_MAX)
    league = build.league(people)
    Fixture.objects.filter(league=league).update(planned_on=DATE_MAX)
    build.tournament(people, last, pairs=2)
    for answer in _feeds(people):
        assert answer.status_code == 200
        cal = Calendar.from_ical(answer.content)
        ends = [e.decoded("DTEND") for e in cal.walk("VEVENT")]
        assert ends and all(end.date() == datetime.date(2201, 1, 1) for end in ends)


def test_a_night_stored_past_the_range_before_it_existed_is_left_out_not_a_500(people):
    """The rows the old code let in (9999-12-31): every feed answered 500."""
    tonight = build.night(people, date=datetime.date(2026, 11, 20))
    Night.objects.create(club=people.club, date=datetime.date(9999, 12, 31))
    league = build.league(people)
    Fixture.objects.filter(league=league).update(planned_on=datetime.date(9999, 12, 31))
    for answer in _feeds(people):
        assert answer.status_code == 200
        assert b"9999" not in answer.content
    tv = Client().get(f"/public/{people.club.slug}/tv", HTTP_ACCEPT_LANGUAGE="it")
    assert tv.status_code == 200
    home = client_for(people, "member").get(f"/c/{people.club.slug}/")
    assert home.status_code == 200
    assert texts.night_text(tonight, texts.names_of(people.club.pk), [])


def test_the_tv_and_the_shared_texts_at_the_edges(people):
    Club.objects.filter(pk=people.club.pk).update(public=True)
    for day in (DATE_MIN, DATE_MAX):
        night = build.night(people, date=day)
        match = build.match(people, night)
        build.deals(people, match, build.A_WINS)
        assert texts.night_text(night, texts.names_of(people.club.pk), [match])
        page = client_for(people, "member").get(f"/n/{night.pk}/", HTTP_ACCEPT_LANGUAGE="it")
        assert page.status_code == 200
        assert Client().get(f"/public/{people.club.slug}/tv").status_code == 200
        build.close(people, night)
        settlement = client_for(people, "member").get(f"/n/{night.pk}/settlement.pdf")
        assert settlement.status_code == 200


# -- today is the club's --------------------------------------------------------------------


@pytest.fixture
def noon_utc(monkeypatch, settings):
    """20 November 2026, 23:30 UTC: in Rome (the installation) already the 21st; in Los
    Angeles still the 20th afternoon; in Kiritimati the 21st."""
    settings.TIME_ZONE = "Europe/Rome"
    moment = datetime.datetime(2026, 11, 20, 23, 30, tzinfo=datetime.UTC)
    monkeypatch.setattr(timezone, "now", lambda: moment)
    return moment


def test_today_is_the_club_s_around_midnight(people, noon_utc):
    assert today_in("Europe/Rome") == datetime.date(2026, 11, 21)
    assert today_in("America/Los_Angeles") == datetime.date(2026, 11, 20)
    Club.objects.filter(pk=people.club.pk).update(time_zone="America/Los_Angeles")
    page = client_for(people, "director").get(f"/c/{people.club.slug}/nights/new")
    assert 'value="2026-11-20"' in page.content.decode()  # Rome's date was offered
    # the import: the 21st is tomorrow at the club, the 20th is today
    assert _plan("2026-11-21", today=today_in("America/Los_Angeles")).problems
    assert not _plan("2026-11-20", today=today_in("America/Los_Angeles")).problems


def test_today_without_a_club_is_the_installation_s_whatever_zone_is_active(noon_utc):
    """The API's requests run with UTC active (api/middleware.py): ``timezone.localdate()``
    there said the 20th when Rome was at the 21st, and the federation ranking read through
    the API left out the tournament played that night."""
    from scorebook.core.dates import today

    with timezone.override(datetime.UTC):
        assert timezone.localdate() == datetime.date(2026, 11, 20)
        assert today() == datetime.date(2026, 11, 21)


def test_the_import_s_future_is_the_club_s(people, noon_utc, django_capture_on_commit_callbacks):
    from scorebook.history import services as imports
    from scorebook.history.checker import RowsRefused

    Club.objects.filter(pk=people.club.pk).update(time_zone="America/Los_Angeles")
    data = f"{HEADER}2026-11-21,1,1,tressette4,,N=Nino; E=Lia; S=Salvo; W=Maria,,,,{DEAL}\n"
    with pytest.raises(RowsRefused) as refused:
        imports.import_preview(
            club=Club.objects.get(pk=people.club.pk), user=people.director,
            filename="f.csv", data=data.encode(),
        )  # fmt: skip
    assert refused.value.problems[0]["code"] == "import.future_date"
