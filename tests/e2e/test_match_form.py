"""The match form for Tressette in pairs on a 360 x 740 phone: the 39 house-rule switches
sit in a closed section, so the seats, the stake and the start button fit in a few
screens; a tap on its summary opens it, with JavaScript or without; axe finds nothing
serious either way (screenshots: tests/e2e/artifacts/90-match-form-*)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}


@pytest.mark.parametrize(
    ("language", "summary"),
    [
        ("it", "Regole della casa: quelle predefinite del gioco (cambiale una per una)"),
        ("en", "House rules: the game's defaults (change them one by one)"),
    ],
)
def test_the_house_rules_are_one_closed_line_until_tapped(
    night, phone, shots, axe, language, summary
):
    page = phone(night.people["direttore"], language=language)
    page.set_viewport_size(PHONE)
    page.goto(f"/n/{night.pk}/matches/new?game=tressette4&players=4")
    section = page.locator("details.switches")
    toggle = section.locator("summary")
    target = page.locator('[name="rules.t4.target"]')
    expect(toggle).to_have_text(summary)
    expect(target).to_be_hidden()
    closed = page.evaluate("document.documentElement.scrollHeight")
    box = toggle.bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] >= 44
    axe(page, f"match form, house rules closed ({language})")
    shots(page, f"90-match-form-closed-{language}")

    toggle.click()
    expect(section).to_have_attribute("open", "")
    expect(target).to_be_visible()
    opened = page.evaluate("document.documentElement.scrollHeight")
    # 39 switches are several screens of their own; closed, the form is the rest
    assert opened > closed + 3 * PHONE["height"], (closed, opened)
    axe(page, f"match form, house rules open ({language})")
    shots(page, f"90-match-form-open-{language}")

    # a changed switch is still sent when the section is closed again
    target.fill("31")
    toggle.click()
    expect(target).to_be_hidden()
    for seat, name in zip("NESW", ("Nino", "Ettore", "Salvo", "Walter"), strict=True):
        page.locator(f'[name="seats.{seat}"]').select_option(label=name)
    page.locator("main form[method=post] button.primary").click()
    page.wait_for_url(re.compile(r"/m/\d+/$"))

    from scorebook.matches.models import Match

    assert Match.objects.latest("id").rules["values"]["t4.target"] == 31


def test_the_section_opens_without_javascript(night, browser, browser_context_args, live_server):
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(night.people["direttore"])
    context = browser.new_context(
        **{**browser_context_args, "locale": "it", "viewport": PHONE},
        base_url=live_server.url,
        java_script_enabled=False,
    )
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    try:
        page = context.new_page()
        page.goto(f"/n/{night.pk}/matches/new?game=tressette4&players=4")
        target = page.locator('[name="rules.t4.target"]')
        expect(target).to_be_hidden()
        page.locator("details.switches > summary").click()
        expect(target).to_be_visible()
    finally:
        context.close()
