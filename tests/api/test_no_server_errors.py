"""Inputs that used to answer 500 (issue 15, "Every input gets a 4xx"): each goes through
HTTP and must get a 4xx in the documented error shape, and change nothing."""

import json
import queue
import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from scorebook.clubs.models import Club, Membership, Player
from scorebook.matches.models import Deal, Match
from tests.api.common import api


def assert_shape(response, status):
    assert response.status_code == status, response.content[:500]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["errors"], body
    for entry in body["errors"]:
        assert {"code", "path", "message", "params"} <= set(entry), entry
        assert isinstance(entry["message"], str) and entry["message"]
    return body


def raw_post(client, url, text, **headers):
    return client.generic("POST", url, text, content_type="application/json", **headers)


NUL_BODIES = [
    '{"deal": {"sides\\u0000": 1}, "number": 1}',
    '{"deal": {"sides": {"A": "\\u0000"}}, "number": 1}',
    '{"deal": {"note": "\\ud800"}, "number": 1}',
    '{"deal": {"x": "bell\\u0007"}, "number": 1}',
]


@pytest.mark.parametrize("body", NUL_BODIES)
def test_control_characters_and_lone_surrogates_are_refused_at_the_door(people, match, body):
    client = api(people, "scorer")
    url = f"/api/v1/matches/{match.pk}/deals"
    for _ in range(2):  # a retry with the same key gets the same 400, not a 500
        response = raw_post(client, url, body, HTTP_IDEMPOTENCY_KEY="k-nul-1")
        errors = assert_shape(response, 400)["errors"]
        assert errors[0]["code"] == "input.bad_character"
    assert Deal.objects.count() == 0


def test_control_characters_in_a_correction_and_a_match_create(people, match, deal):
    client = api(people, "director")
    response = raw_post(
        client,
        f"/api/v1/deals/{deal.pk}/correct",
        '{"deal": {"a": "\\u0000"}, "reason": "typo"}',
        HTTP_IF_MATCH=deal.etag,
        HTTP_IDEMPOTENCY_KEY="k-nul-2",
    )
    assert_shape(response, 400)
    before = Match.objects.count()
    response = raw_post(
        client,
        "/api/v1/matches",
        json.dumps({"night": match.night_id, "game": "tressette4", "rules": {"x\u0000": 1}}),
        HTTP_IDEMPOTENCY_KEY="k-nul-3",
    )
    assert_shape(response, 400)
    assert Match.objects.count() == before


@pytest.mark.parametrize("url", ["/api/v1/rules/score", "/api/v1/auth/token"])
def test_deeply_nested_json_is_a_400_for_anyone(db, url):
    body = "[" * 1500 + "]" * 1500
    response = raw_post(APIClient(), url, body)
    assert_shape(response, 400)


def test_a_long_username_at_login_is_refused_in_words(db):
    response = APIClient().post(
        "/api/v1/auth/token", {"username": "u" * 300, "password": "x"}, format="json"
    )
    assert response.status_code in (400, 401)
    assert_shape(response, response.status_code)


def test_options_on_every_route_of_a_transfer_is_not_a_500(people):
    client = api(people, "director")
    response = client.options("/api/v1/transfers/1/paid")
    assert response.status_code < 500


def test_a_membership_post_or_a_nul_in_a_name_is_no_500(people):
    client = api(people, "owner")
    response = client.post(
        "/api/v1/memberships", {"club": people.club.pk, "username": "member"}, format="json"
    )
    assert_shape(response, 405)  # joining is an invitation the person accepts
    response = raw_post(client, "/api/v1/players", '{"club": 1, "name": "a\\u0000b"}')
    assert_shape(response, 400)
    form = client.post("/api/v1/players", {"club": people.club.pk, "name": "a\x00b"})
    assert_shape(form, 400)


def test_renaming_a_player_to_a_name_already_in_the_club(people):
    client = api(people, "director")
    nino, ettore = people.seated[0], people.seated[1]
    response = client.patch(f"/api/v1/players/{ettore.pk}", {"name": nino.name}, format="json")
    body = assert_shape(response, 409)
    assert body["errors"][0]["path"] == "name"
    assert Player.objects.get(pk=ettore.pk).name != nino.name


