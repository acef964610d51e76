"""The match record over HTTP: permissions by role, idempotent retries, conflicts, ETags,
rejections that change nothing, and list endpoints with constant query counts."""

import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from scorebook.matches import services
from scorebook.matches.models import Deal, Match
from tests.api.common import PERSONAS, SIDES, SMALL, api

READS = [
    "/api/v1/clubs",
    "/api/v1/memberships",
    "/api/v1/players",
    "/api/v1/nights",
    "/api/v1/tables",
    "/api/v1/matches",
]


@pytest.mark.parametrize("who", PERSONAS)
@pytest.mark.parametrize("url", READS)
def test_lists_show_only_the_callers_clubs(people, match, url, who):
    response = api(people, who).get(url)
    if who == "anonymous":
        assert response.status_code in (401, 403)
        return
    assert response.status_code == 200
    count = response.json()["count"]
    if who == "stranger":
        assert count == (1 if url.endswith(("clubs", "memberships")) else 0)
    else:
        assert count >= 1


EXPECTED_WRITE = {
    # persona: (create deal, correct deal, night close, match state read)
    "anonymous": (401, 401, 401, 401),
    "stranger": (404, 404, 404, 404),
    "member": (403, 403, 403, 200),
    "scorer": (201, 201, 403, 200),
    "director": (201, 201, 200, 200),
    "owner": (201, 201, 200, 200),
}


@pytest.mark.parametrize("who", PERSONAS)
def test_permission_matrix(people, match, deal, who):
    client = api(people, who)
    expected = EXPECTED_WRITE[who]
    created = client.post(
        f"/api/v1/matches/{match.pk}/deals", {"deal": SIDES, "number": 2}, format="json"
    )
    corrected = client.post(
        f"/api/v1/deals/{deal.pk}/correct",
        {"deal": SMALL, "reason": "typo"},
        format="json",
        HTTP_IF_MATCH=deal.etag,
    )
    state = client.get(f"/api/v1/matches/{match.pk}/state")
    closed = client.post(
        f"/api/v1/nights/{match.night.pk}/close", {"end_open": [match.pk]}, format="json"
    )
    got = (created.status_code, corrected.status_code, closed.status_code, state.status_code)
    if who == "anonymous":
        assert all(code in (401, 403) for code in got)
    else:
        assert got == expected


def test_deal_entry_then_state(people, match):
    client = api(people, "scorer")
    response = client.post(
        f"/api/v1/matches/{match.pk}/deals", {"deal": SIDES, "number": 1}, format="json"
    )
    assert response.status_code == 201
    assert response["ETag"] == f'"{response.json()["id"]}-1"'
    state = client.get(f"/api/v1/matches/{match.pk}/state").json()
    assert state["match"]["totals"] == {"A": 7, "B": 4}
    assert state["deals"][0]["result"]["points"] == {"A": 7, "B": 4}


def test_rejected_deal_returns_every_error_in_the_requests_language_and_stores_nothing(
    people, match
):
    bad = {
        "sides": {"A": {"thirds": 20, "tricks": 5}, "B": {"thirds": 11, "tricks": 4}},
        "last_trick": "X",
    }
    response = api(people, "scorer").post(
        f"/api/v1/matches/{match.pk}/deals", {"deal": bad}, format="json", HTTP_ACCEPT_LANGUAGE="it"
    )
    assert response.status_code == 400
    codes = {e["code"] for e in response.json()["errors"]}
    assert {"capture.tricks_total", "last_trick.unknown"} <= codes
    assert all(isinstance(e["message"], str) for e in response.json()["errors"])
    assert Deal.objects.count() == 0


