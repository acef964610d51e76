"""Holes in the rules of the club (issue 15), each through HTTP: a match at another club's
table, confirming one's own deal, linking a player without consent, stakes in public
results, ETag/If-Match and idempotent replays, and history that cannot be deleted."""

import datetime
import json

import pytest
from django.db.models import ProtectedError

from scorebook.clubs.models import Player
from scorebook.matches import services
from scorebook.matches.models import Deal, Match, Night
from tests.api.common import SIDES, SMALL, api


def test_a_match_cannot_be_created_at_another_clubs_table(people, match):
    stranger = people.stranger
    night = services.night_open(
        club_id=people.other.pk, date=datetime.date(2026, 11, 20), venue="Altrove", user=stranger
    )
    players = [
        Player.objects.create(club=people.other, name=n) for n in ("Uno", "Due", "Tre", "Quattro")
    ]
    before = Match.objects.count()
    response = api(people, "stranger").post(
        "/api/v1/matches",
        {
            "night": night.pk,
            "table": match.table_id,  # San Rocco's table 1
            "game": "tressette4",
            "seats": dict(zip("NESW", (p.pk for p in players), strict=True)),
        },
        format="json",
    )
    assert response.status_code == 400, response.content
    assert response.json()["errors"][0]["path"] == "table"
    assert Match.objects.count() == before


def test_the_person_who_entered_a_deal_never_confirms_it(people, match):
    client = api(people, "scorer")
    # The scorer links the seated guest Ettore to his own account ...
    ettore = people.seated[1]
    linked = client.patch(f"/api/v1/players/{ettore.pk}", {"user": people.scorer.pk}, format="json")
    assert linked.status_code == 200
    created = client.post(
        f"/api/v1/matches/{match.pk}/deals", {"deal": SIDES, "number": 1}, format="json"
    )
    # ... but still cannot confirm the deal he entered.
    response = client.post(f"/api/v1/deals/{created.json()['id']}/confirm", {}, format="json")
    assert response.status_code == 403
    assert response.json()["errors"][0]["code"] == "deal.own_entry"
    # Nino, seated North, confirms it.
    other = api(people, "member").post(
        f"/api/v1/deals/{created.json()['id']}/confirm", {}, format="json"
    )
    assert other.status_code == 201


def test_linking_a_player_to_someone_elses_account_needs_their_consent(people):
    salvo = people.seated[2]
    response = api(people, "scorer").patch(
        f"/api/v1/players/{salvo.pk}", {"user": people.director.pk}, format="json"
    )
    assert response.status_code == 403
    assert response.json()["errors"][0]["code"] == "player.link_consent"
    assert Player.objects.get(pk=salvo.pk).user is None
    # A player linked to an account is not re-linked by someone else.
    nino = people.seated[0]  # linked to the member
    taken = api(people, "scorer").patch(
        f"/api/v1/players/{nino.pk}", {"user": people.scorer.pk}, format="json"
    )
    assert taken.status_code == 409
    assert Player.objects.get(pk=nino.pk).user == people.member


def test_public_results_carry_no_stakes(people, match):
    people.club.public = True
    people.club.save()
    for number in range(1, 4):
        services.deal_create(match=match, data=SIDES, expected_number=number, user=people.scorer)
    match.refresh_from_db()
    assert match.result and "units" in match.result  # the private record has them
    body = api(people, "anonymous").get(
        f"/api/v1/public/clubs/{people.club.slug}/matches/{match.pk}"
    )
    assert body.status_code == 200
    assert "units" not in body.json()["result"]
    assert "units" not in str(body.content)


def test_if_match_checks_the_deal_id_and_accepts_a_star(people, match, deal):
    other = services.deal_create(match=match, data=SMALL, expected_number=2, user=people.scorer)
    client = api(people, "director")
    url = f"/api/v1/deals/{deal.pk}/correct"
    body = {"deal": SMALL, "reason": "typo"}
    # The other deal's tag has the same version number, but it is not this deal's.
    wrong = client.post(url, body, format="json", HTTP_IF_MATCH=other.etag)
    assert wrong.status_code == 412
    star = client.post(url, body, format="json", HTTP_IF_MATCH="*")
    assert star.status_code == 201, star.content
    assert star["ETag"] == f'"{star.json()["id"]}-2"'


def test_an_idempotent_replay_carries_the_etag(people, match):
    client = api(people, "scorer")
    url = f"/api/v1/matches/{match.pk}/deals"
    first = client.post(url, {"deal": SIDES, "number": 1}, format="json", HTTP_IDEMPOTENCY_KEY="e1")
    again = client.post(url, {"deal": SIDES, "number": 1}, format="json", HTTP_IDEMPOTENCY_KEY="e1")
    assert again["Idempotent-Replayed"] == "true"
    assert again["ETag"] == first["ETag"]


