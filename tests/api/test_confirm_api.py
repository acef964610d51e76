"""Confirming over HTTP (issue 22 step 2): the confirm endpoint takes a seat confirmed by a
tap on the caller's phone, "confirm the remaining deals" per seat, and the club's setting
(directors change it); refusals in the request's language; the OpenAPI schema says so."""

import datetime

import pytest

from scorebook.clubs.models import Membership
from scorebook.matches import services
from scorebook.matches.models import Confirmation
from tests.api.common import SIDES, SMALL, api


def _match(people):
    night = services.night_open(
        club_id=people.club.pk, date=datetime.date(2026, 11, 20), venue="", user=people.director
    )
    return services.match_create(
        night=night,
        game="tressette4",
        rules={"profile": "accuso_41"},
        user=people.director,
        seats=dict(zip("NESW", (p.pk for p in people.seated), strict=True)),
    )


def test_the_table_phone_confirms_a_seat_guests_too(people, deal):
    client = api(people, "scorer")  # the scorer entered the deal on this phone
    response = client.post(
        f"/api/v1/deals/{deal.pk}/confirm", {"seat": "E", "method": "table_phone"}, format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["seat"] == "E" and body["method"] == "table_phone"
    assert body["player"] == people.seated[1].pk and body["user"] is None
    assert body["device_user"] == people.scorer.pk and body["override"] is False
    # The seat alone means the table phone; the same seat again gives the same answer.
    again = client.post(f"/api/v1/deals/{deal.pk}/confirm", {"seat": "E"}, format="json")
    assert again.status_code == 201 and again.json()["id"] == body["id"]
    shown = client.get(f"/api/v1/deals/{deal.pk}").json()["confirmations"]
    assert [(c["seat"], c["method"], c["device_user"]) for c in shown] == [
        ("E", "table_phone", people.scorer.pk)
    ]


def test_the_entering_side_is_refused_in_the_callers_language(people, match):
    Membership.objects.filter(user=people.member).update(role="scorer")
    client = api(people, "member")  # Nino, North, enters ...
    created = client.post(
        f"/api/v1/matches/{match.pk}/deals", {"deal": SIDES, "number": 1}, format="json"
    )
    url = f"/api/v1/deals/{created.json()['id']}/confirm"
    # ... and Salvo, his partner (South), cannot confirm it on his phone.
    refused = client.post(url, {"seat": "S"}, format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert refused.status_code == 403
    (error,) = refused.json()["errors"]
    assert error["code"] == "confirm.enterer_side" and error["path"] == "seat"
    assert "Salvo (S)" in error["message"] and "coppia" in error["message"]
    own = client.post(url, {"seat": "N"}, format="json")
    assert own.status_code == 403 and own.json()["errors"][0]["code"] == "deal.own_entry"
    unknown = client.post(url, {"seat": "X"}, format="json")
    assert unknown.status_code == 400
    assert unknown.json()["errors"][0]["code"] == "confirm.unknown_seat"
    assert not Confirmation.objects.exists()


def test_bad_bodies_are_400s(people, deal):
    client = api(people, "scorer")
    url = f"/api/v1/deals/{deal.pk}/confirm"
    for body in (
        {"method": "table_phone"},  # no seat
        {"method": "pin", "seat": "E"},  # a PIN is typed on the pages
        {"method": "override"},  # no reason
        {"seat": ["E"]},
    ):
        assert client.post(url, body, format="json").status_code == 400, body
    assert not Confirmation.objects.exists()


def test_a_director_sets_what_counts_and_the_setting_holds(people, deal):
    club = f"/api/v1/clubs/{people.club.pk}"
    assert api(people, "scorer").get(club).json()["confirmation_policy"] == "table_phone"
    # A scorer may not change it; a director may (but not the club's name: the owner's).
    assert (
        api(people, "scorer").patch(club, {"confirmation_policy": "pin"}, format="json").status_code
        == 403
    )
    director = api(people, "director")
    assert director.patch(club, {"name": "Altro"}, format="json").status_code == 403
    assert director.patch(club, {"confirmation_policy": "nope"}, format="json").status_code == 400
    changed = director.patch(club, {"confirmation_policy": "own_phone"}, format="json")
    assert changed.status_code == 200 and changed.json()["confirmation_policy"] == "own_phone"
    refused = api(people, "scorer").post(
        f"/api/v1/deals/{deal.pk}/confirm", {"seat": "E"}, format="json"
    )
    assert refused.status_code == 403
    assert refused.json()["errors"][0]["code"] == "confirm.method_not_accepted"
    # Nino's own phone still counts.
    own = api(people, "member").post(f"/api/v1/deals/{deal.pk}/confirm", {}, format="json")
    assert own.status_code == 201 and own.json()["method"] == "own_phone"


def test_confirm_the_remaining_deals(people, match, deal):
    scorer = people.scorer
    services.deal_create(match=match, data=SMALL, expected_number=2, user=scorer, entered_side="A")
    client = api(people, "scorer")
    url = f"/api/v1/matches/{match.pk}/confirm-remaining"
    done = client.post(url, {"seat": "W"}, format="json")
    assert done.status_code == 200, done.content
    assert [(c["seat"], c["method"]) for c in done.json()] == [("W", "table_phone")] * 2
    assert client.post(url, {"seat": "W"}, format="json").json() == []
    assert client.post(url, {}, format="json").status_code == 400
    assert api(people, "stranger").post(url, {"seat": "W"}, format="json").status_code == 404


def test_the_schema_documents_it(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    confirm = schema["components"]["schemas"]["ConfirmRequest"]["properties"]
    assert {"seat", "method", "override_reason"} <= set(confirm)
    assert "/api/v1/matches/{id}/confirm-remaining" in schema["paths"]
    club = schema["components"]["schemas"]["Club"]["properties"]
    assert "confirmation_policy" in club


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_taps_at_the_same_moment_store_one_confirmation_per_seat():
    """Two phones (or a double tap) confirm one seat, and the player's own phone that same
    seat, all at once: one confirmation, every answer a 201 with its id, no 500."""
    import threading

    from django.db import connection

    from tests.personas import make_personas

    people = make_personas()
    match = _match(people)
    # entered for side B (E, W) on the scorer's phone: North and South confirm it
    deal = services.deal_create(
        match=match, data=SIDES, expected_number=1, user=people.scorer, entered_side="B"
    )
    barrier = threading.Barrier(6)
    answers = []

    def tap(who, body):
        barrier.wait()
        try:
            answers.append(
                api(people, who).post(f"/api/v1/deals/{deal.pk}/confirm", body, format="json")
            )
        finally:
            connection.close()

    jobs = [("scorer", {"seat": "N"}), ("owner", {"seat": "N"}), ("member", {})] + [
        ("scorer", {"seat": "S"})
    ] * 3
    threads = [threading.Thread(target=tap, args=job) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(a.status_code for a in answers) == [201] * 6
    rows = Confirmation.objects.filter(deal=deal)
    assert sorted(rows.values_list("seat", flat=True)) == ["N", "S"]
    by_seat = {c.seat: c.pk for c in rows}
    assert {a.json()["id"] for a in answers} == set(by_seat.values())
