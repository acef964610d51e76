"""Every page for every persona: outsiders get 404 (as in the API), members read,
scorers and directors get the forms their role allows; list pages in bounded queries."""

import copy
import gzip
import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from scorebook.clubs.models import Club
from scorebook.matches.models import Match, Night
from tests.once import made_once
from tests.personas import make_personas
from tests.web.conftest import make_world

PERSONAS = ("anonymous", "stranger", "member", "scorer", "director", "owner")
LOGIN = "login"  # anonymous visitors are sent to the login page


def read(**overrides):
    """A page every member may read."""
    return {"anonymous": LOGIN, "stranger": 404, **dict.fromkeys(PERSONAS[2:], 200), **overrides}


def manage(role):
    """A page with a form for ``role`` and above (others: 403 with the reason)."""
    order = ["member", "scorer", "director", "owner"]
    allowed = order[order.index(role) :]
    return {
        "anonymous": LOGIN,
        "stranger": 404,
        **{who: 200 if who in allowed else 403 for who in order},
    }


PAGES = {
    "club home": ("/c/{slug}/", read()),
    "members": ("/c/{slug}/members", read()),
    "players": ("/c/{slug}/players", read()),
    "settings": ("/c/{slug}/settings", read()),
    "invite": ("/c/{slug}/invite", manage("director")),
    "open a night": ("/c/{slug}/nights/new", manage("director")),
    "night": ("/n/{night}/", read()),
    "closed night": ("/n/{closed}/", read()),
    "add a table": ("/n/{night}/tables/new", manage("director")),
    "choose a game": ("/n/{night}/matches/new", manage("scorer")),
    "match form": ("/n/{night}/matches/new?game=terziglio&players=3", manage("scorer")),
    "close the night": ("/n/{night}/close", manage("director")),
    "the room": ("/n/{night}/room", manage("director")),
    "settlement": ("/n/{night}/settlement", read()),
    "settlement pdf": ("/n/{closed}/settlement.pdf", read()),
    "settlement csv": ("/n/{night}/settlement.csv", read()),
    "match": ("/m/{match}/", read()),
    "finished match": ("/m/{finished}/", read()),
    "new deal": ("/m/{match}/deals/new", manage("scorer")),
    "new deal, cards": ("/m/{match}/deals/new?level=cards", manage("scorer")),
    "deal": ("/d/{deal}/", read()),
    "correct a deal": ("/d/{deal}/correct", manage("scorer")),
    "standings": ("/c/{slug}/standings/", read()),
    "ratings": ("/c/{slug}/standings/ratings", read()),
    "leagues": ("/c/{slug}/leagues/", read()),
    "player": ("/c/{slug}/players/{player}/stats", read()),
}


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker):
    """The people and the world, made once for the module's tests (tests/once.py): each
    test runs in a savepoint of the transaction they were made in, rolled back after it."""

    def make():
        people = make_personas()
        return people, make_world(people.club, people)

    yield from made_once(django_db_blocker, make)


@pytest.fixture
def people(built, db):
    return copy.deepcopy(built[0])


@pytest.fixture
def club(people):
    return people.club


@pytest.fixture
def world(built, db):
    return copy.deepcopy(built[1])


def client_for(people, who):
    client = Client()
    if who != "anonymous":
        client.force_login(people[who])
    return client


def close_night(client, night, reason=""):
    """Close the night as a director does on its close page: the form as the page shows
    it (the open matches it lists, each ended with the night) and its one button."""
    page = client.get(f"/n/{night}/close").content.decode()
    shown = re.findall(r'name="end_open" value="(\d+)"', page)
    return client.post(f"/n/{night}/close", {"end_open": shown, "reason": reason})


@pytest.mark.parametrize("who", PERSONAS)
@pytest.mark.parametrize("name", PAGES)
def test_every_page_for_every_persona(club, people, world, name, who):
    url, expected = PAGES[name]
    response = client_for(people, who).get(url.format(**world))
    if expected[who] == LOGIN:
        assert response.status_code == 302
        assert response["Location"].startswith("/login?next=")
    else:
        assert response.status_code == expected[who], response.content[:500]


def test_members_see_no_forms_that_change_things(club, people, world):
    client = client_for(people, "member")
    for url in ("/c/{slug}/", "/n/{night}/", "/m/{match}/", "/c/{slug}/members"):
        body = client.get(url.format(**world)).content.decode()
        # but a seated member confirms a deal someone else entered (the match page offers it)
        # and his remaining deals
        body = re.sub(r'<form method="post" action="/(d|m)/\d+/confirm(-remaining)?"', "", body)
        assert 'method="post"' not in body.replace('action="/logout" method="post"', "").replace(
            'action="/i18n/setlang/" method="post"', ""
        ), url