def test_retry_with_the_same_key_replays_and_stores_once(people, match):
    client = api(people, "scorer")
    url = f"/api/v1/matches/{match.pk}/deals"
    first = client.post(url, {"deal": SIDES, "number": 1}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    again = client.post(url, {"deal": SIDES, "number": 1}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert Deal.objects.count() == 1
    other = client.post(url, {"deal": SMALL, "number": 1}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert other.status_code == 422


def test_second_phone_gets_409_with_the_stored_deal(people, match):
    url = f"/api/v1/matches/{match.pk}/deals"
    api(people, "scorer").post(url, {"deal": SIDES, "number": 1}, format="json")
    response = api(people, "director").post(url, {"deal": SMALL, "number": 1}, format="json")
    assert response.status_code == 409
    assert response.json()["stored"]["entered_by"] == "scorer"


def test_correction_needs_if_match_and_refuses_a_stale_one(people, deal):
    client = api(people, "scorer")
    url = f"/api/v1/deals/{deal.pk}/correct"
    assert client.post(url, {"deal": SMALL, "reason": "x"}, format="json").status_code == 428
    ok = client.post(url, {"deal": SMALL, "reason": "x"}, format="json", HTTP_IF_MATCH=deal.etag)
    assert ok.status_code == 201 and ok.json()["version"] == 2
    stale = client.post(url, {"deal": SIDES, "reason": "y"}, format="json", HTTP_IF_MATCH=deal.etag)
    assert stale.status_code == 412
    assert stale.json()["current"]["version"] == 2
    history = client.get(f"/api/v1/deals/{deal.pk}/history").json()
    assert [v["version"] for v in history] == [1, 2]
    assert history[0]["input"] == SIDES


def test_seated_player_confirms(people, deal):
    response = api(people, "member").post(f"/api/v1/deals/{deal.pk}/confirm", {}, format="json")
    assert response.status_code == 201
    assert response.json()["seat"] == "N"
    assert (
        api(people, "scorer")
        .post(f"/api/v1/deals/{deal.pk}/confirm", {}, format="json")
        .status_code
        == 403
    )


def test_create_club_makes_the_caller_owner(people):
    client = api(people, "stranger")
    response = client.post("/api/v1/clubs", {"name": "Nuovo", "slug": "nuovo"}, format="json")
    assert response.status_code == 201
    assert client.get("/api/v1/clubs").json()["count"] == 2


def test_match_create_checks_game_and_rules(people, match):
    client = api(people, "scorer")
    n, e, s, w = people.seated
    body = {
        "night": match.night.pk,
        "game": "tressette4",
        "rules": {"t4.target": 0},
        "seats": {"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk},
    }
    response = client.post("/api/v1/matches", body, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "rules.bad_value"
    body["rules"] = {"profile": "accuso_41"}
    created = client.post("/api/v1/matches", body, format="json")
    assert created.status_code == 201
    assert created.json()["rules"]["values"]["t4.target"] == 41


@pytest.mark.parametrize("url", READS + ["/api/v1/matches/{match}/deals"])
def test_list_query_count_stays_constant(people, match, url, django_assert_max_num_queries):
    """One row, then several: the number of queries must not grow with the rows."""
    client = api(people, "director")
    target = url.format(match=match.pk)
    scorer = people.scorer
    services.deal_create(match=match, data=SIDES, expected_number=1, user=scorer)
    with django_assert_max_num_queries(12) as few:
        assert client.get(target).status_code == 200
    for number in (2, 3):
        services.deal_create(match=match, data=SMALL, expected_number=number, user=scorer)
    n, e, s, w = people.seated
    for i in range(4):
        services.table_create(night=match.night, number=10 + i, name="", user=people.director)
        services.match_create(
            night=match.night,
            game="tressette4",
            rules=None,
            seats={"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk},
            user=scorer,
        )
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert client.get(target).status_code == 200


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_posts_with_one_key_store_one_deal(people, match):
    url = f"/api/v1/matches/{match.pk}/deals"
    codes = []

    def post():
        client = APIClient()
        client.force_authenticate(people.scorer)
        codes.append(
            client.post(
                url, {"deal": SIDES, "number": 1}, format="json", HTTP_IDEMPOTENCY_KEY="same"
            ).status_code
        )
        connection.close()

    threads = [threading.Thread(target=post) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert Deal.objects.filter(match=match).count() == 1
    assert codes.count(201) >= 1 and set(codes) <= {201, 409}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_deals_with_different_keys_one_wins(people, match):
    url = f"/api/v1/matches/{match.pk}/deals"
    codes = []

    def post(i):
        client = APIClient()
        client.force_authenticate(people.scorer)
        codes.append(
            client.post(
                url, {"deal": SIDES, "number": 1}, format="json", HTTP_IDEMPOTENCY_KEY=f"k{i}"
            ).status_code
        )
        connection.close()

    threads = [threading.Thread(target=post, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [201, 409, 409, 409, 409, 409]
    assert Match.objects.get(pk=match.pk).version == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_conflicting_corrections_exactly_one_wins(people, match):
    deal = services.deal_create(match=match, data=SIDES, expected_number=1, user=people.scorer)
    codes = []

    def correct(i):
        client = APIClient()
        client.force_authenticate(people.scorer)
        body = {"deal": SMALL if i % 2 else SIDES, "reason": f"r{i}"}
        codes.append(
            client.post(
                f"/api/v1/deals/{deal.pk}/correct", body, format="json", HTTP_IF_MATCH=deal.etag
            ).status_code
        )
        connection.close()

    threads = [threading.Thread(target=correct, args=(i,)) for i in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [201, 412, 412, 412, 412]
    assert Deal.objects.filter(match=match, number=1).count() == 2


def test_the_written_out_deal_representation_matches_the_generic_one(people, deal):
    from rest_framework import serializers

    from api.serializers.matches import DealSerializer

    services.deal_confirm(deal=deal, user=people.member)
    corrected = services.deal_correct(
        deal=deal, data=SMALL, reason="typo", user=people.scorer, expected_version=1
    )
    services.deal_confirm(deal=corrected, user=people.director, override_reason="ok")
    Deal.objects.filter(pk=corrected.pk).update(client_id="2f1e0f5e-3c4b-4d7a-9d38-1c1c5b6f0a11")
    for one in Deal.objects.all():
        serializer = DealSerializer(one)
        generic = serializers.ModelSerializer.to_representation(serializer, one)
        assert serializer.data == generic


#: Each player holds one suit; W (eldest when N deals) wins every trick with his cups.
SUIT_HANDS = {
    seat: [f"{r}{suit}" for r in ("3", "2", "A", "R", "C", "F", "7", "6", "5", "4")]
    for seat, suit in (("N", "d"), ("W", "c"), ("S", "s"), ("E", "b"))
}
RANKS = ("3", "2", "A", "R", "C", "F", "7", "6", "5", "4")
RECORD = {
    "hands": SUIT_HANDS,
    "tricks": [
        [f"{RANKS[k]}c", f"{RANKS[9 - k]}s", f"{RANKS[9 - k]}b", f"{RANKS[9 - k]}d"]
        for k in range(10)
    ],
}


def test_a_deal_entered_card_by_card_is_replayed_stored_and_ends_the_match(people, match):
    client = api(people, "scorer")
    response = client.post(
        f"/api/v1/matches/{match.pk}/deals", {"deal": RECORD, "number": 1}, format="json"
    )
    assert response.status_code == 201, response.json()
    stored = Deal.objects.get()
    assert stored.level == "play" and stored.input["tricks"] == RECORD["tricks"]
    state = client.get(f"/api/v1/matches/{match.pk}/state").json()
    result = state["deals"][0]["result"]
    assert result["event"] == "cappottone" and result["points"] == {"A": 0, "B": 11}
    assert result["facts"]["play"]["tricks"][0]["winner"] == "W"
    assert state["match"]["finished"] is True


def test_a_revoke_in_a_play_record_is_refused_and_stores_nothing(people, match):
    hands = {seat: list(cards) for seat, cards in SUIT_HANDS.items()}
    hands["N"][0], hands["W"][0] = "3c", "3d"  # N now holds a cup
    record = {"hands": hands, "tricks": [["2c", "4s", "4b", "4d"]]}
    response = api(people, "scorer").post(
        f"/api/v1/matches/{match.pk}/deals", {"deal": record, "number": 1}, format="json"
    )
    assert response.status_code == 400
    errors = response.json()["errors"]
    revoke = next(e for e in errors if e["code"] == "play.revoke")
    assert revoke["path"].endswith("tricks[0][3]") and "N" in revoke["message"]
    assert Deal.objects.count() == 0


# -- a match closed by its final score (issue 31 item 8) ---------------------------------


def test_a_final_score_asks_the_winner_where_the_totals_cannot_tell(people):
    """Under ``first_in_trick_order`` A 21 B 21 ended a match (both reached 21 in its last
    deal, one first): refused in words that ask who won, then closed with the winner."""
    client = api(people, "director")
    night = client.post(
        "/api/v1/nights", {"club": people.club.pk, "date": "2026-11-20"}, format="json"
    ).json()
    seats = dict(zip("NESW", (p.pk for p in people.seated), strict=True))
    rules = {"t4.reaching_target": "first_in_trick_order"}
    body = {"night": night["id"], "game": "tressette4", "rules": rules, "seats": seats}
    match = client.post("/api/v1/matches", body, format="json").json()
    url = f"/api/v1/matches/{match['id']}/final-score"
    asked = client.post(url, {"totals": {"A": 21, "B": 21}}, format="json")
    assert asked.status_code == 400, asked.content
    (error,) = asked.json()["errors"]
    assert (error["code"], error["path"]) == ("final.winner_needed", "winner")
    wrong = client.post(url, {"totals": {"A": 21, "B": 21}, "winner": "N"}, format="json")
    assert wrong.json()["errors"][0]["code"] == "final.bad_winner"
    assert client.get(f"/api/v1/matches/{match['id']}").json()["status"] == "open"
    done = client.post(url, {"totals": {"A": 21, "B": 21}, "winner": "B"}, format="json")
    assert done.status_code == 200, done.content
    result = done.json()["result"]
    assert (done.json()["status"], result["winners"], result["final_winner"]) == (
        "finished",
        ["E", "W"],
        "B",
    )
    again = client.post(url, {"totals": {"A": 21, "B": 21}, "winner": "B"}, format="json")
    assert again.json()["errors"][0]["code"] == "match.finished"
