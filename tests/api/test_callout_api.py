"""The tournament code's call-out and declaration anomalies through HTTP (issue 16): the
stateless ``rules/score`` and a match's deals, stored and scored, the wrong calls carried
in the match state; a third wrong call is refused in words and stores nothing."""

import datetime

import pytest

from scorebook.matches import services
from scorebook.matches.models import Deal
from tests.api.common import api

CODE = {
    "t4.claim_by": "opponents",
    "t4.false_claim": "play_on",
    "t4.decl_anomalies": "code",
    "t4.target": 41,
}
PLAYED_OUT = {
    "sides": {"A": {"thirds": 20, "tricks": 6}, "B": {"thirds": 12, "tricks": 4}},
    "last_trick": "A",
}
LATE = {"player": "N", "type": "napoletana", "suit": "c", "when": "late", "contested": True}


@pytest.fixture
def code_match(people):
    night = services.night_open(
        club_id=people.club.pk, date=datetime.date(2026, 11, 21), venue="Bar", user=people.director
    )
    table = services.table_create(night=night, number=1, name="Tavolo 1", user=people.director)
    n, e, s, w = people.seated
    return services.match_create(
        night=night,
        game="tressette4",
        rules=CODE,
        seats={"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk},
        first_dealer="N",
        table=table,
        user=people.scorer,
    )


@pytest.mark.django_db
def test_rules_score_takes_a_call_out_with_cappotto(client):
    body = {
        "game": "tressette4",
        "rules": {"t4.claim_by": "opponents"},
        "before": {"A": 15, "B": 18},
        "sides": {"A": {"thirds": 20, "tricks": 7}, "B": {"thirds": 0, "tricks": 0}},
        "claim": {"side": "A", "by": "B", "after_trick": 7, "cappotto": "made"},
    }
    response = client.post("/api/v1/rules/score", body, content_type="application/json")
    assert response.status_code == 200, response.json()
    result = response.json()["result"]
    assert result["claim"]["by"] == "B" and result["claim"]["holds"] is True
    assert result["event"] == "cappotto" and result["multiplier"] == 2


@pytest.mark.django_db
def test_rules_score_refuses_a_call_out_by_default_in_italian(client):
    body = {
        "game": "tressette4",
        "before": {"A": 15},
        "sides": {"A": {"thirds": 20, "tricks": 6}, "B": {"thirds": 1, "tricks": 1}},
        "claim": {"side": "A", "by": "B", "after_trick": 7},
    }
    response = client.post(
        "/api/v1/rules/score", body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="it"
    )
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["code"] == "t4.callout_off" and "chiamato fuori" in error["message"]


def post(client, match, deal, number):
    return client.post(
        f"/api/v1/matches/{match.pk}/deals", {"deal": deal, "number": number}, format="json"
    )


def test_a_match_stores_wrong_call_outs_and_a_lost_declaration(people, code_match):
    client = api(people, "scorer")
    calls = [{"by": "B", "after_trick": 2}, {"by": "B", "after_trick": 5}]
    first = {**PLAYED_OUT, "declarations": [LATE], "failed_callouts": calls}
    response = post(client, code_match, first, 1)
    assert response.status_code == 201, response.json()
    state = client.get(f"/api/v1/matches/{code_match.pk}/state").json()
    assert state["match"]["totals"] == {"A": 7, "B": 4}  # the contested late napoletana: 0
    assert state["match"]["extra"]["failed_callouts"] == {"B": 2}
    line = state["deals"][0]["result"]["breakdown"]["A"][-1]
    assert line["kind"] == "declaration" and line["lost"] is True and line["points"] == 0
    # Two wrong calls in that deal; in the next deal B may call again (the code: per deal).
    assert (
        post(client, code_match, {**PLAYED_OUT, "failed_callouts": calls[:1]}, 2).status_code == 201
    )
    third = {**PLAYED_OUT, "failed_callouts": [*calls, {"by": "B", "after_trick": 7}]}
    response = post(client, code_match, third, 3)
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["code"] == "t4.callout_no_third"
    assert error["path"].endswith("failed_callouts[2].by")
    assert Deal.objects.filter(match=code_match).count() == 2
