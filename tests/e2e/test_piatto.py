"""The pot (piatto) of marcio e batuffa on the match form, in a real browser at a phone's
size (issue 16, "Stakes as the code lists them"; Codice del tressette, regolamento.tex,
"Le Poste e il Piatto"): the director picks the stake among the house rules, sees what the
table's pot holds tonight in Italian, and starts the match; axe finds nothing serious."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

A_WINS = {
    "sides": {"A": {"thirds": 20, "tricks": 6}, "B": {"thirds": 12, "tricks": 4}},
    "last_trick": "A",
}


def test_the_match_form_shows_the_pot_and_starts_a_marcio_e_batuffa_match(phone, shots, axe):
    from django.contrib.auth import get_user_model

    from scorebook.clubs.models import Club, Membership, Player
    from scorebook.matches import services
    from scorebook.matches.models import Match

    club = Club.objects.create(name="Circolo San Rocco", slug="san-rocco")
    director = get_user_model().objects.create_user("direttore", password="pw")
    Membership.objects.create(club=club, user=director, role="director")
    names = ("Nino", "Ettore", "Salvo", "Walter")
    ids = {n: Player.objects.create(club=club, name=n).pk for n in names}
    night = services.night_open(club_id=club.pk, date="2026-11-20", venue="", user=director)
    table = services.table_create(night=night, number=1, name="", user=director)
    seats = {s: ids[n] for s, n in zip("NESW", names, strict=True)}
    first = services.match_create(
        night=night,
        game="tressette4",
        rules={"t4.stake": "marcio_e_batuffa"},
        seats=seats,
        table=table,
        user=director,
        first_dealer="N",
        stake_amount=Decimal("0.50"),
        stake_currency="EUR",
    )
    for _ in range(3):
        services.deal_create(match=first, data=A_WINS, expected_number=None, user=director)

    page = phone(director)
    page.goto(f"/n/{night.pk}/matches/new?game=tressette4&players=4")
    pots = page.get_by_role("list", name="I piatti di stasera")
    expect(pots).to_contain_text("Piatto del tavolo 1: 2.00 EUR")  # 4 x 0.50
    page.locator("main details summary").first.click()
    stake = page.locator('[name="rules.t4.stake"]')
    expect(stake).to_be_visible()
    stake.select_option("marcio_e_batuffa")
    axe(page, "match form with the pot")
    shots(page, "60-match-form-piatto")
    for seat, name in zip("NESW", names, strict=True):
        page.locator(f'[name="seats.{seat}"]').select_option(label=name)
    page.locator('[name="table"]').select_option(str(table.pk))
    page.locator('[name="stake_amount"]').fill("0,50")
    page.locator("main form[method=post] button.primary").click()
    page.wait_for_url(re.compile(r"/m/\d+/$"))
    made = Match.objects.order_by("-id").first()
    assert made.rules["values"]["t4.stake"] == "marcio_e_batuffa"
    assert made.table_id == table.pk
