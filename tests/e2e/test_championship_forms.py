"""A championship set up and run on its pages, on 390 px phones in Italian (issue 34 item
3): an officer creates it (the game, its house rules from the engine's description, the
calendar), the directors of two clubs enter their teams (regulars in table order, a
substitute), the officer starts it, postpones one fixture (the calendar shows its new
night) and records a forfeit in the other, and the table moves; the home director sees
the line-up form. Each page is axe-clean and fits the phone (screenshots:
tests/e2e/artifacts/98-championship-forms-*)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.test_every_page import OVERFLOW

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def fits(page, name):
    wider, culprits = page.evaluate(OVERFLOW)
    assert not wider, f"{name}: wider than the phone: {culprits}"


@pytest.fixture
def clubs(players):
    from django.contrib.auth import get_user_model

    from scorebook.clubs.models import Club, Membership, Player
    from tests import builders

    home = Club.objects.get(slug="san-rocco")
    users = get_user_model().objects
    Membership.objects.create(club=home, user=users.create_user("titolare"), role="owner")
    away = Club.objects.create(name="Circolo Kalsa", slug="kalsa")
    captain = users.create_user("capitano", password="pw-capitano")
    Membership.objects.create(club=away, user=captain, role="owner")
    for name in ("Santo", "Marta", "Ciccio", "Lia", "Turi"):
        Player.objects.create(club=away, name=name)
    builders.federation(home, away, slug="comitato", publishes=True)
    return users.get(username="comitato-officer"), captain


def enter_team(page, url, name, regulars, substitute=None):
    page.goto(url)
    page.get_by_role("link", name="Iscrivi una squadra").click()
    page.locator('[name="name"]').fill(name)
    selects = page.locator("#team-form select[name^='player.']")
    assert selects.count() == len(regulars)
    for index, player in enumerate(regulars):
        selects.nth(index).select_option(label=player)
    if substitute:
        page.get_by_label(substitute).check()
    page.get_by_role("button", name="Iscrivi la squadra").click()
    expect(page.get_by_text("Squadra iscritta.")).to_be_visible()


def test_a_championship_created_entered_postponed_and_forfeited(players, clubs, phone, shots, axe):
    from scorebook.federations.models import Championship, ChampionshipFixture

    officer_user, captain = clubs
    officer = phone(officer_user, language="it")
    officer.goto("/f/comitato/championships/")
    officer.get_by_role("link", name="Nuovo campionato").click()
    axe(officer, "new championship: the games")
    officer.locator('a[href="?game=tressette4"]').click()
    officer.locator('[name="name"]').fill("Campionato a squadre")
    officer.locator('[name="season"]').fill("2026/27")
    officer.locator('[name="first_day"]').fill("2026-12-04")
    officer.locator("details.switches summary").click()  # the engine's house rules
    expect(officer.locator('[name="rules.t4.target"]')).to_be_visible()
    fits(officer, "new championship")
    axe(officer, "new championship")
    shots(officer, "98-championship-forms-new")
    officer.get_by_role("button", name="Crea il campionato").click()
    expect(officer.get_by_text("Campionato creato")).to_be_visible()
    made = Championship.objects.get()
    assert (made.tables, made.substitutes) == (2, 2)
    url = f"/f/comitato/championships/{made.pk}/"

    director = phone(players["direttore"], language="it")
    enter_team(director, url, "San Rocco", ["Nino", "Ettore", "Salvo", "Walter"])
    away = phone(captain, language="it")
    away.goto(url)
    away.get_by_role("link", name="Iscrivi una squadra").click()
    expect(away.locator("#team-form")).not_to_contain_text("Nino")  # only Kalsa's players
    fits(away, "enter a team")
    axe(away, "enter a team")
    shots(away, "98-championship-forms-enter")
    enter_team(away, url, "Kalsa", ["Santo", "Marta", "Ciccio", "Lia"], substitute="Turi")

    officer.goto(url)
    expect(officer.locator("#teams")).to_contain_text("riserve: Turi")
    officer.get_by_role("button", name="Inizia: sorteggia il calendario").click()
    expect(officer.get_by_text("Il campionato è iniziato")).to_be_visible()
    first = made.fixtures.get(home__club__slug="san-rocco")
    second = made.fixtures.exclude(pk=first.pk).get()

    # the first fixture is put off five days: its new night shows in the calendar
    officer.locator(f"#fixture-{first.pk} a").click()
    expect(officer.locator("#lineups")).to_contain_text("Santo, Marta")
    officer.locator('[name="plan-day"]').fill("2026-12-09")
    officer.locator('[name="plan-reason"]').fill("Sala occupata")
    officer.locator("#plan-form button").click()
    expect(officer.get_by_text("L'incontro ha una nuova serata.")).to_be_visible()
    expect(officer.locator("#planned")).to_contain_text("rinviato")
    fits(officer, "fixture")
    axe(officer, "fixture")
    shots(officer, "98-championship-forms-fixture")
    officer.goto(url)
    expect(officer.locator(f"#fixture-{first.pk}")).to_contain_text("09/12/2026")
    expect(officer.locator(f"#fixture-{first.pk}")).to_contain_text("rinviato")

    # Kalsa forfeits the second: San Rocco takes the fixture's two points
    officer.locator(f"#fixture-{second.pk} a").click()
    officer.locator('[name="forfeit-team"]').select_option(label="Kalsa")
    officer.locator('[name="forfeit-reason"]').fill("Squadra incompleta")
    officer.locator("#forfeit-form button").click()
    expect(officer.locator(".message.success")).to_contain_text("Sconfitta a tavolino registrata")
    second.refresh_from_db()
    assert second.status == ChampionshipFixture.Status.FORFEITED
    # the officer may undo a forfeit recorded by mistake: the form is on the fixture's page
    expect(officer.locator("#undo-form")).to_be_visible()
    fits(officer, "forfeited fixture with its undo form")
    axe(officer, "forfeited fixture with its undo form")
    officer.goto(url)
    row = officer.locator("table.standings tbody tr").first
    expect(row).to_contain_text("San Rocco")
    expect(row.locator("td").last).to_have_text("2")
    fits(officer, "championship")
    axe(officer, "championship")
    shots(officer, "98-championship-forms-table")
    # the director of the home club sees no forfeit form
    director.goto(f"/f/comitato/fixtures/{first.pk}/")
    expect(director.locator("#plan-form")).to_be_visible()
    expect(director.locator("#forfeit-form")).to_have_count(0)
    # and may name tonight's line-ups from each roster (Kalsa's substitute among them)
    expect(director.locator('#lineup-form [name="lineup-away.0"]')).to_contain_text("Turi")
    fits(director, "fixture with its line-up form")
    axe(director, "fixture with its line-up form")
    shots(director, "98-championship-forms-lineup")
