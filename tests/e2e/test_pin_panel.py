"""The deal page's hand-over on a phone (Italian): a wrong PIN leaves the panel open with
the player still chosen and the refusal inside it; the right PIN then confirms."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.test_table_phone import enter_deal

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_wrong_pin_keeps_the_hand_over_open(night, phone, shots):
    """After a wrong PIN the 'pass the phone' panel closed: the refusal at the top, the
    player to choose again, the panel to find and open again."""
    page = phone(night.people["nino"])
    deal_id = enter_deal(page, night.tressette.pk)
    panel = page.locator("details.handover")
    panel.locator("summary").click()
    panel.locator('[name="player"]').select_option(label="Ettore")
    panel.locator('[name="pin"]').fill("0000")
    panel.locator("button[type=submit]").click()
    page.wait_for_load_state()
    expect(panel).to_have_attribute("open", "")
    expect(panel.locator('[name="player"] option:checked')).to_have_text("Ettore")
    expect(panel.locator(".error")).to_contain_text("PIN")
    shots(page, "97-wrong-pin-it")

    panel.locator('[name="pin"]').fill("2468")
    panel.locator("button[type=submit]").click()
    page.wait_for_url(f"**/d/{deal_id}/")
    from scorebook.matches.models import Confirmation

    assert [c.player.name for c in Confirmation.objects.filter(deal_id=deal_id)] == ["Ettore"]
