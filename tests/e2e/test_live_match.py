"""The match page follows the deals entered on the other phones (reference: VISION, step
3: "the running score and a small chart update on both phones"): it showed the score of
the moment it was opened until someone reloaded it."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_deal_entered_elsewhere_reaches_the_open_match_page(phone, night, shots):
    from scorebook.matches import services
    from scorebook.web.views.matches import MATCH_REFRESH_SECONDS

    people = night.people
    match = night.tressette
    page = phone(people["ettore"], "it")
    page.goto(f"/m/{match.pk}/")
    assert page.locator(".score .points").all_inner_texts() == ["0", "0"]
    assert page.locator("svg.chart").count() == 0
    services.deal_create(
        match=match,
        data={
            "sides": {"A": {"thirds": 20, "tricks": 6}, "B": {"thirds": 12, "tricks": 4}},
            "last_trick": "A",
        },
        expected_number=1,
        user=people["nino"],
    )
    page.wait_for_function(
        "() => [...document.querySelectorAll('.score .points')].map(e => e.textContent)"
        ".join() === '7,4'",
        timeout=(MATCH_REFRESH_SECONDS + 10) * 1000,
    )
    assert page.locator("svg.chart").count() == 1
    # Ettore did not enter it: the page now asks him to confirm it
    assert page.get_by_role("button", name="Confermo la smazzata 1").is_visible()
    shots(page, "81-live-match")
