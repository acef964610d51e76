"""Dates on the pages as each language writes them: Italian in lowercase and without
Django's zero padding ("venerdì 20 novembre 2026", "5 dicembre 2026"), English as Django
writes it ("Friday 20 November 2026"), day before month in every format (a past night read
"Nov. 13, 2026" beside "Friday 20 November": three formats on neighbouring pages).
Django's Italian catalogue capitalises month and day names and pads the day, so every date
goes through the ``local_date`` filter."""

import datetime
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone

from scorebook.clubs.models import Club
from scorebook.matches import services
from scorebook.standings import refresh
from scorebook.standings import services as standings
from tests.web.test_pages import client_for

#: Italian month and day names, as Italian writes them.
NAMES = (
    "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre "
    "dicembre lunedì martedì mercoledì giovedì venerdì sabato domenica"
).split()
DAYS = "|".join(NAMES[12:])
#: A month or day name written with a capital, as Django's catalogue has them.
CAPITALISED = re.compile(r"\b(" + "|".join(n.capitalize() for n in NAMES) + r")\b")

#: page -> (url, who looks, the date it shows in Italian, in English)
PAGES = {
    "night": ("/n/{night}/", "member", "venerdì 20 novembre 2026", "Friday 20 November 2026"),
    "club home": ("/c/{slug}/", "member", "venerdì 20 novembre", "Friday 20 November"),
    "past night on the club home": ("/c/{slug}/", "member", "13 novembre 2026", "13 November 2026"),
    "match": ("/m/{match}/", "member", "‹ venerdì 20 novembre", "‹ Friday 20 November"),
    "settlement": (
        "/n/{night}/settlement", "member", "venerdì 20 novembre 2026", "Friday 20 November 2026"
    ),
    "public results": (
        "/public/{slug}/", "anonymous", "venerdì 20 novembre 2026", "Friday 20 November 2026"
    ),
    "public match": (
        "/public/{slug}/m/{match}", "anonymous", "venerdì 20 novembre 2026",
        "Friday 20 November 2026",
    ),
    "tv": ("/public/{slug}/tv", "anonymous", "venerdì 20 novembre", "Friday 20 November"),
}  # fmt: skip


@pytest.fixture
def public(club):
    Club.objects.filter(pk=club.pk).update(public=True)
    return club


@pytest.mark.parametrize("name", PAGES)
def test_dates_in_italian_are_lowercase_and_english_is_unchanged(public, people, world, name):
    url, who, italian, english = PAGES[name]
    client = client_for(people, who)
    body = client.get(url.format(**world), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert italian in body, name
    assert not CAPITALISED.search(body), CAPITALISED.search(body).group(0)
    body = client.get(url.format(**world), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert english in body, name


def test_the_day_of_the_month_has_no_leading_zero_in_italian(club, people):
    night = services.night_open(
        club_id=club.pk, date=datetime.date(2026, 12, 5), venue="", user=people["director"]
    )
    client = client_for(people, "member")
    italian = client.get(f"/n/{night.pk}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "<title>5 dicembre 2026" in italian and "<h1>sabato 5 dicembre 2026</h1>" in italian
    english = client.get(f"/n/{night.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<title>5 December 2026" in english and "<h1>Saturday 5 December 2026</h1>" in english


def test_date_and_time_of_an_invitation_and_of_the_standings(club, people, world):
    standings.season_create(
        club_id=club.pk,
        name="2026-27",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=None,
        user=people["director"],
    )
    refresh.rebuild(club_id=club.pk)
    client = client_for(people, "director")
    for url in ("/c/{slug}/invite", "/c/{slug}/standings/"):
        body = client.get(url.format(**world), HTTP_ACCEPT_LANGUAGE="it").content.decode()
        assert re.search(r"(" + DAYS + r") \d{1,2} [a-z]+ \d{4}, \d\d:\d\d", body)
        assert not CAPITALISED.search(body), (url, CAPITALISED.search(body).group(0))
    today = timezone.localdate()
    english = client.get(f"/c/{club.slug}/standings/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # day first, as on every page ("Thursday 26 November 2026, 14:30", not "Nov. 26, ...")
    assert f"Brought up to date {today:%A} {today.day} {today:%B} {today.year}, " in english


def test_no_template_formats_a_date_with_djangos_own_filter():
    """Django's ``date`` filter capitalises Italian names: the pages use ``local_date``."""
    found = [
        f"{path.relative_to(settings.BASE_DIR)}: {line.strip()}"
        for path in (Path(settings.BASE_DIR) / "templates").rglob("*.html")
        for line in path.read_text().splitlines()
        if re.search(r"\|date\b", line)
    ]
    assert not found, found


@pytest.mark.parametrize("language", ["it", "en"])
def test_the_new_night_form_offers_today_in_the_date_input(club, people, language):
    """A date input takes only an ISO date: Italian's 25/11/2026 left it blank, so the
    director had to pick today's date by hand."""
    client = client_for(people, "director")
    body = client.get(f"/c/{club.slug}/nights/new", HTTP_ACCEPT_LANGUAGE=language)
    assert (
        f'type="date" name="date" value="{timezone.localdate():%Y-%m-%d}"' in body.content.decode()
    )


def test_the_standings_time_has_no_double_full_stop_in_english(club, people, world):
    """Django's English time ends "p.m.": the sentence's own full stop made it "p.m.."."""
    standings.season_create(
        club_id=club.pk,
        name="2026-27",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=None,
        user=people["director"],
    )
    refresh.rebuild(club_id=club.pk)
    client = client_for(people, "member")
    english = client.get(f"/c/{club.slug}/standings/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Brought up to date" in english and ".." not in english.split("Brought up", 1)[1][:60]
    italian = client.get(f"/c/{club.slug}/standings/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert re.search(r"Aggiornata il [a-zì]+ \d+ [a-z]+ \d{4}, \d\d:\d\d\s", italian)


def test_english_dates_put_the_day_first_everywhere(club, people, world):
    """Club home, night, invitation: one English style, not "Nov. 13, 2026" beside "Friday
    20 November" and "Nov. 27, 2026, 2:30 p.m."."""
    client = client_for(people, "director")
    for url in ("/c/{slug}/", "/n/{night}/", "/c/{slug}/invite"):
        body = client.get(url.format(**world), HTTP_ACCEPT_LANGUAGE="en").content.decode()
        found = re.search(r"\b(Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Oct|Nov|Dec)\. \d", body)
        assert not found, (url, found.group(0))
        assert not re.search(r"\d (a|p)\.m\.", body), url
