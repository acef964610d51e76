"""The match form on a phone (Italian): choosing the house rules keeps the seats, the
guests, the stake and the first dealer already chosen."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_choosing_the_house_rules_keeps_the_seats(night, phone, shots):
    """Choosing a profile reloaded the form and forgot the seats already chosen."""
    page = phone(night.people["direttore"])
    page.goto(f"/n/{night.pk}/matches/new?game=tressette4&players=4")
    for seat, name in (("N", "Nino"), ("E", "Ettore"), ("S", "Salvo")):
        page.locator(f'[name="seats.{seat}"]').select_option(label=name)
    page.locator('[name="guest.W"]').fill("Gino")
    page.locator('[name="first_dealer"]').select_option("E")
    page.locator('[name="stake_amount"]').fill("0,50")
    page.locator("#profile").select_option("accuso_41")
    page.wait_for_url(re.compile(r"profile=accuso_41"))
    for seat, name in (("N", "Nino"), ("E", "Ettore"), ("S", "Salvo")):
        expect(page.locator(f'[name="seats.{seat}"] option:checked')).to_have_text(name)
    expect(page.locator('[name="guest.W"]')).to_have_value("Gino")
    expect(page.locator('[name="first_dealer"]')).to_have_value("E")
    expect(page.locator('[name="stake_amount"]')).to_have_value("0,50")
    expect(page.locator('[name="rules.t4.target"]')).to_have_value("41")
    assert "csrfmiddlewaretoken" not in page.url
    shots(page, "98-profile-keeps-seats-it")
    page.locator("main form[method=post] button.primary").click()
    page.wait_for_url(re.compile(r"/m/\d+/$"))
    expect(page.locator(".pairs")).to_have_text("Nino (N) e Salvo (S) contro Ettore (E) e Gino (O)")
