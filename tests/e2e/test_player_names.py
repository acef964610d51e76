"""Adding "nino" beside "Nino" on the players page is refused in words under the name
field (both were accepted, and every seat picker then offered both)."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["it", "en"])
def test_a_name_in_other_case_is_refused_under_the_field(phone, players, shots, language):
    from scorebook.clubs.models import Player

    page = phone(players["nino"], language)
    page.goto("/c/san-rocco/players")
    page.locator("#id_name").fill("NINO")
    page.locator("form.stack button[type=submit]").click()
    page.wait_for_load_state()
    field = page.locator("#id_name").locator("xpath=ancestor::*[contains(@class,'field')][1]")
    words = {
        "it": "Il circolo ha già un giocatore chiamato 'Nino'",
        "en": "The club already has a player called 'Nino'",
    }[language]
    assert words in field.inner_text()
    assert Player.objects.filter(name__iexact="nino").count() == 1
    shots(page, f"player-name-taken-{language}")
