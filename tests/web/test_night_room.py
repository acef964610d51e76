"""The night for the director ("the room"): every table's match, its deals, score, time
since the last deal, the unconfirmed and corrected deals, and the night's log of
corrections and overrides. Nothing showed the director which tables were behind or which
deals nobody had confirmed; the close page warned only about unfinished matches."""

import datetime
import re

import pytest
from django.utils import timezone

from scorebook.matches import services
from scorebook.matches.models import Deal, Night
from tests import builders as build
from tests.api.common import SIDES
from tests.web.test_pages import client_for


def section(body, marker, end="</section>"):
    return body.split(marker, 1)[1].split(end, 1)[0]


@pytest.fixture
def room(people, world):
    """World's night, then: deal 1 of table 1 corrected by the scorer, deal 2 confirmed by a
    director's override (the owner's: the director entered it); table 2's four deals not
    confirmed."""
    first = Deal.objects.get(pk=world["deal"])
    services.deal_correct(
        deal=first,
        data=SIDES,
        reason="Salvo's thirds were 12, not 14",
        user=people.scorer,
        expected_version=1,
    )
    second = Deal.objects.get(match_id=world["match"], number=2, is_current=True)
    services.deal_confirm(deal=second, user=people.owner, override_reason="Walter went home")
    return world


