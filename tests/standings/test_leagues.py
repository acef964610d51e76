"""Leagues through their services: entries, the start (fixtures and lots), linking the
matches that count, withdrawals, and the table computed from it all."""

import pytest

from scorebook.clubs.services import NotAllowed
from scorebook.matches import services as matches
from scorebook.standings.leagues import services as leagues
from scorebook.standings.leagues.selectors import league_table
from scorebook.standings.models import Fixture, League
from tests.standings.league_helpers import night, pair_match, players


@pytest.fixture
def pairs_league(people):
    director = people.director
    league = leagues.league_create(club=people.club, name="Coppa d'inverno", user=director)
    people = players(people.club, "Nino", "Ettore", "Salvo", "Walter", "Zina", "Rosa")
    names = ("Nino-Ettore", "Salvo-Walter", "Zina-Rosa")
    for name, pair in zip(names, (people[0:2], people[2:4], people[4:6]), strict=True):
        leagues.entry_add(league=league, name=name, player_ids=[p.pk for p in pair], user=director)
    league.people = people
    return league


def fixture_between(league, home, away):
    return Fixture.objects.get(league=league, home__name=home, away__name=away)


def test_starting_makes_the_fixtures_and_draws_the_lots_once(people, pairs_league):
    league = leagues.league_start(league=pairs_league, user=people.director)
    assert league.fixtures.count() == 3
    assert sorted(league.entries.values_list("lot", flat=True)) == [1, 2, 3]
    table = league_table(league)
    assert [r.bye.name for r in table.rounds] == ["Nino-Ettore", "Salvo-Walter", "Zina-Rosa"]
    lots = dict(league.entries.values_list("name", "lot"))
    with pytest.raises(leagues.LeagueStarted):
        leagues.league_start(league=league, user=people.director)
    with pytest.raises(leagues.LeagueStarted):
        leagues.entry_add(league=league, name="late", player_ids=[], user=people.director)
    assert dict(league.entries.values_list("name", "lot")) == lots


def test_entries_need_the_right_players(people, pairs_league):
    director = people.director
    nino = pairs_league.people[0]
    with pytest.raises(leagues.BadEntryPlayers):
        leagues.entry_add(league=pairs_league, name="solo", player_ids=[nino.pk], user=director)
    with pytest.raises(leagues.PlayerInAnotherEntry) as taken:
        leagues.entry_add(
            league=pairs_league,
            name="again",
            player_ids=[nino.pk, people.seated[1].pk],
            user=director,
        )
    assert "Nino-Ettore" in taken.value.text()
    other = players(people.other, "Forestiero")[0]
    with pytest.raises(leagues.PlayerNotInClub) as outsider:
        leagues.entry_add(
            league=pairs_league, name="x", player_ids=[people.seated[1].pk, other.pk], user=director
        )
    assert outsider.value.path == "players[1]"
    with pytest.raises(NotAllowed):
        leagues.entry_add(league=pairs_league, name="y", player_ids=[], user=people.scorer)


def test_a_chain_that_does_not_start_with_points_is_refused(people):
    with pytest.raises(leagues.BadTiebreaks) as refused:
        leagues.league_create(
            club=people.club, name="x", tiebreaks=["lots", "points"], user=people.director
        )
    assert refused.value.path == "tiebreaks"


def test_linked_matches_decide_the_fixture_and_the_table(people, pairs_league):
    director = people.director
    league = leagues.league_start(league=pairs_league, user=director)
    nino, ettore, salvo, walter, zina, rosa = pairs_league.people
    on = night(people)
    # seats sent in the order N, S, E, W: the sides still come out right
    first = pair_match(people, on, (nino, ettore), (salvo, walter), "NS", seats_order="NSEW")
    second = pair_match(people, on, (walter, salvo), (ettore, nino), "NS")
    fixture = Fixture.objects.get(
        league=league,
        home__name__in=["Nino-Ettore", "Salvo-Walter"],
        away__name__in=["Nino-Ettore", "Salvo-Walter"],
    )
    leagues.fixture_match_link(fixture=fixture, match=first, user=people.scorer)
    table = league_table(league)
    score = next(s for r in table.rounds for s in r.fixtures if s.fixture.pk == fixture.pk)
    assert score.status == "played"
    assert (score.home_wins + score.away_wins, score.home_points + score.away_points) == (
        1,
        first.state["totals"]["A"] + first.state["totals"]["B"],
    )
    top = table.rows[0]
    assert (top[1].name, top[0].points, top[0].won, top[0].decided_by) == (
        "Nino-Ettore",
        2,
        1,
        "points",
    )
    # the second match makes it 1-1: a drawn fixture
    leagues.fixture_match_link(fixture=fixture, match=second, user=director)
    table = league_table(league)
    assert {e.name: (r.points, r.drawn) for r, e in table.rows} == {
        "Nino-Ettore": (1, 1),
        "Salvo-Walter": (1, 1),
        "Zina-Rosa": (0, 0),
    }
    with pytest.raises(leagues.MatchAlreadyLinked):
        leagues.fixture_match_link(fixture=fixture, match=second, user=director)


