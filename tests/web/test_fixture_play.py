"""A league's fixture played from its page: "play this fixture" opens the match form of
tonight's night with the league's game chosen and both entries seated (home on one side,
away on the other); saving it links the match to the fixture in the same request, and the
match page names its fixture. Before, a scorer started the match by hand and typed its
number into the fixture's "count match number" box."""

import re

import pytest
from django.test import Client
from django.utils import timezone

from scorebook.clubs.models import Player
from scorebook.matches import services as matches
from scorebook.matches.models import Match
from scorebook.rules import get_game
from scorebook.standings.leagues import services as leagues
from scorebook.standings.models import FixtureMatch
from tests.standings.league_helpers import night, pair_match


def client_for(people, who):
    client = Client()
    client.force_login(people[who])
    return client


@pytest.fixture
def cup(club, people):
    """Coppa d'inverno (pairs, Tressette in four, a fixture is a best of one): Nino-Ettore
    at home to Salvo-Walter."""
    nino, ettore, salvo, walter = people.seated
    league = leagues.league_create(
        club=club,
        name="Coppa d'inverno",
        kind="pairs",
        game="tressette4",
        series="best_of",
        series_games=1,
        user=people.director,
    )
    for name, pair in (("Nino-Ettore", (nino, ettore)), ("Salvo-Walter", (salvo, walter))):
        leagues.entry_add(
            league=league, name=name, player_ids=[p.pk for p in pair], user=people.director
        )
    leagues.league_start(league=league, user=people.director)
    fixture = league.fixtures.get()
    if fixture.home.name != "Nino-Ettore":  # the lots drew the other way round
        fixture.home, fixture.away = fixture.away, fixture.home
        fixture.save()
    return league, fixture


@pytest.fixture
def tonight(people):
    return matches.night_open(
        club_id=people.club.pk, date=timezone.localdate(), venue="", user=people.director
    )


