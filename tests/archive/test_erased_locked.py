"""An erased player is locked (issue 31): the erasure cannot be undone by hand. Seating,
a tournament's or a league's entry, an import's row naming the pseudonym, a rename, a
reactivation, an invitation that would link an account to the player: each is refused
with ``player.erased``, in words (English and Italian), on the API and on the pages, and
nothing is stored."""

from __future__ import annotations

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from scorebook.archive import services as archive
from scorebook.clubs import services as clubs
from scorebook.clubs.models import Invitation, Membership, Player
from scorebook.history.models import Import, PlannedMatch
from scorebook.matches import services as record
from scorebook.matches.models import Match
from scorebook.standings.models import LeagueEntry
from scorebook.tournaments.models import Entry, Single
from tests.api.common import api
from tests.tournaments.helpers import GAME, RULES, open_night, tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def erased(people):
    """Walter, erased by the director: "Erased player #1"."""
    walter = people.seated[3]
    archive.player_erase(player=walter, user=people.director, confirm="Walter")
    walter.refresh_from_db()
    assert walter.erased and walter.name == "Erased player #1"
    return walter


def codes(answer):
    return [e["code"] for e in answer.json()["errors"]]


def test_a_rename_or_reactivation_is_refused_in_words(people, erased):
    director = api(people, "director")
    for change in ({"name": "Walter"}, {"active": True}, {"guest": True}):
        answer = director.patch(f"/api/v1/players/{erased.pk}", change, format="json")
        assert answer.status_code == 409 and codes(answer) == ["player.erased"], answer.json()
        assert "Erased player #1 was erased" in answer.json()["errors"][0]["message"]
    italian = director.patch(
        f"/api/v1/players/{erased.pk}", {"name": "W"}, format="json", HTTP_ACCEPT_LANGUAGE="it"
    )
    assert "è stato cancellato" in italian.json()["errors"][0]["message"]
    erased.refresh_from_db()
    assert (erased.name, erased.active) == ("Erased player #1", False)
    # the same values again change nothing and are no refusal
    same = director.patch(f"/api/v1/players/{erased.pk}", {"active": False}, format="json")
    assert same.status_code == 200


def test_the_players_page_offers_no_reactivation_and_refuses_it(people, erased):
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(people.director)
    page = client.get(f"/c/{people.club.slug}/players").content.decode()
    assert f'value="{erased.pk}"' not in page  # no "set active" button beside the erased
    assert "cancellato" in page
    forged = client.post(f"/c/{people.club.slug}/players", {"toggle": erased.pk})
    assert forged.status_code == 409
    assert "è stato cancellato" in forged.content.decode()
    erased.refresh_from_db()
    assert not erased.active


def test_seating_is_refused(people, erased):
    night = open_night(people)
    nino, ettore, salvo, _ = people.seated
    answer = api(people, "scorer").post(
        "/api/v1/matches",
        {
            "night": night.pk,
            "game": GAME,
            "rules": RULES,
            "seats": {"N": nino.pk, "E": ettore.pk, "S": salvo.pk, "W": erased.pk},
        },
        format="json",
    )
    assert answer.status_code == 409 and codes(answer) == ["player.erased"], answer.json()
    assert answer.json()["errors"][0]["path"] == "seats"
    assert not Match.objects.exists()


def test_a_tournament_entry_or_single_is_refused(people, erased):
    cup = tournament(people, open_night(people))
    director = api(people, "director")
    nino = people.seated[0]
    base = f"/api/v1/tournaments/{cup.pk}"
    pair = director.post(f"{base}/entries", {"players": [nino.pk, erased.pk]}, format="json")
    assert pair.status_code == 409 and codes(pair) == ["player.erased"], pair.json()
    assert pair.json()["errors"][0]["path"] == "players[1]"
    single = director.post(f"{base}/singles", {"player": erased.pk}, format="json")
    assert codes(single) == ["player.erased"]
    assert not Entry.objects.exists() and not Single.objects.exists()


def test_a_league_entry_is_refused(people, erased):
    director = api(people, "director")
    league = director.post(
        "/api/v1/leagues", {"club": people.club.pk, "name": "Coppa"}, format="json"
    ).json()["id"]
    answer = director.post(
        f"/api/v1/leagues/{league}/entries",
        {"name": "Coppia", "players": [people.seated[0].pk, erased.pk]},
        format="json",
    )
    assert answer.status_code == 409 and codes(answer) == ["player.erased"], answer.json()
    assert not LeagueEntry.objects.exists()