def test_a_match_must_be_between_the_two_entries(people, pairs_league):
    director = people.director
    league = leagues.league_start(league=pairs_league, user=director)
    nino, ettore, salvo, walter, zina, rosa = pairs_league.people
    fixture = (
        Fixture.objects.filter(league=league)
        .exclude(home__name="Zina-Rosa")
        .exclude(away__name="Zina-Rosa")
        .get()
    )
    on = night(people)
    mixed = pair_match(people, on, (nino, salvo), (ettore, walter))
    with pytest.raises(leagues.MatchNotForFixture) as refused:
        leagues.fixture_match_link(fixture=fixture, match=mixed, user=director)
    assert "partners" in refused.value.text()
    outsider = pair_match(people, on, (nino, ettore), (salvo, zina))
    with pytest.raises(leagues.MatchNotForFixture):
        leagues.fixture_match_link(fixture=fixture, match=outsider, user=director)
    with pytest.raises(NotAllowed):
        leagues.fixture_match_link(
            fixture=fixture,
            match=pair_match(people, on, (nino, ettore), (salvo, walter)),
            user=people.member,
        )


@pytest.mark.parametrize("policy", ["void", "keep"])
def test_withdrawals_void_or_keep_the_results(people, pairs_league, policy):
    director = people.director
    leagues.league_update(league=pairs_league, changes={"withdrawals": policy}, user=director)
    league = leagues.league_start(league=pairs_league, user=director)
    nino, ettore, salvo, walter, zina, rosa = pairs_league.people
    on = night(people)
    fixture = (
        Fixture.objects.filter(league=league)
        .exclude(home__name="Nino-Ettore")
        .exclude(away__name="Nino-Ettore")
        .get()
    )
    zina_won = pair_match(people, on, (zina, rosa), (salvo, walter), "NS")
    leagues.fixture_match_link(fixture=fixture, match=zina_won, user=director)
    zr = league.entries.get(name="Zina-Rosa")
    leagues.entry_withdraw(entry=zr, user=director, reason="moved away")
    table = league_table(league)
    rows = {e.name: r for r, e in table.rows}
    statuses = sorted(s.status for r in table.rounds for s in r.fixtures)
    if policy == "void":
        assert rows["Zina-Rosa"].position is None and rows["Zina-Rosa"].points == 0
        assert rows["Salvo-Walter"].lost == 0
        assert statuses == ["cancelled", "scheduled", "void"]
    else:
        assert rows["Zina-Rosa"].points == 2 and rows["Zina-Rosa"].withdrawn
        assert rows["Salvo-Walter"].lost == 1
        assert statuses == ["cancelled", "played", "scheduled"]
    with pytest.raises(leagues.EntryWithdrawn):
        leagues.fixture_match_link(
            fixture=fixture,
            match=pair_match(people, on, (zina, rosa), (salvo, walter)),
            user=director,
        )


def test_kind_and_legs_are_fixed_once_started(people, pairs_league):
    director = people.director
    league = leagues.league_start(league=pairs_league, user=director)
    with pytest.raises(leagues.LeagueStarted):
        leagues.league_update(league=league, changes={"legs": 2}, user=director)
    league = leagues.league_update(league=league, changes={"points_win": 3}, user=director)
    assert League.objects.get(pk=league.pk).points_win == 3


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("it", "Un iscritto di questo campionato deve avere esattamente 2 giocatori diversi."),
        ("en", "An entry of this league needs exactly 2 different players."),
    ],
)
def test_a_pair_needs_exactly_two_players_in_words(people, pairs_league, language, words):
    """A pairs league's entry said 'richiede da 2 a 2 giocatori' ('needs 2 to 2')."""
    from django.utils import translation

    nino = pairs_league.people[0]
    with pytest.raises(leagues.BadEntryPlayers) as refused:
        leagues.entry_add(
            league=pairs_league, name="solo", player_ids=[nino.pk], user=people.director
        )
    with translation.override(language):
        assert refused.value.text() == words


def test_an_abandoned_match_linked_to_a_fixture_counts_for_nothing(people, pairs_league):
    """A match ended before its end (abandoned, with a reason) is neither played nor
    still being played for the fixture it was linked to (it showed as 'playing' for
    ever)."""
    director = people.director
    league = leagues.league_start(league=pairs_league, user=director)
    nino, ettore, salvo, walter, _zina, _rosa = pairs_league.people
    on = night(people)
    left = pair_match(people, on, (nino, ettore), (salvo, walter))
    fixture = Fixture.objects.get(
        league=league,
        home__name__in=["Nino-Ettore", "Salvo-Walter"],
        away__name__in=["Nino-Ettore", "Salvo-Walter"],
    )
    leagues.fixture_match_link(fixture=fixture, match=left, user=people.scorer)
    matches.match_abandon(match=left, reason="Temporale", user=director)
    table = league_table(league)
    score = next(s for r in table.rounds for s in r.fixtures if s.fixture.pk == fixture.pk)
    assert score.playing == 0 and score.status not in ("playing", "played")
    assert score.home_wins + score.away_wins == 0
