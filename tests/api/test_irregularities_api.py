"""The tournament code's record fields through the match API (issue 16): penalties, an
annulled deal and a forfeit are stored and scored; a wrong one is refused, stores nothing."""

from scorebook.matches.models import Deal
from tests.api.common import api

PLAIN = {
    "sides": {"A": {"thirds": 20, "tricks": 6}, "B": {"thirds": 12, "tricks": 4}},
    "last_trick": "A",
}


def post(client, match, deal, number):
    return client.post(
        f"/api/v1/matches/{match.pk}/deals", {"deal": deal, "number": number}, format="json"
    )


def test_penalty_annul_and_forfeit_through_the_api(people, match):
    client = api(people, "scorer")
    penalised = {**PLAIN, "penalties": [{"against": "B", "reason": "exposed_card", "trick": 3}]}
    assert post(client, match, penalised, 1).status_code == 201
    dealer = client.get(f"/api/v1/matches/{match.pk}/state").json()["match"]["dealer"]
    annulled = {"annulled_for": {"reason": "misdeal", "stage": "dealing", "asked_by": "N"}}
    assert post(client, match, annulled, 2).status_code == 201
    again = client.get(f"/api/v1/matches/{match.pk}/state").json()["match"]["dealer"]
    assert again == dealer  # the same dealer deals again
    assert post(client, match, {"forfeit": {"by": "A", "reason": "conduct"}}, 3).status_code == 201
    state = client.get(f"/api/v1/matches/{match.pk}/state").json()
    assert state["match"]["totals"] == {"A": 7 + 3, "B": 4 + 11}
    assert state["match"]["deals_annulled"] == 1
    results = [d["result"] for d in state["deals"]]
    assert results[0]["breakdown"]["A"][-1] == {
        "kind": "penalty",
        "points": 3,
        "penalty": {"against": "B", "reason": "exposed_card", "trick": 3},
    }
    assert results[1]["annulled"] and results[1]["same_dealer"]
    assert results[1]["facts"]["annulled_for"]["asked_by"] == "N"
    assert results[2]["facts"]["forfeit"] == {"by": "A", "reason": "conduct"}


def test_a_wrong_penalty_is_refused_in_words_and_stores_nothing(people, match):
    client = api(people, "scorer")
    deal = {**PLAIN, "penalties": [{"against": "Z", "reason": "revoke"}]}
    response = client.post(
        f"/api/v1/matches/{match.pk}/deals",
        {"deal": deal, "number": 1},
        format="json",
        HTTP_ACCEPT_LANGUAGE="it",
    )
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["code"] == "penalty.unknown_offender"
    assert error["path"].endswith("penalties[0].against")
    assert "coppia" in error["message"]
    assert Deal.objects.count() == 0
