"""The league pages and the player page, through the test client."""

import pytest
from django.test import Client

from scorebook.standings.leagues import services as leagues
from scorebook.standings.models import League
from tests.standings.league_helpers import night, pair_match, players


def client_for(people, who):
    client = Client()
    client.force_login(people[who])
    return client


@pytest.fixture
def four(people):
    return people.seated


def test_a_director_runs_a_league_from_its_pages(club, people, four, django_assert_max_num_queries):
    director = client_for(people, "director")
    created = director.post(
        f"/c/{club.slug}/leagues/",
        {
            "name": "Coppa",
            "kind": "pairs",
            "game": "tressette4",
            "legs": 1,
            "points_win": 3,
            "points_draw": 1,
            "points_loss": 0,
            "withdrawals": "void",
        },
    )
    assert created.status_code == 302
    league = League.objects.get(name="Coppa")
    page = f"/c/{club.slug}/leagues/{league.pk}/"
    assert created["Location"] == page
    nino, ettore, salvo, walter = four
    for name, pair in (("NE", (nino, ettore)), ("SW", (salvo, walter))):
        added = director.post(page + "entry", {"name": name, "players": [p.pk for p in pair]})
        assert added.status_code == 302
    refused = director.post(page + "entry", {"name": "again", "players": [nino.pk, salvo.pk]})
    assert refused.status_code == 409
    assert "NE" in refused.content.decode()  # "Nino already plays for NE"
    assert director.post(page + "start").status_code == 302
    fixture = league.fixtures.get()
    match = pair_match(people, night(people), (nino, ettore), (salvo, walter), "NS")
    linked = client_for(people, "scorer").post(
        page + "link", {"fixture": fixture.pk, "match": match.pk}
    )
    assert linked.status_code == 302
    with django_assert_max_num_queries(12):
        body = director.get(page).content.decode()
    assert "<strong>0–1</strong>" in body  # SW at home lost the one match
    assert "decided by: points" in body
    sheet = director.get(page + "csv").content.decode().splitlines()
    assert sheet[2].startswith("1,NE,1,1,0,0,3,")


def test_members_read_but_get_no_controls_and_outsiders_get_404(club, people):
    league = leagues.league_create(club=club, name="Coppa", user=people.director)
    page = f"/c/{club.slug}/leagues/{league.pk}/"
    member = client_for(people, "member")
    body = member.get(page).content.decode()
    assert "Coppa" in body and 'action="' + page + 'start"' not in body
    assert member.post(page + "start").status_code == 403
    assert client_for(people, "stranger").get(page).status_code == 404


def test_the_player_page_draws_the_running_score_of_a_match(club, people, four):
    nino, ettore, salvo, walter = four
    match = pair_match(people, night(people), (nino, ettore), (salvo, walter), "NS")
    body = client_for(people, "member").get(f"/c/{club.slug}/players/{nino.pk}/stats").content
    text = body.decode()
    assert "<svg" in text and f"Match {match.pk}" in text
    assert "Nino &amp; Ettore" in text  # the side's line is named after its players
    assert "style=" not in text.split("<svg", 1)[1].split("</svg>", 1)[0]


def test_the_league_pages_in_italian_carry_no_english_and_no_wrong_word(club, people, four):
    """The model's English help text stayed on the Italian form; the league's table was
    called "Tavolo" (a card table) instead of "Classifica"."""
    director = client_for(people, "director")
    listing = director.get(f"/c/{club.slug}/leagues/", HTTP_ACCEPT_LANGUAGE="it")
    assert "round robin" not in listing.content.decode()
    league = leagues.league_create(club=club, name="Coppa", user=people.director)
    page = director.get(f"/c/{club.slug}/leagues/{league.pk}/", HTTP_ACCEPT_LANGUAGE="it")
    assert "<h2>Classifica</h2>" in page.content.decode()
    assert "<h2>Tavolo</h2>" not in page.content.decode()