def test_every_table_with_its_match_deals_score_and_what_is_pending(people, room):
    client = client_for(people, "director")
    english = client.get(f"/n/{room['night']}/room", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    table1 = section(english, f'id="match-{room["match"]}"', "</li>")
    assert "Tavolo 1 · Tressette, 4 players in pairs" in table1
    assert "2 deals" in table1
    assert re.search(r"last deal (just now|1\xa0minute ago)", table1), table1
    assert "Unconfirmed: deal 1" in table1  # deal 2 is confirmed (override)
    assert "Corrected: deal 1" in table1
    table2 = section(english, f'id="match-{room["finished"]}"', "</li>")
    assert "Table 2 · Tressette, 4 players in pairs" in table2 and "4 deals" in table2
    assert "finished" in table2
    assert "Unconfirmed: deals 1, 2, 3, 4" in table2 and "Corrected" not in table2
    italian = client.get(f"/n/{room['night']}/room", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    table1 = section(italian, f'id="match-{room["match"]}"', "</li>")
    assert "2 smazzate" in table1 and "Da confermare: smazzata 1" in table1
    assert "Corretta: smazzata 1" in table1
    assert re.search(r"ultima smazzata (proprio ora|1\xa0minuto fa)", table1), table1


def test_the_scores_are_the_matches_running_scores(people, room):
    body = client_for(people, "director").get(f"/n/{room['night']}/room").content.decode()
    table1 = section(body, f'id="match-{room["match"]}"', "</li>")
    scores = re.findall(r'<strong class="num">(\d+)</strong>', table1)
    from scorebook.matches.models import Match

    totals = Match.objects.get(pk=room["match"]).state["totals"]
    assert sorted(map(int, scores)) == sorted(totals.values())


def test_the_log_names_corrections_and_overrides_with_who_and_why(people, room):
    client = client_for(people, "director")
    body = client.get(f"/n/{room['night']}/room", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    log = section(body, 'id="log"')
    assert "Salvo&#x27;s thirds were 12, not 14" in log and "scorer" in log
    assert "Walter went home" in log and "owner" in log
    # newest first: the override came after the correction
    assert log.index("Walter went home") < log.index("Salvo&#x27;s thirds")
    italian = client.get(f"/n/{room['night']}/room", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    log = section(italian, 'id="log"')
    assert "Tavolo 1 · smazzata 1 corretta" in log
    assert "Tavolo 1 · smazzata 2 confermata dal direttore" in log


def test_the_time_since_the_last_deal_names_a_table_that_is_behind(people, room):
    an_hour_ago = timezone.now() - datetime.timedelta(minutes=62)
    Deal.objects.filter(match_id=room["match"]).update(entered_at=an_hour_ago)
    body = client_for(people, "director").get(f"/n/{room['night']}/room").content.decode()
    table1 = section(body, f'id="match-{room["match"]}"', "</li>")
    assert re.search(r"last deal 1\xa0hour, 2\xa0minutes ago", table1), table1
    assert 'class="behind"' in table1


def test_a_match_without_deals_says_so(people, world, club):
    n, e, s, w = people.seated
    fresh = services.match_create(
        night=services.night_open(
            club_id=club.pk, date="2026-11-27", venue="", user=people.director
        ),
        game="tressette4",
        rules={"profile": "classic_21"},
        seats={"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk},
        user=people.director,
    )
    body = client_for(people, "director").get(f"/n/{fresh.night_id}/room").content.decode()
    row = section(body, f'id="match-{fresh.pk}"', "</li>")
    assert "no deal yet" in row and "Other matches" in body


@pytest.mark.parametrize("who", ["member", "scorer"])
def test_only_directors_see_the_room(people, room, who):
    assert client_for(people, who).get(f"/n/{room['night']}/room").status_code == 403


def test_the_night_page_leads_directors_to_the_room(people, room):
    assert (
        f"/n/{room['night']}/room"
        in client_for(people, "director").get(f"/n/{room['night']}/").content.decode()
    )
    assert (
        f"/n/{room['night']}/room"
        not in client_for(people, "member").get(f"/n/{room['night']}/").content.decode()
    )


def test_the_room_refreshes_itself_while_the_night_is_open(people, room):
    body = client_for(people, "director").get(f"/n/{room['night']}/room").content.decode()
    assert re.search(r'id="live" hx-get="/n/\d+/room" hx-trigger="every \d+s"', body)


def test_the_room_in_bounded_queries(people, room, django_assert_max_num_queries):
    client = client_for(people, "director")
    client.get(f"/n/{room['night']}/room")
    with django_assert_max_num_queries(14):
        client.get(f"/n/{room['night']}/room")


def test_the_close_page_lists_unconfirmed_and_corrected_deals(people, room):
    client = client_for(people, "director")
    body = client.get(f"/n/{room['night']}/close", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    pending = section(body, 'id="pending"')
    assert "5 deals are not confirmed" in pending
    assert "Tavolo 1 · Tressette, 4 players in pairs: deal 1" in pending
    assert "Table 2 · Tressette, 4 players in pairs: deals 1, 2, 3, 4" in pending
    corrected = section(body, 'id="corrected"')
    assert (
        "1 deal was corrected" in corrected and "Salvo&#x27;s thirds were 12, not 14" in corrected
    )
    italian = client.get(f"/n/{room['night']}/close", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "5 smazzate non sono confermate" in section(italian, 'id="pending"')
    assert "1 smazzata è stata corretta" in section(italian, 'id="corrected"')


def test_the_room_is_at_the_top_of_the_night_page_for_directors(people, room):
    """The room's button stood at the bottom of the night page, under every table, the
    add-a-table form and 'Start a match': on a phone, a long scroll away from the top."""
    body = client_for(people, "director").get(f"/n/{room['night']}/").content.decode()
    link = body.index(f'href="/n/{room["night"]}/room"')
    assert link < body.index('<section class="card">'), "the room comes after the tables"
    assert body.count(f'href="/n/{room["night"]}/room"') == 1


def test_the_room_says_when_it_was_updated_and_that_it_updates_itself(people, room):
    client = client_for(people, "director")
    now = timezone.localtime().strftime("%H:")
    english = client.get(f"/n/{room['night']}/room", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    live = section(english, 'id="live"', 'id="log"')
    assert re.search(rf"Updated at {now}\d\d; it updates itself every 15 seconds", live), live
    italian = client.get(f"/n/{room['night']}/room", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert re.search(rf"Aggiornata alle {now}\d\d; si aggiorna da sola ogni 15 secondi", italian)
    build.close(people, Night.objects.get(pk=room["night"]), user=people.owner)
    closed = client.get(f"/n/{room['night']}/room", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "it updates itself" not in closed  # a closed night no longer changes
