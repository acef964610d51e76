"""The calendar page on a phone (390 px, Italian): the member's addresses to subscribe to
or copy, fitting the screen; making new addresses replaces them."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_calendar_page_on_a_phone(phone, night, shots, axe):
    from scorebook.sharing.models import CalendarFeed

    page = phone(night.people["salvo"], "it")
    page.goto("/c/san-rocco/calendar")
    assert page.locator("h1").inner_text() == "Calendario"
    subscribe = page.locator("a.button", has_text="Abbonati").first
    token = CalendarFeed.objects.get(membership__user=night.people["salvo"]).token
    assert subscribe.get_attribute("href").startswith("webcal://")
    assert subscribe.get_attribute("href").endswith(f"/cal/{token}/mine.ics")
    assert page.get_by_role("button", name="Copia l'indirizzo").first.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    axe(page, "calendar")
    shots(page, "calendar")
    page.get_by_role("button", name="Crea nuovi indirizzi").click()
    page.wait_for_url("**/calendar")
    assert "quelli vecchi non funzionano più" in page.locator(".messages").inner_text()
    new = CalendarFeed.objects.get(membership__user=night.people["salvo"], revoked_at=None)
    assert new.token != token
    assert f"/cal/{new.token}/mine.ics" in page.content()