def _race(n, make):
    barrier = threading.Barrier(n)
    codes = []

    def run():
        barrier.wait()
        try:
            codes.append(make())
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sorted(codes)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_ten_concurrent_duplicate_creates_give_one_201_and_conflicts():
    from tests.personas import make_personas

    people = make_personas()
    director = people.director

    def player():
        client = APIClient()
        client.force_authenticate(director)
        return client.post(
            "/api/v1/players", {"club": people.club.pk, "name": "Gemello"}, format="json"
        ).status_code

    def club():
        client = APIClient()
        client.force_authenticate(director)
        return client.post(
            "/api/v1/clubs", {"name": "Doppio", "slug": "doppio"}, format="json"
        ).status_code

    for make, model, lookup in (
        (player, Player, {"name": "Gemello"}),
        (club, Club, {"slug": "doppio"}),
    ):
        codes = _race(10, make)
        assert codes.count(201) == 1, codes
        assert set(codes) <= {201, 409}, codes
        assert model.objects.filter(**lookup).count() == 1
    assert Membership.objects.filter(club__slug="doppio").count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_one_person_joining_ten_times_at_once_gets_one_membership():
    """Memberships of one user, raced: joining is an invitation accepted (POST
    /memberships is gone), so ten phones accept at the same moment, once through ten
    different links (the unique constraint decides) and once through one link of ten uses
    (its row lock decides): one 201, the rest 409."""
    from scorebook.clubs.services import invitation_create
    from tests.personas import make_personas

    people = make_personas()
    newcomer = people.stranger

    def accept(token):
        def run():
            client = APIClient()
            client.force_authenticate(newcomer)
            return client.post(
                "/api/v1/invitations/accept", {"token": token}, format="json"
            ).status_code

        return run

    links = [
        invitation_create(club=people.club, role="member", user=people.director).token
        for _ in range(10)
    ]
    calls: queue.SimpleQueue[str] = queue.SimpleQueue()
    for token in links:
        calls.put(token)
    codes = _race(10, lambda: accept(calls.get_nowait())())
    assert codes.count(201) == 1 and set(codes) <= {201, 409}, codes
    assert Membership.objects.filter(club=people.club, user=newcomer).count() == 1

    Membership.objects.filter(club=people.club, user=newcomer).delete()
    shared = invitation_create(
        club=people.club, role="member", user=people.director, max_uses=10
    ).token
    codes = _race(10, accept(shared))
    assert codes.count(201) == 1 and set(codes) <= {201, 409}, codes
    assert Membership.objects.filter(club=people.club, user=newcomer).count() == 1


def test_unknown_api_routes_answer_json_404(db):
    response = APIClient().get("/api/v1/no-such-thing")
    assert_shape(response, 404)


@pytest.mark.parametrize("key", [None, "k-big"])
def test_a_body_over_the_size_limit_answers_json_413(people, match, settings, key):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    client = api(people, "scorer")
    body = json.dumps({"deal": {"x": "y" * 5000}, "number": 1})
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    response = raw_post(client, f"/api/v1/matches/{match.pk}/deals", body, **headers)
    assert_shape(response, 413)
    assert Deal.objects.count() == 0


def test_a_database_that_does_not_answer_is_a_503_with_retry_after(people, monkeypatch):
    from django.db import OperationalError

    from api.views import clubs as club_views

    def down(*args, **kwargs):
        raise OperationalError("could not connect to server: Connection refused")

    monkeypatch.setattr(club_views, "clubs_of", down)
    response = api(people, "member").get("/api/v1/clubs")
    body = assert_shape(response, 503)
    assert body["errors"][0]["code"] == "service.unavailable"
    assert int(response["Retry-After"]) > 0


def test_a_database_gone_outside_a_view_is_a_503_too(people, monkeypatch, client):
    """Outside DRF (a middleware, a page) Django's handler500 gives the same answer."""
    from django.db import OperationalError

    from scorebook.core import views

    def down(*args, **kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(views.health, "report", down)
    client.raise_request_exception = False
    response = client.get("/healthz")
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0


def test_validation_errors_carry_every_field_of_the_shape(people):
    response = api(people, "director").post("/api/v1/nights", {}, format="json")
    assert_shape(response, 400)
