"""The share button on a phone (390 px, Italian): where the browser has no Web Share API
(this Chromium, as most desktops) the WhatsApp link and the text to copy show; where it
has one, one button opens the phone's share sheet with the text and the link."""

from __future__ import annotations

from urllib.parse import unquote

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_without_web_share_the_whatsapp_link_and_the_copy_show(phone, night, shots):
    page = phone(night.people["salvo"], "it")
    page.goto(f"/m/{night.tressette.pk}/")
    box = page.locator("[data-share]")
    assert page.evaluate("typeof navigator.share") == "undefined"
    assert box.locator("[data-share-button]").is_hidden()
    whatsapp = box.locator("[data-share-whatsapp]")
    assert whatsapp.is_visible() and whatsapp.inner_text() == "Invia su WhatsApp"
    href = unquote(whatsapp.get_attribute("href"))
    assert href.startswith("https://wa.me/?text=Circolo San Rocco, 20/11, ")
    assert f"/m/{night.tressette.pk}/" in href
    copy = box.locator("[data-share-copy]")
    assert copy.is_visible() and copy.inner_text() == "Copia il testo"
    box.locator("summary").click()
    assert "Nino & Salvo 0–0 Walter & Ettore (in corso)" in box.locator(".share-text").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shots(page, "share-fallback")


def test_with_web_share_one_button_sends_the_text(phone, night, shots):
    page = phone(night.people["salvo"], "it")
    # A phone's navigator.share, recorded: Chromium on Linux has none.
    page.add_init_script(
        "navigator.share = function (data) { window.__shared = data; return Promise.resolve(); };"
    )
    page.goto(f"/n/{night.pk}/")
    box = page.locator("[data-share]")
    button = box.locator("[data-share-button]")
    assert button.is_visible() and button.inner_text() == "Condividi"
    assert box.locator("[data-share-whatsapp]").is_hidden()
    button.click()
    shared = page.evaluate("window.__shared")
    assert shared["text"].startswith("Circolo San Rocco, serata del 20/11: ")
    assert shared["url"].endswith(f"/n/{night.pk}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shots(page, "share-button")


def test_a_share_sheet_that_fails_brings_the_fallback_back(phone, night):
    page = phone(night.people["salvo"], "it")
    page.add_init_script(
        "navigator.share = function () {"
        " return Promise.reject(new DOMException('no', 'NotAllowedError')); };"
    )
    page.goto(f"/n/{night.pk}/")
    box = page.locator("[data-share]")
    box.locator("[data-share-button]").click()
    box.locator("[data-share-whatsapp]").wait_for(state="visible")
