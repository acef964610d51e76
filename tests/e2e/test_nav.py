"""The club's navigation keeps to two rows on a 360 px phone in Italian and English, now
that it names the standings too (with the old padding it took a third row, 54 px of a
small screen above every page)."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ROWS = "() => new Set([...document.querySelectorAll('nav.nav a')].map(a => a.offsetTop)).size"


@pytest.mark.parametrize("language", ["it", "en"])
def test_the_club_navigation_fits_two_rows_at_360px(phone, players, language):
    page = phone(players["direttore"], language)
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto("/c/san-rocco/")
    standings = "Classifiche" if language == "it" else "Standings"
    assert page.locator("nav.nav a", has_text=standings).count() == 1
    assert page.evaluate(ROWS) <= 2
