"""A league's settings are checked by its services, for the API and the pages alike.

``POST /leagues {"game": "poker"}`` was 201 (and a PATCH to it 200); then the fixtures,
the league's standings, its CSV, its knockout stage and its pages answered 500 for every
member. A PATCH to another league's name, or ``legs`` 0, 3 or 810, let the database's
constraint out as a 500. The league page's "add an entry" and "link a match" forms
answered 500 whenever they were invalid (``page_context() got multiple values``).
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from scorebook.standings.leagues import services as leagues
from scorebook.standings.models import League
from tests.api.common import api


@pytest.fixture
def coppa(people, club):
    return leagues.league_create(club=club, name="Coppa", user=people.director, game="tressette4")


def _codes(answer) -> list[str]:
    return [e["code"] for e in answer.json()["errors"]]


@pytest.mark.parametrize("game", ["poker", "TRESSETTE4", "tressette", "all"])
def test_a_league_of_no_game_is_refused(people, club, game):
    director = api(people, "director")
    answer = director.post(
        "/api/v1/leagues", {"club": club.pk, "name": "Coppa", "game": game}, format="json"
    )
    assert answer.status_code == 400, answer.content
    assert _codes(answer) == ["game.unknown"]
    assert answer.json()["errors"][0]["path"] == "game"
    assert not League.objects.exists()


def test_any_game_and_every_game_of_the_engine_are_accepted(people, club):
    from scorebook.rules import games

    director = api(people, "director")
    for number, game in enumerate(["", *sorted(games())]):
        body = {"club": club.pk, "name": f"Lega {number}", "game": game}
        answer = director.post("/api/v1/leagues", body, format="json")
        assert answer.status_code == 201, (game, answer.content)


def test_a_change_to_no_game_is_refused(people, coppa):
    director = api(people, "director")
    answer = director.patch(f"/api/v1/leagues/{coppa.pk}", {"game": "poker"}, format="json")
    assert answer.status_code == 400, answer.content
    assert _codes(answer) == ["game.unknown"]
    coppa.refresh_from_db()
    assert coppa.game == "tressette4"
    # The league's reads answer, as they did before the refused change.
    member = api(people, "member")
    for url in (
        f"/api/v1/leagues/{coppa.pk}/standings", f"/api/v1/leagues/{coppa.pk}/standings/csv",
        f"/api/v1/fixtures?league={coppa.pk}",
    ):  # fmt: skip
        assert member.get(url).status_code == 200, url


def test_a_change_to_another_leagues_name_is_refused(people, club, coppa):
    leagues.league_create(club=club, name="Trofeo", user=people.director)
    director = api(people, "director")
    answer = director.patch(f"/api/v1/leagues/{coppa.pk}", {"name": "Trofeo"}, format="json")
    assert answer.status_code == 409, answer.content
    assert _codes(answer) == ["league.name_taken"]
    assert "Trofeo" in answer.json()["errors"][0]["message"]
    coppa.refresh_from_db()
    assert coppa.name == "Coppa"
    # Its own name again is no change.
    same = director.patch(f"/api/v1/leagues/{coppa.pk}", {"name": "Coppa"}, format="json")
    assert same.status_code == 200


@pytest.mark.parametrize("legs", [0, 3, 810])
def test_legs_other_than_one_or_two_are_refused(people, club, coppa, legs):
    director = api(people, "director")
    answer = director.patch(f"/api/v1/leagues/{coppa.pk}", {"legs": legs}, format="json")
    assert answer.status_code == 400, answer.content
    assert _codes(answer) == ["league.bad_legs"]
    assert answer.json()["errors"][0]["path"] == "legs"
    coppa.refresh_from_db()
    assert coppa.legs == 1
    created = director.post(
        "/api/v1/leagues", {"club": club.pk, "name": "Altra", "legs": legs}, format="json"
    )
    assert created.status_code == 400, created.content
    assert _codes(created) == ["league.bad_legs"]
    assert not League.objects.filter(name="Altra").exists()


def _director(people) -> Client:
    client = Client()
    client.force_login(people.director)
    return client


LEAGUE_FORM = {
    "name": "Coppa", "kind": "pairs", "game": "tressette4", "legs": 1, "points_win": 3,
    "points_draw": 1, "points_loss": 0, "withdrawals": "void",
}  # fmt: skip


@pytest.mark.parametrize(
    ("field", "value"), [("game", "poker"), ("legs", 3), ("legs", 0), ("legs", 810)]
)
def test_the_page_refuses_a_league_of_no_game_or_bad_legs(people, club, field, value):
    answer = _director(people).post(
        f"/c/{club.slug}/leagues/", {**LEAGUE_FORM, field: value}, HTTP_ACCEPT_LANGUAGE="it"
    )
    assert 400 <= answer.status_code < 500, answer.status_code
    assert not League.objects.exists()


@pytest.mark.parametrize(
    ("action", "data"),
    [
        ("entry", {}),
        ("entry", {"name": "NS"}),
        ("entry", {"name": "NS", "players": ["abc"]}),
        ("link", {}),
        ("link", {"fixture": "1"}),
        ("link", {"fixture": "1", "match": "0"}),
        ("knockout", {}),
        ("forfeit", {}),
        ("unforfeit", {}),
    ],
)
@pytest.mark.parametrize("language", ["en", "it"])
def test_an_invalid_form_on_the_league_page_says_what_is_wrong(
    people, club, coppa, action, data, language
):
    page = f"/c/{club.slug}/leagues/{coppa.pk}/"
    answer = _director(people).post(page + action, data, HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 400, (action, data, answer.status_code)
    text = answer.content.decode()
    # what is wrong, beside its field or above the fixtures (each has its own form)
    said = re.findall(
        r'<p class="error">([^<]+)</p>|<div class="errors" role="alert"><p>([^<]+)', text
    )
    assert said, (action, data)
    if not data:
        required = {"en": "This field is required.", "it": "Campo obbligatorio."}[language]
        assert required in text, (action, data)
    assert coppa.entries.count() == 0
