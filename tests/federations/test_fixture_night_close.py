"""A championship fixture played at the home club's night, crossed with the night's close
(issue 34 item 3 x docs/night-close.md): closing with a fixture's table still open is
refused in words (the close would abandon the match, and an abandoned table is no result
a championship can count); finished tables, or an officer's forfeit, let it close, and
the fixture's result is the same after the close as before it."""

import pytest

from scorebook.federations import championship_selectors as reads
from scorebook.federations.models import ChampionshipFixture, FixtureTable
from scorebook.federations.services import championships as champs
from scorebook.matches import refusals as match_refusals
from scorebook.matches.models import Match
from tests import builders as build
from tests.federations.championship_helpers import home_fixture, league, officer, tonight

pytestmark = pytest.mark.django_db


def played(people):
    made = league(people)
    fixture = home_fixture(made)
    night = tonight(people)
    champs.fixture_play(fixture=fixture, user=people.director)
    tables = list(FixtureTable.objects.filter(fixture=fixture).order_by("number"))
    return made, fixture, night, [t.match for t in tables]


def test_a_table_still_open_keeps_the_night_open(people):
    _made, fixture, night, (first, second) = played(people)
    build.finish(people, first, build.A_WINS)
    build.deals(people, second, build.B_WINS)
    with pytest.raises(match_refusals.NightNotReady) as refused:
        build.close(people, night)
    words = str(refused.value.detail if hasattr(refused.value, "detail") else refused.value)
    assert "San Rocco A" in words and "Altrove A" in words, words
    assert Match.objects.get(pk=second.pk).status == Match.Status.OPEN  # nothing abandoned
    fixture.refresh_from_db()
    assert fixture.status == ChampionshipFixture.Status.PLAYING


def test_finished_tables_close_and_the_result_stays(people):
    _made, fixture, night, matches = played(people)
    for match in matches:
        build.finish(people, match, build.A_WINS)
    before = reads.result(fixture).as_dict()
    closed = build.close(people, night)
    assert closed.status == "closed"
    fixture.refresh_from_db()
    assert reads.result(fixture).as_dict() == before and before["complete"]
    champs.fixture_confirm(fixture=fixture, user=people.stranger)  # Altrove's owner
    fixture.refresh_from_db()
    assert fixture.status == ChampionshipFixture.Status.CONFIRMED


def test_an_officers_forfeit_lets_the_night_close(people):
    made, fixture, night, (first, second) = played(people)
    build.finish(people, first, build.A_WINS)
    champs.fixture_forfeit(
        fixture=fixture,
        team=fixture.away,
        reason="se ne sono andati",
        user=officer(made.federation),
    )
    closed = build.close(people, night, reason="squadra ritirata")
    assert closed.status == "closed"
    assert Match.objects.get(pk=second.pk).status == Match.Status.ABANDONED
    fixture.refresh_from_db()
    result = reads.result(fixture)
    assert fixture.status == ChampionshipFixture.Status.FORFEITED
    assert (result.home_tables, result.away_tables) == (2, 0)
