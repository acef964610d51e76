"""The TV view shows tonight's night: a night opened in advance for tomorrow replaced
tonight's live matches (it took the open night with the latest date). With more matches
than fit a screen, it shows them a page at a time, turning the page by itself."""

import datetime
import re

from django.test import Client
from django.utils import timezone

from scorebook.clubs.models import Club
from scorebook.matches import services
from tests.api.common import SIDES


def open_with_matches(people, club, day, count, venue=""):
    night = services.night_open(club_id=club.pk, date=day, venue=venue, user=people.director)
    n, e, s, w = people.seated
    for number in range(1, count + 1):
        table = services.table_create(
            night=night, number=number, name=f"{venue} {number}", user=people.director
        )
        match = services.match_create(
            night=night,
            table=table,
            game="tressette4",
            rules={"profile": "classic_21"},
            seats={"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk},
            user=people.director,
        )
        services.deal_create(match=match, data=SIDES, expected_number=1, user=people.director)
    return night


def tables_on(body):
    return re.findall(r"<h2>((?:Stasera|Domani|Ieri)[^·<]*?) ·", body)


def test_a_night_opened_for_tomorrow_does_not_replace_tonights(people, club):
    Club.objects.filter(pk=club.pk).update(public=True)
    today = timezone.localdate()
    open_with_matches(people, club, today, 2, venue="Stasera")
    open_with_matches(people, club, today + datetime.timedelta(days=1), 1, venue="Domani")
    for htmx in ({}, {"HTTP_HX_REQUEST": "true"}):
        body = Client().get(f"/public/{club.slug}/tv", **htmx).content.decode()
        assert tables_on(body) == ["Stasera 1", "Stasera 2"], body


def test_yesterdays_night_left_open_gives_way_to_tonights(people, club):
    Club.objects.filter(pk=club.pk).update(public=True)
    today = timezone.localdate()
    open_with_matches(people, club, today - datetime.timedelta(days=1), 1, venue="Ieri")
    open_with_matches(people, club, today, 1, venue="Stasera")
    body = Client().get(f"/public/{club.slug}/tv").content.decode()
    assert tables_on(body) == ["Stasera 1"]


def test_only_a_night_for_tomorrow_is_shown_when_there_is_no_other(people, club):
    Club.objects.filter(pk=club.pk).update(public=True)
    open_with_matches(people, club, timezone.localdate() + datetime.timedelta(days=1), 1, "Domani")
    body = Client().get(f"/public/{club.slug}/tv").content.decode()
    assert tables_on(body) == ["Domani 1"]


def test_more_matches_than_a_screen_holds_come_a_page_at_a_time(people, club):
    from scorebook.web.views.public import TV_MATCHES_PER_PAGE

    Club.objects.filter(pk=club.pk).update(public=True)
    open_with_matches(people, club, timezone.localdate(), TV_MATCHES_PER_PAGE + 2, "Stasera")
    anyone = Client()
    first = anyone.get(f"/public/{club.slug}/tv?page=1", HTTP_ACCEPT_LANGUAGE="it")
    text = first.content.decode()
    assert tables_on(text) == [f"Stasera {n}" for n in range(1, TV_MATCHES_PER_PAGE + 1)]
    assert "Pagina 1 di 2" in text
    second = anyone.get(
        f"/public/{club.slug}/tv?page=2", HTTP_ACCEPT_LANGUAGE="en", HTTP_HX_REQUEST="true"
    ).content.decode()
    assert tables_on(second) == [f"Stasera {TV_MATCHES_PER_PAGE + n}" for n in (1, 2)]
    assert "Page 2 of 2" in second
    # without a page it turns by itself: the page follows the clock
    seen = {tuple(tables_on(anyone.get(f"/public/{club.slug}/tv").content.decode()))}
    assert len(seen) == 1 and len(next(iter(seen))) in (TV_MATCHES_PER_PAGE, 2)
    # a page that is not one shows the first
    assert tables_on(anyone.get(f"/public/{club.slug}/tv?page=x").content.decode()) == (
        tables_on(text)
    )
