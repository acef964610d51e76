"""Undo of an import survives every later act (issue 31 item 2): a guest it added and the
club later erased, entered in a tournament or a league, invited or linked to an account,
a deal of it corrected and confirmed since, a match of it counted for a league fixture.
The undo either completes, keeping what a later act still needs (an erased guest keeps
its pseudonym), or is refused in words naming what blocks it; never a 500 (it was, on
page and API: ``ProtectedError`` on ``Erasure.player``)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from django.test import Client

from scorebook.archive import services as archive
from scorebook.archive.models import Erasure
from scorebook.clubs import services as clubs
from scorebook.clubs.models import Invitation, Player
from scorebook.history import services
from scorebook.history.models import Import
from scorebook.matches import services as record
from scorebook.matches.models import Deal, Match, Night
from scorebook.standings.leagues import services as leagues
from scorebook.standings.models import Fixture, LeagueEntry
from scorebook.tournaments.models import Entry, Single
from scorebook.tournaments.services import registration, setup
from tests.api.common import api

pytestmark = pytest.mark.usefixtures("eager_tasks")

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "import-example.csv"
IMPORTED = {"Lia", "Maria", "Gino", "Rosa"}  # the example's guests (Nino, Salvo are the club's)


@pytest.fixture
def imported(people, django_capture_on_commit_callbacks):
    """The example file imported into San Rocco."""
    batch = services.import_preview(
        club=people.club, user=people.director, filename="example.csv", data=EXAMPLE.read_bytes()
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.import_accept(batch=batch, user=people.director)
    batch.refresh_from_db()
    assert batch.status == Import.Status.DONE, batch.error
    return batch


def guest(people, name):
    return Player.objects.get(club=people.club, name=name)


def undone(batch, people):
    return services.import_undo(batch=Import.objects.get(pk=batch.pk), user=people.director)


def nothing_imported_left(people):
    assert not Night.objects.filter(club=people.club, date__year=2016).exists()
    assert not Match.objects.filter(night__club=people.club).exists()


def test_undo_after_an_imported_guest_is_erased_keeps_the_pseudonym(people, imported):
    rosa = guest(people, "Rosa")
    archive.player_erase(player=rosa, user=people.director, confirm="Rosa")
    batch = undone(imported, people)
    assert batch.status == Import.Status.UNDONE
    nothing_imported_left(people)
    rosa.refresh_from_db()
    assert rosa.name == "Erased player #1" and rosa.erased
    assert Erasure.objects.filter(player=rosa).exists()
    left = set(Player.objects.filter(club=people.club, guest=True).values_list("name", flat=True))
    assert left == {"Erased player #1"}  # the other guests went with the import


def test_undo_after_an_erasure_through_the_api_and_the_page(people, imported):
    archive.player_erase(player=guest(people, "Gino"), user=people.director, confirm="Gino")
    answer = api(people, "director").post(f"/api/v1/imports/{imported.pk}/undo")
    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "undone"
    nothing_imported_left(people)


def test_the_page_undoes_after_an_erasure(people, imported):
    archive.player_erase(player=guest(people, "Lia"), user=people.director, confirm="Lia")
    client = Client()
    client.force_login(people.director)
    answer = client.post(f"/c/{people.club.slug}/import/{imported.pk}/undo")
    assert answer.status_code in (200, 302)
    assert Import.objects.get(pk=imported.pk).status == Import.Status.UNDONE


def test_undo_keeps_a_guest_entered_in_a_tournament_since(people, imported):
    tonight = record.night_open(
        club_id=people.club.pk, date=date(2026, 11, 20), venue="", user=people.director
    )
    cup = setup.tournament_create(
        night=tonight,
        name="Coppa",
        game=Match.objects.filter(players=4).first().game,
        rules={"profile": "classic_21"},
        user=people.director,
    )
    nino = people.seated[0]
    pair = registration.entry_add(
        tournament=cup, players=[nino.pk, guest(people, "Maria").pk], user=people.director
    )
    single = registration.single_add(
        tournament=cup, player=guest(people, "Lia").pk, user=people.director
    )
    undone(imported, people)
    nothing_imported_left(people)
    assert Entry.objects.get(pk=pair.pk).second.name == "Maria"
    assert Single.objects.get(pk=single.pk).player.name == "Lia"
    assert not Player.objects.filter(club=people.club, name__in=["Gino", "Rosa"]).exists()


def test_undo_keeps_a_guest_in_a_league_entry_and_one_invited(people, imported):
    league = leagues.league_create(club=people.club, name="Lega", user=people.director)
    entry = leagues.entry_add(
        league=league,
        name="Gino e Nino",
        player_ids=[guest(people, "Gino").pk, people.seated[0].pk],
        user=people.director,
    )
    invitation = clubs.invitation_create(
        club=people.club, role="member", user=people.director, player=guest(people, "Rosa")
    )
    undone(imported, people)
    # the league's pair keeps both players (the M2M row went silently before)
    assert sorted(LeagueEntry.objects.get(pk=entry.pk).players.values_list("name", flat=True)) == [
        "Gino",
        "Nino",
    ]
    assert Invitation.objects.get(pk=invitation.pk).player.name == "Rosa"


def test_undo_after_a_correction_and_a_confirmation(people, imported):
    deal = Deal.objects.filter(match__night__club=people.club, is_current=True).first()
    record.deal_correct(
        deal=deal,
        data=deal.input,
        reason="Rosa counted again",
        user=people.director,
        expected_version=deal.version,
    )
    batch = undone(imported, people)
    assert batch.status == Import.Status.UNDONE
    nothing_imported_left(people)


def test_undo_is_refused_in_words_while_a_league_fixture_counts_an_imported_match(people, imported):
    pair_game = Match.objects.get(players=2)  # Gino against Rosa, at table 2
    league = leagues.league_create(
        club=people.club,
        name="Singolare",
        kind="players",
        game=pair_game.game,
        user=people.director,
    )
    for name in ("Gino", "Rosa"):
        leagues.entry_add(
            league=league, name=name, player_ids=[guest(people, name).pk], user=people.director
        )
    leagues.league_start(league=league, user=people.director)
    fixture = Fixture.objects.get(league=league)
    leagues.fixture_match_link(fixture=fixture, match=pair_game, user=people.director)
    answer = api(people, "director").post(f"/api/v1/imports/{imported.pk}/undo")
    assert answer.status_code == 409, answer.content
    error = answer.json()["errors"][0]
    assert error["code"] == "import.undo_blocked"
    assert "Singolare" in error["message"] and "round 1" in error["message"]
    assert Import.objects.get(pk=imported.pk).status == Import.Status.DONE
    assert Match.objects.filter(pk=pair_game.pk).exists()  # nothing changed
    # once the match is off the fixture, the undo completes and the league stays
    leagues.fixture_match_unlink(fixture=fixture, match=pair_game, user=people.director)
    undone(imported, people)
    nothing_imported_left(people)
    assert LeagueEntry.objects.filter(league=league).count() == 2
