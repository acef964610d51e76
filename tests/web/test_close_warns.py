"""Closing the night names the matches still being played: the page showed only the
money, and a match left at 15 to 13 was shut without a word."""

import re

from scorebook.matches import services
from tests.api.common import SIDES, SMALL
from tests.web.test_pages import client_for, close_night


def test_the_close_page_names_the_unfinished_matches(people, world):
    client = client_for(people, "director")
    url = f"/n/{world['night']}/close"
    italian = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    warning = italian.split('id="to-abandon"', 1)[1].split("</section>", 1)[0]
    assert (
        "1 partita non è finita: chiudendo la serata viene abbandonata e non conta nulla" in warning
    )
    assert "Tavolo 1 · Tressette a coppie" in warning and f"/m/{world['match']}/" in warning
    assert f"/m/{world['finished']}/" not in warning  # the finished one is not named
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert (
        "1 match is not finished: closing the night abandons it, and it counts for nothing"
        in english
    )


def test_no_warning_when_every_match_is_finished(people, club):
    director = people["director"]
    night = services.night_open(club_id=club.pk, date="2026-11-27", venue="", user=director)
    n, e, s, w = people.seated
    match = services.match_create(
        night=night,
        game="tressette4",
        rules={"profile": "classic_21"},
        seats={"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk},
        user=director,
    )
    for number, data in enumerate([SIDES, SMALL, SIDES, SIDES], start=1):
        services.deal_create(match=match, data=data, expected_number=number, user=director)
    body = client_for(people, "director").get(f"/n/{night.pk}/close").content.decode()
    assert "not finished" not in body
    # its deals are named only as unconfirmed (nobody across the table checked them)
    assert f"/m/{match.pk}/" not in body.split('id="pending"')[0]


def test_the_transfer_button_says_what_it_does(people, world):
    """The button beside "Carmelo paga Pina" said "Pagato", which reads as a state (is it
    paid already?) rather than what the tap does."""
    client = client_for(people, "director")
    close_night(client, world["night"])
    url = f"/n/{world['night']}/settlement"
    italian = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert re.search(r'name="transfer" value="\d+">Segna come pagato</button>', italian)
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert re.search(r'name="transfer" value="\d+">Mark as paid</button>', english)


def test_the_sheet_names_the_games_and_the_winners(people, world):
    """The page's CSV and PDF sheet said "tressette4" and "N S" (the API's keeps codes)."""
    client = client_for(people, "director")
    close_night(client, world["night"])
    csv = client.get(f"/n/{world['night']}/settlement.csv", HTTP_ACCEPT_LANGUAGE="it")
    text = csv.content.decode()
    # in Italian, cells between semicolons and decimal commas (issue 24, item 7)
    finished = next(line for line in text.splitlines() if line.startswith(f"{world['finished']};"))
    assert finished.startswith(f"{world['finished']};Tressette a coppie;Tavolo 2;")
    assert "tressette4" not in text and ";N S;" not in text and ";E W;" not in text
    assert re.search(r";(Nino & Salvo|Ettore & Walter);0,50 EUR", finished)
    pdf = client.get(f"/n/{world['night']}/settlement.pdf", HTTP_ACCEPT_LANGUAGE="it")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
