"""Back to a saved deal's form, on a phone (Italian): the form shows the deal as it was
saved, so a save from it compares the player's deal with the stored one (issue 32 item 5:
the browser put back the chips but not the points, autocomplete="off", and the conflict
page's "La tua" said only «Compila "La smazzata"»)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.test_offline import SAVED, chip, enter_online, stored

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_back_then_another_version_fills_la_tua(night, phone, shots):
    page = phone(night.people["nino"])
    match = night.tressette
    page.goto(f"/m/{match.pk}/deals/new")
    enter_online(page, 0)
    page.wait_for_url(SAVED)
    typed = stored(match)[0].input["sides"]["A"]["thirds"] // 3
    page.go_back()
    page.wait_for_load_state()
    points = page.locator('[name="sides.A.thirds"]')
    expect(points).to_have_value(str(typed))  # what was saved, as the chips are

    chip(page, "last_trick", "A")  # one change: the last trick to the other side
    page.locator("#deal-form button[type=submit]").click()
    expect(page.locator("[data-conflict]")).to_be_visible()
    yours = page.locator(".compare .card").nth(1)
    expect(yours).to_contain_text("La tua")
    expect(yours).not_to_contain_text("Compila")
    expect(yours).to_contain_text("ultima presa")
    shots(page, "97-back-conflict-la-tua-it")
    assert len(stored(match)) == 1

    # Keep the stored one: the match page names the pairs as the form did (issue 32 item 5).
    page.locator("a", has_text="Tieni quella salvata").click()
    expect(page.locator(".scoreboard .who")).to_have_text(["Nino & Salvo", "Ettore & Walter"])
    shots(page, "98-match-pairs-as-the-form-it")
