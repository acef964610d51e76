"""The club home lists the nights newest first, tonight's whatever the count.

It took ``Night.objects.filter(...).annotate(Count(...))[:30]``: with an aggregate Django
drops ``Meta.ordering``, so the query had no ORDER BY and showed 30 arbitrary nights (on
SQLite the 30 oldest). A club's 31st night was on neither "Tonight" nor "Past nights".
"""

import datetime
import re

import pytest
from django.db import connection

from scorebook.matches import services
from scorebook.matches.models import Night
from tests.web.test_pages import client_for

FIRST = datetime.date(2026, 1, 2)


def past_nights(club, count):
    """``count`` closed nights, one a week from January, made oldest first (so an unordered
    read returns the oldest)."""
    return [
        Night.objects.create(
            club=club,
            date=FIRST + datetime.timedelta(weeks=week),
            venue=f"Sala {week}",
            status=Night.Status.CLOSED,
        )
        for week in range(count)
    ]


def nights_on(body, heading_from, heading_to=None):
    part = body.split(heading_from, 1)[1]
    if heading_to:
        part = part.split(heading_to, 1)[0]
    return [int(pk) for pk in re.findall(r'href="/n/(\d+)/"', part)]


def check_31_nights(people, club):
    past = past_nights(club, 31)
    tonight = services.night_open(
        club_id=club.pk, date=datetime.date(2026, 11, 27), venue="Bar", user=people.director
    )
    client = client_for(people, "member")
    body = client.get(f"/c/{club.slug}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert nights_on(body, "<h2>Tonight</h2>", "<h2>Past nights</h2>") == [tonight.pk]
    newest_first = [n.pk for n in reversed(past)]
    assert nights_on(body, "<h2>Past nights</h2>") == newest_first[:30]
    assert 'href="?page=2"' in body and "Older nights" in body
    older = client.get(f"/c/{club.slug}/?page=2", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert nights_on(older, "<h2>Stasera</h2>", "<h2>Serate passate</h2>") == [tonight.pk]
    assert nights_on(older, "<h2>Serate passate</h2>") == newest_first[30:]
    assert 'href="?page=1"' in older and "Serate più recenti" in older
    assert "Serate precedenti" not in older


def test_the_31st_night_is_tonight_and_the_past_ones_come_newest_first(people, club):
    check_31_nights(people, club)


@pytest.mark.postgres
def test_the_31st_night_on_postgresql(people, club):
    assert connection.vendor == "postgresql"
    check_31_nights(people, club)


def test_every_open_night_is_shown_whatever_the_count(people, club):
    past_nights(club, 40)
    opened = [
        services.night_open(
            club_id=club.pk, date=datetime.date(2026, 11, day), venue="", user=people.director
        )
        for day in (26, 27, 28)
    ]
    body = client_for(people, "member").get(f"/c/{club.slug}/").content.decode()
    assert nights_on(body, "<h2>Tonight</h2>", "<h2>Past nights</h2>") == [
        n.pk for n in reversed(opened)
    ]


def test_three_past_nights_in_order(people, club):
    """Even with three nights the past ones came out of order (oldest first)."""
    past = past_nights(club, 3)
    body = client_for(people, "member").get(f"/c/{club.slug}/").content.decode()
    assert nights_on(body, "<h2>Past nights</h2>") == [n.pk for n in reversed(past)]
    assert "?page=" not in body


def test_a_page_out_of_range_or_not_a_number_shows_a_page(people, club):
    past = past_nights(club, 31)
    client = client_for(people, "member")
    for page in ("99", "x", "-1", "0"):
        response = client.get(f"/c/{club.slug}/?page={page}")
        assert response.status_code == 200
        assert nights_on(response.content.decode(), "<h2>Past nights</h2>") in (
            [past[0].pk],
            [n.pk for n in reversed(past)][:30],
        )


def test_the_club_home_in_bounded_queries(people, club, django_assert_max_num_queries):
    past_nights(club, 45)
    client = client_for(people, "member")
    client.get(f"/c/{club.slug}/")
    with django_assert_max_num_queries(12):
        client.get(f"/c/{club.slug}/?page=2")
