"""Issue 23's smaller items, each as its user met it.

- The leaderboard page's game filter did nothing (a string compared with a list of
  tuples): every game's rows whatever the game asked.
- A role change a member may not make answered 302 with no word; now it says why.
- ``rules/score`` refusals had a top-level ``"ok": false`` beside ``errors``; the API's one
  refusal shape is ``{"errors": [...]}``.
- Adding another club's player to a league entry said "not a player of this club" where a
  missing id said "does not exist": a 4xx that told whether an id exists elsewhere.
"""

from __future__ import annotations

import datetime

import pytest
from django.test import Client

from scorebook.clubs.models import Membership, Player
from scorebook.standings import refresh
from scorebook.standings import services as standings
from scorebook.standings.leagues import services as leagues
from tests.api.common import api


def _as(people, who) -> Client:
    client = Client()
    client.force_login(people[who])
    return client


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_leaderboard_page_shows_the_game_asked_for(people, club, world, language):
    standings.season_create(
        club_id=club.pk,
        name="2026-27",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=None,
        user=people.director,
    )
    refresh.rebuild(club_id=club.pk)
    member = _as(people, "member")
    url = f"/c/{club.slug}/standings/"
    every = member.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert ">Nino</a></th>" in every
    # the club played Tressette in pairs only: Terziglio has nobody, Tressette everyone
    terziglio = member.get(url + "?game=terziglio", HTTP_ACCEPT_LANGUAGE=language)
    text = terziglio.content.decode()
    assert ">Nino</a></th>" not in text
    assert '<option value="terziglio" selected>' in text
    pairs = member.get(url + "?game=tressette4", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert ">Nino</a></th>" in pairs and '<option value="tressette4" selected>' in pairs
    # the public page alike
    club.public = True
    club.save(update_fields=["public"])
    public = Client().get(f"/public/{club.slug}/standings/?game=terziglio").content.decode()
    assert '<option value="terziglio" selected>' in public and ">Nino</th>" not in public


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "You may give roles up to your own (director): the role was not changed."),
        ("it", "Puoi dare ruoli fino al tuo (direttore): il ruolo non è cambiato."),
    ],
)
def test_a_role_change_above_ones_own_says_why(people, club, language, said):
    target = Membership.objects.get(club=club, user=people.member)
    director = _as(people, "director")
    answer = director.post(
        f"/c/{club.slug}/members",
        {"membership": target.pk, "role": "owner"},
        HTTP_ACCEPT_LANGUAGE=language,
        follow=True,
    )
    assert said in answer.content.decode()
    target.refresh_from_db()
    assert target.role == "member"


def test_a_score_refusal_has_the_one_refusal_shape(db):
    bad = {
        "game": "tressette4",
        "sides": {"A": {"thirds": 13, "tricks": 4}, "B": {"thirds": 18, "tricks": 6}},
        "last_trick": "B",
    }
    for body in (bad, {"game": "tressette4", "deals": [bad]}, {"game": "poker"}):
        answer = Client().post("/api/v1/rules/score", body, content_type="application/json")
        assert answer.status_code == 400
        data = answer.json()
        assert set(data) == {"errors"}, data
        assert data["errors"] and all({"code", "path", "message"} <= set(e) for e in data["errors"])


def test_a_foreign_player_and_a_missing_one_get_the_same_answer(people, club):
    league = leagues.league_create(club=club, name="Coppa", user=people.director)
    foreign = Player.objects.create(club=people.other, name="Forestiero")
    missing = Player.objects.order_by("-pk").first().pk + 1000
    nino = people.seated[0]
    director = api(people, "director")
    answers = []
    for pid in (foreign.pk, missing):
        answer = director.post(
            f"/api/v1/leagues/{league.pk}/entries",
            {"name": "NS", "players": [nino.pk, pid]},
            format="json",
        )
        errors = answer.json()["errors"]
        answers.append((answer.status_code, [(e["code"], e["path"]) for e in errors]))
        assert [e["message"] for e in errors] == [f"Player {pid} is not a player of this club."], (
            errors
        )
    assert answers[0] == answers[1]
    assert answers[0][0] == 400
    assert league.entries.count() == 0


@pytest.mark.parametrize("pid", [10**20, 0, -1, "abc", 1.5, True])
def test_an_entry_player_that_is_no_id_is_refused_in_words(people, club, pid):
    league = leagues.league_create(club=club, name="Coppa", user=people.director)
    answer = api(people, "director").post(
        f"/api/v1/leagues/{league.pk}/entries",
        {"name": "NS", "players": [people.seated[0].pk, pid]},
        format="json",
    )
    assert answer.status_code == 400, answer.content[:300]
    assert league.entries.count() == 0
