"""The match form shows the new stakes (issue 16, "Stakes as the code lists them"): the
kinds of stake as a house rule, and what each table's pot (piatto) holds tonight, in
English and Italian. Source: Codice del tressette, ``regolamento.tex``, "Le Poste e il
Piatto"."""

import datetime
import re
from decimal import Decimal

from django.test import Client

from scorebook.matches import services
from scorebook.matches.models import Match

A_WINS = {
    "sides": {"A": {"thirds": 20, "tricks": 6}, "B": {"thirds": 12, "tricks": 4}},
    "last_trick": "A",
}


def test_the_match_form_offers_the_stakes_and_shows_the_pot(people):
    director = people.director
    night = services.night_open(
        club_id=people.club.pk, date=datetime.date(2026, 11, 23), venue="", user=director
    )
    table = services.table_create(night=night, number=2, name="", user=director)
    seats = dict(zip("NESW", (p.pk for p in people.seated), strict=True))
    first = services.match_create(
        night=night,
        game="tressette4",
        rules={"t4.stake": "marcio_e_batuffa"},
        seats=seats,
        table=table,
        user=director,
        first_dealer="N",
        stake_amount=Decimal("1.00"),
        stake_currency="EUR",
    )
    for _ in range(3):
        services.deal_create(match=first, data=A_WINS, expected_number=None, user=director)
    client = Client()
    client.force_login(people.scorer)
    url = f"/n/{night.pk}/matches/new?game=tressette4&players=4"
    page = client.get(url).content.decode()
    assert 'name="rules.t4.stake"' in page and 'value="marcio_e_batuffa"' in page
    assert "marcio e batuffa: double under the line" in page
    assert re.search(r"Pot of table 2: <strong>4\.00 EUR</strong>", page)
    italian = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert re.search(r"Piatto del tavolo 2: <strong>4\.00 EUR</strong>", italian)
    assert "Cosa paga una partita (la posta)" in italian
    # Another game shows no pot.
    other = client.get(f"/n/{night.pk}/matches/new?game=terziglio&players=3").content.decode()
    assert "Pot of table" not in other
    # The form starts a match with the switch.
    form = _defaults(page)
    form |= {f"seats.{s}": pk for s, pk in seats.items()}
    form |= {
        "first_dealer": "N",
        "stake_amount": "1.00",
        "stake_currency": "EUR",
        "table": table.pk,
        "rules.t4.stake": "marcio_e_batuffa",
    }
    response = client.post(url, form)
    assert response.status_code == 302, response.content.decode()[:2000]
    made = Match.objects.order_by("-id").first()
    assert made.rules["values"]["t4.stake"] == "marcio_e_batuffa"


def _defaults(page):
    values = {}
    for name, body in re.findall(r'<select name="(rules\.[^"]+)"[^>]*>(.*?)</select>', page, re.S):
        values[name] = re.search(r'<option value="([^"]*)" selected>', body).group(1)
    for name, value in re.findall(r'name="(rules\.[^"]+)" value="([^"]*)"', page):
        values[name] = value
    return values
