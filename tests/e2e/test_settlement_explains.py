"""The settlement page explains itself on a phone: match by match, the result, the stake
and what each player won or lost, beside the nets and the transfers."""

from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WON = {"sides": {"A": {"thirds": 20, "tricks": 5}, "B": {"thirds": 12, "tricks": 5}},
       "last_trick": "A"}  # fmt: skip
LOST = {"sides": {"A": {"thirds": 14, "tricks": 4}, "B": {"thirds": 18, "tricks": 6}},
        "last_trick": "B"}  # fmt: skip


@pytest.mark.parametrize("language", ["it", "en"])
def test_the_settlement_page_says_why(phone, night, shots, language):
    from scorebook.matches import services

    people = night.people
    director = people["direttore"]
    table = services.table_create(night=night, number=1, name="Tavolo 1", user=director)
    match = services.match_create(
        night=night,
        table=table,
        game="tressette4",
        rules={"profile": "classic_21"},
        seats=night.tressette.seats,
        user=director,
        stake_amount="0.50",
        stake_currency="EUR",
    )
    for number, data in enumerate([WON, LOST, WON, WON], start=1):
        services.deal_create(match=match, data=data, expected_number=number, user=director)
    still = night.matches.filter(status="open").values_list("pk", flat=True)
    services.night_close(night=night, user=director, end_open=list(still))
    page = phone(people["salvo"], language)
    page.goto(f"/n/{night.pk}/settlement")
    line = page.locator(f"#line-{match.pk}").inner_text()
    won = {"it": r"vincono Nino & Salvo \d+–\d+", "en": r"Nino & Salvo won \d+–\d+"}[language]
    assert re.search(won, line), line
    stake = {"it": "posta 0,50 EUR", "en": "stake 0.50 EUR"}[language]
    assert stake in line and "Nino +" in line and "Ettore \u2212" in line
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shots(page, f"settlement-explains-{language}")