def test_history_cannot_be_deleted(people, deal):
    match = deal.match
    for doomed in (people.club, match.night, match):
        with pytest.raises(ProtectedError):
            doomed.delete()
    assert Deal.objects.filter(pk=deal.pk).exists()
    assert Night.objects.filter(pk=match.night_id).exists()


def test_the_admin_refuses_to_delete_history(people, deal, client):
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.create_superuser("root", password="pw")
    client.force_login(admin)
    night = deal.match.night
    response = client.post(f"/admin/matches/night/{night.pk}/delete/", {"post": "yes"})
    assert Night.objects.filter(pk=night.pk).exists()
    assert response.status_code in (200, 403)


@pytest.mark.parametrize(
    "url,param",
    [("/api/v1/players", "club"), ("/api/v1/nights", "club"), ("/api/v1/matches", "night")],
)
def test_a_filter_by_another_clubs_id_answers_as_a_missing_id(people, match, url, param):
    """``?club=`` with another club's id must not differ from an id that does not exist
    (an empty list for one and an error for the other would tell what exists)."""
    theirs = (
        people.other.pk
        if param == "club"
        else services.night_open(
            club_id=people.other.pk,
            date=datetime.date(2026, 11, 21),
            venue="",
            user=people.stranger,
        ).pk
    )
    client = api(people, "member")
    other = client.get(url, {param: theirs})
    missing = client.get(url, {param: 999999})
    assert other.status_code == missing.status_code == 400
    assert [e["code"] for e in other.json()["errors"]] == [
        e["code"] for e in missing.json()["errors"]
    ]
    mine = client.get(url, {param: people.club.pk if param == "club" else match.night_id})
    assert mine.status_code == 200 and mine.json()["count"] >= 1


MISSING = 999_999


def _shape(response, hidden_id):
    """An error answer with the id it names blanked: what the caller can learn from it."""
    body = response.json()
    text = json.dumps(body["errors"], sort_keys=True).replace(str(hidden_id), "ID")
    return response.status_code, text


@pytest.mark.parametrize(
    "url,body",
    [
        ("/api/v1/nights", lambda club, night, table: {"club": club, "date": "2026-11-27"}),
        ("/api/v1/players", lambda club, night, table: {"club": club, "name": "Ospite"}),
        ("/api/v1/invitations", lambda club, night, table: {"club": club, "role": "member"}),
        ("/api/v1/seasons", lambda club, night, table: {"club": club, "name": "S",
                                                        "starts_on": "2027-09-01"}),
        ("/api/v1/leagues", lambda club, night, table: {"club": club, "name": "Lega"}),
        ("/api/v1/tables", lambda club, night, table: {"night": night, "number": 5}),
        ("/api/v1/matches", lambda club, night, table: {"night": night, "game": "tressette4"}),
    ],
)  # fmt: skip
def test_a_create_in_another_club_answers_exactly_as_a_missing_id(people, match, url, body):
    """Not only the status: the whole answer (codes, paths, words) is the same, the id
    itself aside, so a create tells nothing about what exists elsewhere."""
    theirs = services.night_open(
        club_id=people.other.pk, date=datetime.date(2026, 11, 21), venue="", user=people.stranger
    )
    table = services.table_create(night=theirs, number=1, name="", user=people.stranger)
    client = api(people, "director")
    other = client.post(url, body(people.other.pk, theirs.pk, table.pk), format="json")
    missing = client.post(url, body(MISSING, MISSING, MISSING), format="json")
    hidden = people.other.pk if "club" in body(1, 2, 3) else theirs.pk
    assert other.status_code == 400, other.content
    assert _shape(other, hidden) == _shape(missing, MISSING)


def test_a_user_id_outside_the_club_answers_as_a_missing_one(people):
    """Linking a player: the id of an account that is in no club of the caller reads as
    one that does not exist."""
    salvo = people.seated[2]
    client = api(people, "director")
    other = client.patch(f"/api/v1/players/{salvo.pk}", {"user": people.stranger.pk}, format="json")
    missing = client.patch(f"/api/v1/players/{salvo.pk}", {"user": MISSING}, format="json")
    assert _shape(other, people.stranger.pk) == _shape(missing, MISSING)
    assert Player.objects.get(pk=salvo.pk).user is None


@pytest.mark.postgres
def test_the_database_itself_refuses_to_delete_history(people, deal):
    """PROTECT is Django's; underneath, PostgreSQL's foreign keys (no ON DELETE CASCADE)
    refuse a bare SQL DELETE of a club, night, match or deal that history points at."""
    from django.db import IntegrityError, connection, transaction

    match = deal.match
    services.deal_confirm(deal=deal, user=people.member)  # Nino, seated North
    for model, pk in (
        (type(people.club), people.club.pk),
        (Night, match.night_id),
        (Match, match.pk),
        (Deal, deal.pk),
    ):
        with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute(f"DELETE FROM {model._meta.db_table} WHERE id = %s", [pk])  # noqa: S608
    assert Deal.objects.filter(pk=deal.pk).exists()
