"""A club with 31 past nights: tonight's night is on the club home (it was on neither
list: with no ORDER BY the page showed the 30 oldest), and the older nights are a tap away."""

from __future__ import annotations

import datetime

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["it", "en"])
def test_tonight_and_the_older_nights_on_a_phone(phone, players, shots, language):
    from scorebook.matches import services
    from scorebook.matches.models import Night

    director = players["direttore"]
    club = director.memberships.get().club
    for week in range(31):
        Night.objects.create(
            club=club,
            date=datetime.date(2026, 1, 2) + datetime.timedelta(weeks=week),
            venue=f"Sala {week}",
            status=Night.Status.CLOSED,
        )
    services.night_open(club_id=club.pk, date="2026-11-27", venue="Bar Roma", user=director)
    words = {
        "it": ("Stasera", "Serate precedenti", "Serate più recenti"),
        "en": ("Tonight", "Older nights", "Newer nights"),
    }[language]
    page = phone(players["salvo"], language)
    page.goto("/c/san-rocco/")
    tonight = page.locator("h2", has_text=words[0]).locator("xpath=following-sibling::ul[1]")
    assert "Bar Roma" in tonight.inner_text()
    past = page.locator("h2 ~ ul.list").nth(1).locator("li")
    assert past.count() == 30
    assert "Sala 30" in past.first.inner_text()  # the newest past night first
    shots(page, f"club-home-{language}")
    page.get_by_role("link", name=words[1]).click()
    page.wait_for_url("**/?page=2")
    assert page.locator("h2 ~ ul.list").nth(1).locator("li").count() == 1
    assert "Sala 0" in page.locator("h2 ~ ul.list").nth(1).inner_text()
    assert page.get_by_role("link", name=words[2]).is_visible()
    shots(page, f"club-home-older-{language}")