def test_directors_see_the_controls(club, people, world):
    client = client_for(people, "director")
    assert b"/nights/new" in client.get(f"/c/{club.slug}/").content
    night = client.get(f"/n/{world['night']}/").content.decode()
    assert f"/n/{world['night']}/close" in night and "tables/new" in night
    assert b"Change role" in client.get(f"/c/{club.slug}/members").content


def test_a_member_cannot_post_a_managers_form(club, people, world):
    client = client_for(people, "member")
    response = client.post(f"/c/{club.slug}/nights/new", {"date": "2026-11-27"})
    assert response.status_code == 403
    assert Night.objects.filter(date="2026-11-27").count() == 0
    response = client.post(f"/n/{world['night']}/close")
    assert response.status_code == 403


def test_a_director_opens_a_night_adds_a_table_and_closes_it(club, people, world):
    client = client_for(people, "director")
    response = client.post(f"/c/{club.slug}/nights/new", {"date": "2026-11-27", "venue": "Bar"})
    night = Night.objects.get(date="2026-11-27")
    assert response["Location"] == f"/n/{night.pk}/"
    assert client.post(f"/n/{night.pk}/tables/new", {"number": 3}).status_code == 302
    assert night.tables.get().number == 3
    assert close_night(client, night.pk).status_code == 302
    night.refresh_from_db()
    assert night.status == "closed"


def test_start_a_match_with_a_guest_and_a_changed_switch(club, people, world):
    client = client_for(people, "scorer")
    n, e, s, _w = people.seated
    url = f"/n/{world['night']}/matches/new?game=tressette4&players=4&profile=classic_21"
    page = client.get(url).content.decode()
    assert 'name="rules.t4.target"' in page and 'name="seats.N"' in page
    form = {
        "seats.N": n.pk, "seats.E": e.pk, "seats.S": s.pk, "guest.W": "Zio Pino",
        "first_dealer": "E", "stake_amount": "0.50", "stake_currency": "EUR",
        **_switch_defaults(page), "rules.t4.target": "31",
    }  # fmt: skip
    response = client.post(url, form)
    assert response.status_code == 302, response.content.decode()[:2000]
    match = Match.objects.latest("id")
    assert response["Location"] == f"/m/{match.pk}/"
    assert match.rules["values"]["t4.target"] == 31 and match.rules["profile"] == "classic_21"
    assert match.first_dealer == "E" and str(match.stake_amount) == "0.50"
    guest = club.players.get(name="Zio Pino")
    assert guest.guest and match.seats["W"] == guest.pk


def test_the_same_player_twice_is_refused_next_to_the_form_in_italian(club, people, world):
    client = client_for(people, "scorer")
    n, e, s, _w = people.seated
    url = f"/n/{world['night']}/matches/new?game=tressette4&players=4"
    page = client.get(url).content.decode()
    form = {"seats.N": n.pk, "seats.E": e.pk, "seats.S": s.pk, "seats.W": n.pk,
            "stake_amount": "0", **_switch_defaults(page)}  # fmt: skip
    before = Match.objects.count()
    response = client.post(url, form, HTTP_ACCEPT_LANGUAGE="it")
    assert response.status_code in (400, 409)
    assert Match.objects.count() == before
    assert 'class="errors"' in response.content.decode() or 'class="error"' in (
        response.content.decode()
    )


def test_a_missing_seat_is_shown_next_to_its_field_in_italian(club, people, world):
    client = client_for(people, "scorer")
    url = f"/n/{world['night']}/matches/new?game=tressette4&players=4"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    response = client.post(
        url, {"stake_amount": "0", **_switch_defaults(page)}, HTTP_ACCEPT_LANGUAGE="it"
    )
    body = response.content.decode()
    assert response.status_code == 400
    assert re.search(r'id="id_seats\.N".*?<p class="error">Scegli un giocatore', body, re.S)


def test_a_bad_stake_is_refused_in_italian_with_the_italian_decimal_comma(club, people, world):
    client = client_for(people, "scorer")
    n, e, s, w = people.seated
    url = f"/n/{world['night']}/matches/new?game=tressette4&players=4"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    seats = {"seats.N": n.pk, "seats.E": e.pk, "seats.S": s.pk, "seats.W": w.pk}
    bad = client.post(
        url, {**seats, "stake_amount": "-1", **_switch_defaults(page)}, HTTP_ACCEPT_LANGUAGE="it"
    )
    assert "maggiore o uguale a 0" in bad.content.decode()
    good = client.post(
        url,
        {**seats, "stake_amount": "0,75", "stake_currency": "EUR", **_switch_defaults(page)},
        HTTP_ACCEPT_LANGUAGE="it",
    )
    assert good.status_code == 302
    assert str(Match.objects.latest("id").stake_amount) == "0.75"


