"""Issue 34's Done-when for the championships: a fixture played at the home club's night on
two table phones through the real deal form, the away captain confirms on their own phone,
and the championship's table and its public page move (390 x 844, Italian; screenshots:
tests/e2e/artifacts/97-championship-*)."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: A deal the home side (A, the first side) wins 11 to 0: with a target of 11 it ends the
#: match.
HOME_WINS = {
    "sides.A.thirds": "30",
    "sides.A.tricks": "8",
    "sides.B.thirds": "2",
    "sides.B.tricks": "2",
}


@pytest.fixture
def cup(players):
    from django.contrib.auth import get_user_model

    from scorebook.clubs.models import Club, Membership, Player
    from scorebook.core.dates import today_in
    from scorebook.federations.services import championships as champs
    from scorebook.matches import services as matches
    from tests import builders

    home = Club.objects.get(slug="san-rocco")
    users = get_user_model().objects
    Membership.objects.create(club=home, user=users.create_user("titolare"), role="owner")
    away = Club.objects.create(name="Circolo Kalsa", slug="kalsa")
    captain = users.create_user("capitano", password="pw-capitano")
    Membership.objects.create(club=away, user=captain, role="owner")
    visitors = [
        Player.objects.create(club=away, name=n) for n in ("Santo", "Marta", "Ciccio", "Lia")
    ]
    federation = builders.federation(home, away, slug="comitato", publishes=True)
    officer = users.get(username="comitato-officer")
    made = champs.championship_create(
        federation=federation,
        name="Campionato a squadre",
        season="2026/27",
        game=builders.GAME,
        rules_spec={"profile": "classic_21", "t4.target": 11},
        user=officer,
    )
    ids = dict(Player.objects.filter(club=home).values_list("name", "pk"))
    director = players["direttore"]
    champs.team_enter(
        championship=made,
        club=home,
        name="San Rocco",
        player_ids=[ids[n] for n in ("Nino", "Ettore", "Salvo", "Walter")],
        user=director,
    )
    champs.team_enter(
        championship=made,
        club=away,
        name="Kalsa",
        player_ids=[p.pk for p in visitors],
        user=captain,
    )
    champs.championship_start(championship=made, user=officer)
    matches.night_open(club_id=home.pk, date=today_in(home.zone_name), venue="", user=director)
    return made, made.fixtures.get(home__club=home), captain


def finished(match_id, timeout=20):
    from scorebook.matches.models import Match

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if Match.objects.get(pk=match_id).status == "finished":
            return True
        time.sleep(0.2)
    return False


def test_a_championship_fixture_at_the_home_night(players, cup, phone, shots, axe):
    made, fixture, captain = cup
    url = f"/f/comitato/championships/{made.pk}/"
    director = phone(players["direttore"], language="it")
    director.goto(url)
    shots(director, "97-championship-before")
    director.get_by_role("button", name="Gioca questo incontro").click()
    expect(director.get_by_text("I tavoli dell'incontro sono pronti")).to_be_visible()
    fixture.refresh_from_db()
    tables = list(fixture.boards.order_by("number"))
    assert len(tables) == 2
    # two table phones, one per table, through the real deal form
    for scorer, table in zip(("nino", "ettore"), tables, strict=True):
        page = phone(players[scorer], language="it")
        page.goto(f"/m/{table.match_id}/deals/new?level=totals")
        page.locator("details.section").evaluate_all("a => a.forEach(d => { d.open = true; })")
        for name, value in HOME_WINS.items():
            page.locator(f'[name="{name}"]').fill(value)
        page.locator('[name="last_trick"]').select_option("A")
        expect(page.locator("#deal-feedback .verdict.ok")).to_be_visible()
        shots(page, f"97-championship-table-{table.number}")
        page.locator("#deal-form button[type=submit]").click()
        assert finished(table.match_id), f"table {table.number} did not finish"
    away = phone(captain, language="it")
    away.goto(url)
    away.get_by_role("button", name="Conferma il risultato").click()
    expect(away.get_by_text("Risultato confermato")).to_be_visible()
    shots(away, "97-championship-confirmed")
    axe(away, "championship page")
    row = away.locator("table.standings tbody tr").first
    expect(row).to_contain_text("San Rocco")
    expect(row.locator("td").last).to_have_text("2")
    public = phone(None, language="it")
    public.goto(f"/public/f/comitato/championships/{made.pk}/")
    expect(public.locator("table.standings tbody tr").first).to_contain_text("San Rocco")
    expect(public.locator(f"#fixture-{fixture.pk} .result")).to_have_text("2-0")
    shots(public, "97-championship-public")
    axe(public, "public championship page")