def test_a_knockout_bracket_page_with_a_forfeit_in_english_and_italian(club, people):
    """The bracket of five pairs (byes to the top three seeds), a fixture forfeited and
    undone from the page by a director, the CSV of the bracket."""
    director = client_for(people, "director")
    created = director.post(
        f"/c/{club.slug}/leagues/",
        {
            "name": "Coppa KO",
            "kind": "pairs",
            "game": "tressette4",
            "format": "knockout",
            "seeding": "order",
            "legs": 1,
            "series": "best_of",
            "series_games": 3,
            "points_win": 2,
            "points_draw": 1,
            "points_loss": 0,
            "points_per_game": 1,
            "withdrawals": "void",
        },
    )
    assert created.status_code == 302, created.content.decode()[:2000]
    league = League.objects.get(name="Coppa KO")
    page = f"/c/{club.slug}/leagues/{league.pk}/"
    names = ("Nino-Ettore", "Salvo-Walter", "Zina-Rosa", "Ada-Bice", "Ciro-Dario")
    found = players(club, *(n for pair in names for n in pair.split("-")))
    for i, name in enumerate(names):
        pair = found[2 * i : 2 * i + 2]
        assert (
            director.post(
                page + "entry", {"name": name, "players": [p.pk for p in pair]}
            ).status_code
            == 302
        )
    assert director.post(page + "start").status_code == 302
    body = director.get(page).content.decode()
    for words in ("Quarter-finals", "Semi-finals", "Final", "bye: goes on", "Placings",
                  "winner of the previous round", "Record a forfeit (a tavolino)"):  # fmt: skip
        assert words in body, words
    first = league.fixtures.get(round=1)
    ciro = league.entries.get(name="Ciro-Dario")
    no_reason = director.post(
        page + "forfeit", {"fixture": first.pk, "entry": ciro.pk, "reason": ""}
    )
    assert no_reason.status_code == 400
    done = director.post(
        page + "forfeit", {"fixture": first.pk, "entry": ciro.pk, "reason": "assenti"}
    )
    assert done.status_code == 302
    body = director.get(page).content.decode()
    assert "Ciro-Dario forfeited: assenti" in body and "Undo the forfeit" in body
    assert body.count("Ada-Bice") >= 2  # went on to the semi-final
    italian = director.get(page, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    for words in ("Quarti di finale", "Semifinali", "Finale", "a tavolino"):
        assert words in italian, words
    member = client_for(people, "member").get(page).content.decode()
    assert "Undo the forfeit" not in member and "Ada-Bice" in member
    undone = director.post(page + "unforfeit", {"fixture": first.pk, "reason": "sbagliato"})
    assert undone.status_code == 302
    assert "forfeited:" not in director.get(page).content.decode()
    sheet = director.get(page + "csv").content.decode()
    assert "Quarter-finals" in sheet and "bye" in sheet


def test_a_knockout_stage_made_from_the_league_page(club, people, four):
    league = leagues.league_create(club=club, name="Girone", user=people.director)
    nino, ettore, salvo, walter = four
    for name, pair in (("NE", (nino, ettore)), ("SW", (salvo, walter))):
        leagues.entry_add(
            league=league, name=name, player_ids=[p.pk for p in pair], user=people.director
        )
    leagues.league_start(league=league, user=people.director)
    page = f"/c/{club.slug}/leagues/{league.pk}/"
    director = client_for(people, "director")
    assert "Make the knockout stage" in director.get(page).content.decode()
    bad = director.post(
        page + "knockout", {"name": "KO", "top": 1, "series": "matches", "series_games": 1}
    )
    assert bad.status_code == 400
    made = director.post(
        page + "knockout", {"name": "KO", "top": 2, "series": "best_of", "series_games": 3}
    )
    stage = League.objects.get(name="KO")
    assert made.status_code == 302 and made["Location"] == f"/c/{club.slug}/leagues/{stage.pk}/"
    assert (stage.format, stage.series_games, stage.entries.count()) == ("knockout", 3, 2)
    assert "Make the knockout stage" not in client_for(people, "member").get(page).content.decode()


def test_a_director_withdraws_from_a_knockout_page_and_the_other_entry_walks_over(
    club, people, four
):
    league = leagues.league_create(club=club, name="KO", format="knockout", user=people.director)
    nino, ettore, salvo, walter = four
    for name, pair in (("NE", (nino, ettore)), ("SW", (salvo, walter))):
        leagues.entry_add(
            league=league, name=name, player_ids=[p.pk for p in pair], user=people.director
        )
    leagues.league_start(league=league, user=people.director)
    page = f"/c/{club.slug}/leagues/{league.pk}/"
    director = client_for(people, "director")
    sw = league.entries.get(name="SW")
    assert director.post(page + "withdraw", {"entry": sw.pk}).status_code == 302
    body = director.get(page).content.decode()
    assert "walkover (withdrawal)" in body
    assert '<td class="num">1</td>' in body  # NE champion


def test_the_player_page_names_games_in_words_and_says_when_there_are_no_matches(
    club, people, four
):
    nino, ettore, salvo, walter = four
    member = client_for(people, "member")
    empty = member.get(f"/c/{club.slug}/players/{nino.pk}/stats").content.decode()
    assert "No matches yet." in empty  # the "Recent matches" heading stood over nothing
    pair_match(people, night(people), (nino, ettore), (salvo, walter), "NS")
    text = member.get(f"/c/{club.slug}/players/{nino.pk}/stats").content.decode()
    assert "Tressette, 4 players in pairs" in text
    assert "tressette4" not in text.split("<main", 1)[1]
    italian = member.get(f"/c/{club.slug}/players/{nino.pk}/stats", HTTP_ACCEPT_LANGUAGE="it")
    assert "Tressette a coppie" in italian.content.decode()


def test_a_round_robin_before_any_game_says_no_place_was_decided_by_lot(club, people, four):
    """Right after the start every entry is level on everything: the table said each place
    was 'per sorteggio' (decided by lot) before a single game was played."""
    director = client_for(people, "director")
    league = leagues.league_create(club=club, name="Coppa", user=people.director)
    nino, ettore, salvo, walter = four
    for name, pair in (("NE", (nino, ettore)), ("SW", (salvo, walter))):
        leagues.entry_add(
            league=league, name=name, player_ids=[p.pk for p in pair], user=people.director
        )
    leagues.league_start(league=league, user=people.director)
    page = f"/c/{club.slug}/leagues/{league.pk}/"
    body = director.get(page, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "NE" in body and "SW" in body
    table = body.split('class="data league-table"', 1)[1].split("</table>", 1)[0]
    assert "sorteggio" not in table
    sheet = director.get(page + "csv").content.decode().splitlines()
    assert not any(line.endswith("lots") or "sorteggio" in line for line in sheet[1:]), sheet


def test_each_place_says_what_decided_it_under_the_entry(club, people, four):
    """The table's last column, 'Decided by', was cut off at a phone's edge (the browser
    test of the demo's pages); each place now says it under the entry's name."""
    director = client_for(people, "director")
    league = leagues.league_create(club=club, name="Coppa", user=people.director)
    nino, ettore, salvo, walter = four
    for name, pair in (("NE", (nino, ettore)), ("SW", (salvo, walter))):
        leagues.entry_add(
            league=league, name=name, player_ids=[p.pk for p in pair], user=people.director
        )
    leagues.league_start(league=league, user=people.director)
    fixture = league.fixtures.get()
    home = (nino, ettore) if fixture.home.name == "NE" else (salvo, walter)
    away = (salvo, walter) if home[0] == nino else (nino, ettore)
    match = pair_match(people, night(people), home, away, "NS")
    leagues.fixture_match_link(fixture=fixture, match=match, user=people.scorer)
    page = f"/c/{club.slug}/leagues/{league.pk}/"
    for language, words, column in (
        ("en", "decided by: points", "Decided by"),
        ("it", "decisa da: punti", "Deciso da"),
    ):
        body = director.get(page, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        table = body.split('class="data league-table"', 1)[1].split("</table>", 1)[0]
        assert words in table and column not in table, table


@pytest.mark.parametrize(
    ("series", "games", "bella"), [("best_of", 3, False), ("matches", 1, False), ("games", 2, True)]
)
def test_only_a_game_past_the_series_is_said_decided_by_la_bella(
    club, people, series, games, bella
):
    """Issue 24 item 9: a best of 3 won 2-1 is not 'decided by la bella' (its third game is
    one of the three); a fixed series of two left 1-1 is, by the game after it."""
    director = client_for(people, "director")
    league = leagues.league_create(
        club=club, name="KO", user=people.director, format="knockout", series=series,
        series_games=games,
    )  # fmt: skip
    pairs = {"NE": players(club, "Nino", "Ettore"), "SW": players(club, "Salvo", "Walter")}
    for name, pair in pairs.items():
        leagues.entry_add(
            league=league, name=name, player_ids=[p.pk for p in pair], user=people.director
        )
    leagues.league_start(league=league, user=people.director)
    fixture = league.fixtures.get()
    home, away = pairs[fixture.home.name], pairs[fixture.away.name]
    on = night(people)
    for winner in ("NS", "EW", "NS")[: 1 if series == "matches" else 3]:
        match = pair_match(people, on, home, away, winner)
        leagues.fixture_match_link(fixture=fixture, match=match, user=people.scorer)
    page = f"/c/{club.slug}/leagues/{league.pk}/"
    english = director.get(page).content.decode()
    italian = director.get(page, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert ("decided by la bella" in english) is bella
    assert ("deciso alla bella" in italian) is bella


def test_a_planned_fixture_says_its_day_as_italian_writes_it(club, people, four):
    """'Prevista per il Venerdì 20 Novembre 2026': the planned day went through Django's
    own date filter (capitals in Italian), not the pages' local_date; and the day's field
    is filled with the ISO date a date input reads."""
    import datetime

    league = leagues.league_create(club=club, name="Coppa", user=people.director)
    nino, ettore, salvo, walter = four
    for name, pair in (("NE", (nino, ettore)), ("SW", (salvo, walter))):
        leagues.entry_add(
            league=league, name=name, player_ids=[p.pk for p in pair], user=people.director
        )
    leagues.league_start(league=league, user=people.director)
    fixture = league.fixtures.get()
    leagues.fixture_plan(fixture=fixture, day=datetime.date(2026, 11, 20), user=people.director)
    page = f"/c/{club.slug}/leagues/{league.pk}/"
    italian = client_for(people, "director").get(page, HTTP_ACCEPT_LANGUAGE="it")
    body = italian.content.decode()
    assert "Prevista per il venerdì 20 novembre 2026" in body
    assert 'value="2026-11-20"' in body
