"""A settlement that explains itself (issue 24, item 7): who pays whom, and why: each
match's result, stake and multiplier beside what it moved for each player, on the page
and in the CSV; the CSV in the reader's locale; paid times in local time with the zone; a
night played for points says points, not payments."""

import re

from django.utils import timezone

from scorebook.ledger.models import Transfer
from scorebook.matches import services
from tests.api.common import SIDES, SMALL
from tests.web.test_pages import client_for, close_night


def test_the_page_shows_each_match_result_stake_and_what_it_moved(people, world):
    client = client_for(people, "director")
    close_night(client, world["night"])
    url = f"/n/{world['night']}/settlement"
    italian = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    section = italian.split('id="per-match"', 1)[1].split("</section>", 1)[0]
    finished = section.split(f'id="line-{world["finished"]}"', 1)[1].split("</li>", 1)[0]
    assert "Tavolo 2 · Tressette a coppie" in finished
    assert re.search(r"vincono (Nino &amp; Salvo|Ettore &amp; Walter) \d+–\d+", finished)
    assert "posta 0,50 EUR" in finished and "× 1" not in finished  # no multiplier to say
    words = re.sub(r"<[^>]+>", "", finished)
    assert re.search(r"Nino (\+|\u2212)0,50 EUR", words), words
    assert finished.count("EUR") == 5  # the stake and four players
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert re.search(r"(Nino &amp; Salvo|Ettore &amp; Walter) won \d+–\d+", english)
    assert "stake 0.50 EUR" in english


def test_a_multiplier_is_said(people, world):
    from scorebook.matches.models import Match

    Match.objects.filter(pk=world["finished"]).update(
        result={**Match.objects.get(pk=world["finished"]).result, "multiplier": 2}
    )
    body = client_for(people, "director").get(
        f"/n/{world['night']}/settlement", HTTP_ACCEPT_LANGUAGE="it"
    )
    assert "× 2" in body.content.decode().split('id="per-match"', 1)[1]


def test_the_csv_in_italian_has_semicolons_and_decimal_commas(people, world):
    client = client_for(people, "director")
    close_night(client, world["night"])
    url = f"/n/{world['night']}/settlement.csv"
    italian = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    line = next(x for x in italian.splitlines() if x.startswith(f"{world['finished']};"))
    assert line.startswith(f"{world['finished']};Tressette a coppie;Tavolo 2;")
    assert ";0,50 EUR" in line and "0.50" not in italian
    assert re.search(r"(Nino|Salvo) [+\-]0,50 EUR", line)  # what it moved, per player
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    line = next(x for x in english.splitlines() if x.startswith(f"{world['finished']},"))
    assert ",0.50 EUR" in line and ";" not in english


def test_paid_times_are_local_with_the_zone(people, world):
    client = client_for(people, "director")
    close_night(client, world["night"])
    transfer = Transfer.objects.filter(settlement__night_id=world["night"]).first()
    client.post(f"/n/{world['night']}/settlement", {"transfer": transfer.pk})
    paid = timezone.localtime(Transfer.objects.get(pk=transfer.pk).paid_at)
    text = client.get(f"/n/{world['night']}/settlement.csv").content.decode()
    assert f"{paid:%Y-%m-%d %H:%M} {paid:%Z}" in text, text
    assert paid.strftime("%Z") in ("CET", "CEST")


def test_a_night_played_for_points_says_points_not_payments(people, club):
    director = people.director
    night = services.night_open(club_id=club.pk, date="2026-11-27", venue="", user=director)
    n, e, s, w = people.seated
    match = services.match_create(
        night=night,
        game="tressette4",
        rules={"profile": "classic_21"},
        seats={"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk},
        user=director,
        stake_amount="1",
    )
    for number, data in enumerate([SIDES, SMALL, SIDES, SIDES], start=1):
        services.deal_create(match=match, data=data, expected_number=number, user=director)
    client = client_for(people, "director")
    close_night(client, night.pk)
    italian = client.get(f"/n/{night.pk}/settlement", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "</strong> paga <strong>" not in italian  # "Nino paga Salvo 1"
    assert "Chi paga chi" not in italian.split("<main", 1)[1]
    assert "Segna come pagato" not in italian
    assert re.search(r"(Nino|Salvo|Ettore|Walter) → (Nino|Salvo|Ettore|Walter) · 1 punto", italian)
    english = client.get(f"/n/{night.pk}/settlement", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<h1>Points of the night</h1>" in english and "</strong> pays <strong>" not in english


def test_a_night_without_stakes_keeps_its_title(people, club):
    night = services.night_open(club_id=club.pk, date="2026-11-27", venue="", user=people.director)
    english = client_for(people, "member").get(
        f"/n/{night.pk}/settlement", HTTP_ACCEPT_LANGUAGE="en"
    )
    body = english.content.decode()
    assert "<h1>Who pays whom</h1>" in body and "Points of the night" not in body
    assert "No stakes were played: nobody owes anything." in body


def test_the_sheets_say_seats_and_the_date_as_the_reader_does(people, world, monkeypatch):
    """The page's CSV and PDF listed the players as 'N: Nino, E: Ettore, S: Salvo,
    W: Walter' in Italian (the engine's codes; the pages say O for ovest), and the PDF's
    title gave the night as '2026-11-20' over a sheet otherwise in words."""
    from scorebook.web.views import nights

    client = client_for(people, "director")
    close_night(client, world["night"])
    url = f"/n/{world['night']}/settlement"
    italian = client.get(url + ".csv", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    line = next(x for x in italian.splitlines() if x.startswith(f"{world['finished']};"))
    assert re.search(r"O: \w+", line) and not re.search(r"W: \w+", line), line
    english = client.get(url + ".csv", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    line = next(x for x in english.splitlines() if x.startswith(f"{world['finished']},"))
    assert re.search(r"W: \w+", line), line
    titles = []
    as_pdf = nights.exports.as_pdf
    monkeypatch.setattr(
        nights.exports, "as_pdf", lambda title, rows: titles.append(title) or as_pdf(title, rows)
    )
    assert client.get(url + ".pdf", HTTP_ACCEPT_LANGUAGE="it").content.startswith(b"%PDF")
    assert client.get(url + ".pdf", HTTP_ACCEPT_LANGUAGE="en").status_code == 200
    assert titles[0].endswith("venerdì 20 novembre 2026"), titles
    assert titles[1].endswith("Friday 20 November 2026"), titles