def _switch_defaults(page):
    """The selected value of every house-rule field on the form, as a browser sends it."""
    values = {}
    for name, body in re.findall(r'<select name="(rules\.[^"]+)"[^>]*>(.*?)</select>', page, re.S):
        chosen = re.search(r'<option value="([^"]*)" selected>', body)
        values[name] = chosen.group(1)
    for name, value in re.findall(r'name="(rules\.[^"]+)" value="([^"]*)"', page):
        values[name] = value
    return values


def test_match_page_shows_scores_dealer_chart_and_deals(club, people, world):
    body = client_for(people, "member").get(f"/m/{world['match']}/").content.decode()
    assert "Nino &amp; Salvo" in body  # side A's players, by name
    assert '<svg class="chart"' in body
    assert "Deal 2" in body and "last trick" in body
    assert "deals." in body  # whose deal it is


def test_money_and_dates_in_the_locale(club, people, world):
    client = client_for(people, "director")
    client.post(f"/n/{world['night']}/settle")
    italian = client.get(f"/n/{world['night']}/settlement", HTTP_ACCEPT_LANGUAGE="it")
    body = italian.content.decode()
    assert "novembre" in body.lower() and "0,50 EUR" in body
    english = client.get(f"/n/{world['night']}/settlement", HTTP_ACCEPT_LANGUAGE="en")
    assert "0.50 EUR" in english.content.decode() and "November" in english.content.decode()


def test_mark_a_transfer_paid(club, people, world):
    client = client_for(people, "director")
    close_night(client, world["night"])
    page = client.get(f"/n/{world['night']}/settlement").content.decode()
    transfer = re.search(r'name="transfer" value="(\d+)"', page).group(1)
    assert client.post(f"/n/{world['night']}/settlement", {"transfer": transfer}).status_code == 302
    assert "✓" in client.get(f"/n/{world['night']}/settlement").content.decode()
    member = client_for(people, "member")
    assert member.post(f"/n/{world['night']}/settlement", {"transfer": transfer}).status_code == 403


@pytest.mark.parametrize(
    ("url", "queries"),
    [
        ("/c/{slug}/", 5),  # open nights, a page of past ones and their count
        ("/c/{slug}/members", 5),
        ("/c/{slug}/players", 4),
        ("/n/{night}/", 7),
        ("/m/{match}/", 7),
        ("/public/{slug}/", 4),
    ],
)
def test_list_pages_in_bounded_queries(
    club, people, world, django_assert_max_num_queries, url, queries
):
    """Session and user, the membership, then a fixed number of reads, whatever the size."""
    client = client_for(people, "owner")
    Club.objects.filter(pk=club.pk).update(public=True)
    with django_assert_max_num_queries(queries + 2):
        assert client.get(url.format(**world)).status_code == 200


def test_more_rows_cost_no_more_queries(club, people, world, django_assert_num_queries):
    client = client_for(people, "owner")
    url = f"/n/{world['night']}/"
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as first:
        client.get(url)
    director = people["director"]
    from scorebook.matches import services

    night = Night.objects.get(pk=world["night"])
    n, e, s, w = people.seated
    for number in range(3, 7):
        table = services.table_create(night=night, number=number, name="", user=director)
        services.match_create(
            night=night,
            game="tressette4",
            rules=None,
            table=table,
            user=director,
            seats={"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk},
        )
    with django_assert_num_queries(len(first.captured_queries)):
        client.get(url)


def test_csp_header_on_every_page_without_unsafe_inline_script(club, people, world):
    client = client_for(people, "director")
    for name, (url, _expected) in PAGES.items():
        response = client.get(url.format(**world))
        policy = response.get("Content-Security-Policy", "")
        if response["Content-Type"].startswith("text/html"):
            assert "script-src 'self'" in policy, name
            assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, name
            body = response.content.decode()
            assert "<script>" not in body and " style=" not in body and " on" + "click" not in body


def _gzip_size(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=9))


STATIC = sum(
    _gzip_size(open(finders.find(f"web/{name}"), "rb").read())
    for name in ("app.css", "app.js", "htmx.min.js")
)


@pytest.mark.parametrize("name", PAGES)
def test_each_page_with_its_css_and_js_is_under_100_kb_compressed(club, people, world, name):
    url, _expected = PAGES[name]
    response = client_for(people, "director").get(url.format(**world))
    if not response["Content-Type"].startswith("text/html"):
        return
    total = _gzip_size(response.content) + STATIC
    assert total < 100 * 1024, f"{name}: {total} bytes"


def test_points_and_chips_are_whole_numbers_and_money_has_cents():
    from decimal import Decimal

    from django.utils import translation

    from scorebook.web.templatetags.scorebook import money, signed_money

    with translation.override("it"):
        assert signed_money(Decimal("64.00")) == "+64"  # points: no ",00"
        assert money(Decimal("1234.00")) == "1.234"
        assert money(Decimal("2.50")) == "2,50"  # a fraction of a point stays visible
        assert signed_money(Decimal("-64.00"), "EUR") == "\u221264,00 EUR"
