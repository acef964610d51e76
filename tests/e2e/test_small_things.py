"""Issue 24 item 9's small things as a person reads them, on a 390 x 844 phone in
Italian (the page tests read the same words through the test client): the invitation's
uses, a night without tables, the public page's nights of one date, the sign-up help, the
leaderboard's and the rating chart's decimal commas.

Screenshots: tests/e2e/artifacts/99-small-*.png."""

from __future__ import annotations

import datetime
import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo(settings, transactional_db):
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    settings.DEBUG = True  # load_demo refuses otherwise
    call_command("load_demo")
    return get_user_model().objects.get(username="demo")


def test_the_small_things_on_a_phone_in_italian(demo, phone, shots):
    from scorebook.clubs import services as clubs
    from scorebook.clubs.models import Club, Player
    from scorebook.matches import services

    club = Club.objects.get(slug="san-rocco")
    invitation = clubs.invitation_create(club=club, role="member", user=demo)
    page = phone(demo, "it")

    page.goto("/c/san-rocco/invite")
    expect(page.get_by_text(re.compile(r"Utilizzi: 0 su 1 · valido fino a "))).to_be_visible()
    assert "volta" not in page.inner_text("main")
    shots(page, "99-small-invite")

    # a night with a match and no table: 'Partite', not 'Altre partite'
    day = datetime.date.today() + datetime.timedelta(days=1)
    tomorrow = services.night_open(club_id=club.pk, date=day, venue="", user=demo)
    ids = dict(Player.objects.filter(club=club).values_list("name", "pk"))
    four = ("Nino", "Ettore", "Salvo", "Walter")
    services.match_create(
        night=tomorrow,
        game="tressette4",
        rules={"profile": "classic_21"},
        seats={s: ids[n] for s, n in zip("NESW", four, strict=True)},
        user=demo,
    )
    page.goto(f"/n/{tomorrow.pk}/")
    expect(page.get_by_role("heading", name="Partite", exact=True)).to_be_visible()
    expect(page.get_by_role("heading", name="Altre partite")).to_have_count(0)
    shots(page, "99-small-night-without-tables")

    # two nights of one date: told apart on the public page
    services.night_open(club_id=club.pk, date=day, venue="", user=demo)
    anyone = phone(None, "it")
    anyone.goto("/public/san-rocco/")
    headings = anyone.locator("h2").all_inner_texts()
    assert len(set(headings)) == len(headings), headings  # no night twice
    assert any(h.endswith("serata 2") for h in headings), headings
    shots(anyone, "99-small-public")

    # the sign-up help in words, not Django's
    anyone.goto(f"/join/{invitation.token}")
    expect(
        anyone.get_by_text("Lettere, cifre e i segni @ . + - _, al massimo 150.")
    ).to_be_visible()
    assert "meno.Solo" not in anyone.content()
    shots(anyone, "99-small-join")

    # decimal commas: the leaderboard's table and a player's rating chart
    page.goto("/c/san-rocco/standings/")
    table = page.inner_text("table")
    assert not re.search(r"\d\.\d", table), table
    shots(page, "99-small-leaderboard")
    nino = ids["Nino"]
    page.goto(f"/c/san-rocco/players/{nino}/stats")
    chart = " ".join(page.locator("svg.chart").first.locator("text").all_text_contents())
    assert re.search(r"\d,\d", chart) and not re.search(r"\d\.\d", chart), chart
    shots(page, "99-small-rating-chart")
