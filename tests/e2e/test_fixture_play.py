"""A scorer on a 390 x 844 phone, in Italian, plays a league fixture from the league page:
"Gioca questo incontro" opens tonight's match form with both pairs seated, "Inizia la
partita" saves the match, linked to the fixture, and its page names the fixture
(screenshots: tests/e2e/artifacts/95-fixture-play-*)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def cup(players):
    from django.utils import timezone

    from scorebook.clubs.models import Player
    from scorebook.matches import services as matches
    from scorebook.standings.leagues import services as leagues

    director = players["direttore"]
    club_id = director.memberships.get().club_id
    ids = dict(Player.objects.values_list("name", "pk"))
    league = leagues.league_create(
        club=director.memberships.get().club,
        name="Coppa d'inverno",
        kind="pairs",
        game="tressette4",
        user=director,
    )
    for name in ("Nino-Ettore", "Salvo-Walter"):
        leagues.entry_add(
            league=league,
            name=name,
            player_ids=[ids[n] for n in name.split("-")],
            user=director,
        )
    leagues.league_start(league=league, user=director)
    night = matches.night_open(club_id=club_id, date=timezone.localdate(), venue="", user=director)
    return league, league.fixtures.get(), night


def test_a_scorer_plays_a_fixture_from_the_league_page(players, cup, phone, shots):
    from scorebook.matches.models import Match
    from scorebook.standings.models import FixtureMatch

    league, fixture, night = cup
    page = phone(players["nino"], language="it")
    page.goto(f"/c/san-rocco/leagues/{league.pk}/")
    play = page.get_by_role("link", name="Gioca questo incontro")
    expect(play).to_be_visible()
    shots(page, "95-fixture-play-league")
    play.click()
    expect(page).to_have_url(re.compile(rf"/n/{night.pk}/matches/new\?"))
    expect(page.locator("h1")).to_have_text("Tressette a coppie")
    words = f"Coppa d'inverno, giornata 1: {fixture.home.name} contro {fixture.away.name}"
    expect(page.get_by_text(words)).to_be_visible()
    seated = {
        seat: page.locator(f'select[name="seats.{seat}"] option:checked').inner_text()
        for seat in "NESW"
    }
    # the pairs sit across the table from each other: North-South, East-West
    assert {seated["N"], seated["S"]} in ({"Nino", "Ettore"}, {"Salvo", "Walter"})
    assert {seated["E"], seated["W"]} in ({"Nino", "Ettore"}, {"Salvo", "Walter"})
    assert {seated["N"], seated["S"]} == set(fixture.home.name.split("-"))
    shots(page, "95-fixture-play-form")
    page.get_by_role("button", name="Inizia la partita").click()
    expect(page).to_have_url(re.compile(r"/m/\d+/$"))
    match = Match.objects.get(night=night)
    assert page.url.endswith(f"/m/{match.pk}/")
    assert FixtureMatch.objects.get(match=match).fixture_id == fixture.pk
    link = page.get_by_role("link", name=words)
    expect(link).to_be_visible()
    shots(page, "95-fixture-play-match")
    link.click()
    expect(page.locator("h1")).to_have_text("Coppa d'inverno")