def _form_values(body):
    """Every field of the match form as a browser sends it (selected options, values)."""
    form = body.split('id="match-form"', 1)[1].split("</form>", 1)[0]
    values = {}
    for name, options in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', form, re.S):
        chosen = re.search(r'<option value="([^"]*)" selected>', options)
        values[name] = chosen.group(1) if chosen else ""
    for tag in re.findall(r"<input [^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name and name.group(1) != "csrfmiddlewaretoken":
            values[name.group(1)] = value.group(1) if value else ""
    return values


def _play_url(club, league, fixture):
    return f"/c/{club.slug}/leagues/{league.pk}/fixtures/{fixture.pk}/play"


def test_the_link_shows_to_scorers_on_a_fixture_still_to_play(club, people, cup, tonight):
    league, fixture = cup
    page = f"/c/{club.slug}/leagues/{league.pk}/"
    link = f'href="{_play_url(club, league, fixture)}"'
    scorer = client_for(people, "scorer").get(page).content.decode()
    assert link in scorer and "Play this fixture" in scorer
    italian = client_for(people, "director").get(page, HTTP_ACCEPT_LANGUAGE="it")
    assert "Gioca questo incontro" in italian.content.decode()
    assert link not in client_for(people, "member").get(page).content.decode()
    nino, ettore, salvo, walter = people.seated
    played = pair_match(people, tonight, (nino, ettore), (salvo, walter), "NS")
    leagues.fixture_match_link(fixture=fixture, match=played, user=people.scorer)
    assert link not in client_for(people, "scorer").get(page).content.decode()  # decided


def test_the_link_opens_tonights_form_with_the_game_and_both_entries_seated(
    club, people, cup, tonight
):
    league, fixture = cup
    client = client_for(people, "scorer")
    opened = client.get(_play_url(club, league, fixture))
    assert opened.status_code == 302
    assert opened["Location"].startswith(f"/n/{tonight.pk}/matches/new?")
    form = client.get(opened["Location"])
    assert form.status_code == 200
    values = _form_values(form.content.decode())
    game = get_game("tressette4")
    rules = game.rules({})
    seats = tuple(game.seats(rules, 4))
    first, second = game.table_shape(rules.values, seats).members.values()
    home = {str(p.pk) for p in fixture.home.players.all()}
    away = {str(p.pk) for p in fixture.away.players.all()}
    assert {values[f"seats.{s}"] for s in first} == home
    assert {values[f"seats.{s}"] for s in second} == away
    assert "Coppa d&#x27;inverno, round 1: Nino-Ettore against Salvo-Walter" in (
        form.content.decode()
    )


def test_without_a_night_open_today_it_says_so_and_links_to_open_one(club, people, cup):
    league, fixture = cup
    night(people, day=1)  # open, but not today
    response = client_for(people, "director").get(
        _play_url(club, league, fixture), HTTP_ACCEPT_LANGUAGE="it"
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert "Nessuna serata aperta oggi" in body
    assert f'href="/c/{club.slug}/nights/new"' in body


def test_saving_the_form_links_the_match_and_its_page_names_the_fixture(club, people, cup, tonight):
    league, fixture = cup
    client = client_for(people, "scorer")
    url = client.get(_play_url(club, league, fixture))["Location"]
    values = _form_values(client.get(url).content.decode())
    saved = client.post(url, values)
    assert saved.status_code == 302, saved.content.decode()[:3000]
    match = Match.objects.get(night=tonight)
    assert saved["Location"] == f"/m/{match.pk}/"
    assert FixtureMatch.objects.get(match=match).fixture == fixture
    body = client.get(saved["Location"], HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Coppa d&#x27;inverno, giornata 1: Nino-Ettore contro Salvo-Walter" in body
    assert f'href="/c/{club.slug}/leagues/{league.pk}/"' in body


def test_a_fixture_decided_meanwhile_is_refused_in_words_and_nothing_is_stored(
    club, people, cup, tonight
):
    league, fixture = cup
    client = client_for(people, "scorer")
    url = client.get(_play_url(club, league, fixture))["Location"]
    values = _form_values(client.get(url).content.decode())
    values["guest.N"] = "Zia Pina"  # a guest made by the form: rolled back with the match
    nino, ettore, salvo, walter = people.seated
    played = pair_match(people, tonight, (nino, ettore), (salvo, walter), "NS")
    leagues.fixture_match_link(fixture=fixture, match=played, user=people.scorer)
    before = (Match.objects.count(), Player.objects.count(), FixtureMatch.objects.count())
    refused = client.post(url, values, HTTP_ACCEPT_LANGUAGE="it")
    assert refused.status_code == 409
    assert "Questo incontro è deciso (1-0)" in refused.content.decode()
    assert (Match.objects.count(), Player.objects.count(), FixtureMatch.objects.count()) == before


def test_a_league_of_any_game_asks_the_game_first_and_keeps_the_fixture(club, people, tonight):
    nino, ettore, salvo, walter = people.seated
    league = leagues.league_create(club=club, name="Coppa libera", user=people.director)
    for name, pair in (("NE", (nino, ettore)), ("SW", (salvo, walter))):
        leagues.entry_add(
            league=league, name=name, player_ids=[p.pk for p in pair], user=people.director
        )
    leagues.league_start(league=league, user=people.director)
    fixture = league.fixtures.get()
    client = client_for(people, "scorer")
    opened = client.get(_play_url(club, league, fixture))
    assert opened["Location"] == f"/n/{tonight.pk}/matches/new?fixture={fixture.pk}"
    choose = client.get(opened["Location"]).content.decode()
    assert f"players=4&amp;fixture={fixture.pk}" in choose  # each game's link carries it
    form = client.get(f"/n/{tonight.pk}/matches/new?game=tressette4&players=4&fixture={fixture.pk}")
    seated = {v for k, v in _form_values(form.content.decode()).items() if k.startswith("seats.")}
    assert seated == {str(p.pk) for p in people.seated}


def test_a_fixture_that_is_not_a_number_or_not_the_clubs_is_not_found(club, people, cup):
    league, fixture = cup
    tonight = matches.night_open(
        club_id=club.pk, date=timezone.localdate(), venue="", user=people.director
    )
    client = client_for(people, "scorer")
    url = f"/n/{tonight.pk}/matches/new?game=tressette4&players=4&fixture="
    assert client.get(url + "abc").status_code == 404
    assert client.get(url + str(fixture.pk + 1000)).status_code == 404
    other = leagues.league_create(club=people.other, name="Altrove", user=people.stranger)
    play = f"/c/{club.slug}/leagues/{other.pk}/fixtures/{fixture.pk}/play"
    assert client.get(play).status_code == 404


def test_a_fixture_already_played_offers_another_match_not_the_fixture_again(club, people):
    """A round robin's fixture counts every match linked to it ('more matches won wins'):
    after one was played the page still said 'Gioca questo incontro', as if nothing had
    been played. It now offers another match of the fixture."""
    nino, ettore, salvo, walter = people.seated
    league = leagues.league_create(club=club, name="Coppa", user=people.director)
    for name, pair in (("NE", (nino, ettore)), ("SW", (salvo, walter))):
        leagues.entry_add(
            league=league, name=name, player_ids=[p.pk for p in pair], user=people.director
        )
    leagues.league_start(league=league, user=people.director)
    fixture = league.fixtures.get()
    page = f"/c/{club.slug}/leagues/{league.pk}/"
    scorer = client_for(people, "scorer")
    before = scorer.get(page, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Gioca questo incontro" in before and "altra partita" not in before
    home = (nino, ettore) if fixture.home.name == "NE" else (salvo, walter)
    away = (salvo, walter) if home[0] == nino else (nino, ettore)
    match = pair_match(people, night(people), home, away, "NS")
    leagues.fixture_match_link(fixture=fixture, match=match, user=people.scorer)
    after = scorer.get(page, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Gioca questo incontro" not in after
    assert "Gioca un'altra partita dell'incontro" in after
    english = scorer.get(page, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Play another match of this fixture" in english