def _sheet(name: str) -> bytes:
    day = datetime.date(2024, 5, 2).isoformat()
    deal = '{""sides"": {""A"": {""thirds"": 20}, ""B"": {""thirds"": 12}}, ""last_trick"": ""A""}'
    return (
        "date,table,match,game,rules,seats,first_dealer,stake,currency,deal\n"
        f'{day},1,1,{GAME},,"N=Nino; E=Ettore; S=Salvo; W={name}",N,,,"{deal}"\n'
    ).encode()


def test_an_import_naming_the_erased_player_is_refused_row_and_column(
    people, erased, eager_tasks, django_capture_on_commit_callbacks
):
    director = api(people, "director")
    with django_capture_on_commit_callbacks(execute=True):  # the check, a task
        answer = director.post(
            "/api/v1/imports",
            {
                "club": people.club.pk,
                "file": SimpleUploadedFile("x.csv", _sheet("erased PLAYER #1")),
            },
            format="multipart",
        )
    assert answer.status_code == 202, answer.json()
    checked = director.get(f"/api/v1/imports/{answer.json()['id']}").json()
    assert checked["status"] == "refused"
    error = checked["problems"][0]
    assert error["code"] == "player.erased" and error["params"]["column"] == "seats"
    assert error["params"]["row"] == 2
    assert not PlannedMatch.objects.exists()
    # the page too, in Italian
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(people.director)
    with django_capture_on_commit_callbacks(execute=True):
        page = client.post(
            f"/c/{people.club.slug}/import",
            {"file": SimpleUploadedFile("x.csv", _sheet("Erased player #1"))},
        )
    assert "è stato cancellato" in client.get(page["Location"]).content.decode()
    assert not PlannedMatch.objects.exists()


def test_an_import_accepted_before_the_erasure_stops_in_words(people, eager_tasks):
    from scorebook.history import services as history

    batch = history.import_preview(
        club=people.club, user=people.director, filename="x.csv", data=_sheet("Walter")
    )
    archive.player_erase(player=people.seated[3], user=people.director, confirm="Walter")
    history.import_accept(batch=batch, user=people.director)
    from scorebook.history import importer

    done = importer.import_run(batch.pk)
    assert done.status == Import.Status.FAILED and "was erased" in done.error
    assert not Match.objects.exists()


def test_an_invitation_cannot_link_an_account_to_the_erased_player(people):
    ettore = people.seated[1]
    pending = clubs.invitation_create(
        club=people.club, role="member", user=people.director, player=ettore
    )
    archive.player_erase(player=ettore, user=people.director, confirm="Ettore")
    ettore.refresh_from_db()
    # the pending invitation was withdrawn by the erasure
    assert Invitation.objects.get(pk=pending.pk).revoked_at is not None
    director = api(people, "director")
    answer = director.post(
        "/api/v1/invitations",
        {"club": people.club.pk, "role": "member", "player": ettore.pk},
        format="json",
    )
    assert answer.status_code == 409 and codes(answer) == ["player.erased"], answer.json()
    # an invitation made before and not withdrawn (say, restored) still cannot link it
    Invitation.objects.filter(pk=pending.pk).update(revoked_at=None)
    newcomer = api(people, "stranger")
    accepted = newcomer.post("/api/v1/invitations/accept", {"token": pending.token}, format="json")
    assert codes(accepted) == ["player.erased"]
    ettore.refresh_from_db()
    assert ettore.user is None
    assert not Membership.objects.filter(club=people.club, user=people.stranger).exists()


def test_the_record_goes_on_without_a_new_seat(people):
    """A match the player sat at before the erasure keeps its deals coming (the numbers
    stay); only a new seat is refused."""
    night = open_night(people)
    n, e, s, w = people.seated
    match = record.match_create(
        night=night,
        game=GAME,
        rules=RULES,
        seats={"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk},
        user=people.scorer,
    )
    archive.player_erase(player=w, user=people.director, confirm="Walter")
    deal = {"sides": {"A": {"thirds": 20, "tricks": 5}, "B": {"thirds": 12, "tricks": 5}}}
    deal["last_trick"] = "A"
    record.deal_create(match=match, data=deal, expected_number=1, user=people.scorer)
    with pytest.raises(clubs.PlayerErased):
        record.match_create(
            night=night,
            game=GAME,
            rules=RULES,
            seats={"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk},
            user=people.scorer,
        )
    assert Player.objects.get(pk=w.pk).erased
