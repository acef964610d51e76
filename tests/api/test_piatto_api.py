"""Marcio e batuffa over HTTP (issue 16, "Stakes as the code lists them"; Codice del
tressette, ``regolamento.tex``, "Le Poste e il Piatto"): a match made with the switch,
its deals entered, then the entries and the settlement read back."""

import datetime
from decimal import Decimal

from scorebook.matches import services
from tests.api.common import api

A_WINS = {
    "sides": {"A": {"thirds": 20, "tricks": 6}, "B": {"thirds": 12, "tricks": 4}},
    "last_trick": "A",
}
CAPPOTTO_A = {
    "sides": {"A": {"thirds": 32, "tricks": 10}, "B": {"thirds": 0, "tricks": 0}},
    "last_trick": "A",
}


def test_two_matches_feed_the_pot_and_the_cappotto_takes_it(people):
    night = services.night_open(
        club_id=people.club.pk, date=datetime.date(2026, 11, 22), venue="", user=people.director
    )
    table = services.table_create(night=night, number=3, name="", user=people.director)
    scorer = api(people, "scorer")
    seats = dict(zip("NESW", (p.pk for p in people.seated), strict=True))

    def new_match():
        made = scorer.post(
            "/api/v1/matches",
            {
                "night": night.pk,
                "table": table.pk,
                "game": "tressette4",
                "seats": seats,
                "first_dealer": "N",
                "rules": {"t4.stake": "marcio_e_batuffa"},
                "stake_amount": "0.40",
                "stake_currency": "EUR",
            },
            format="json",
        )
        assert made.status_code == 201, made.json()
        return made.json()["id"]

    first = new_match()
    for number in (1, 2, 3):
        sent = scorer.post(
            f"/api/v1/matches/{first}/deals", {"deal": A_WINS, "number": number}, format="json"
        )
        assert sent.status_code == 201, sent.json()
    second = new_match()
    sent = scorer.post(
        f"/api/v1/matches/{second}/deals", {"deal": CAPPOTTO_A, "number": 1}, format="json"
    )
    assert sent.status_code == 201
    assert sent.json()["result"]["event"] == "cappotto"
    state = scorer.get(f"/api/v1/matches/{second}").json()
    assert state["result"]["piatto"] == "won" and state["result"]["units"]["N"] == 3

    member = api(people, "member")
    entries = member.get(f"/api/v1/entries?match={second}&page_size=100").json()["results"]
    pot = [e for e in entries if e["kind"] == "pot"]
    fed = sorted(e["amount"] for e in pot if e["payee_name"] == "pot piatto:3")
    assert fed == ["0.10"] * 4  # a quarter of 0.40 from each player
    shares = {e["payee_name"]: e["amount"] for e in pot if e["payer_name"] == "pot piatto:3"}
    assert shares == {"Nino": "1.00", "Salvo": "1.00"}  # (4 x 0.40 + 4 x 0.10) / 2

    sheet = member.get(f"/api/v1/nights/{night.pk}/settlement").json()
    got = {n["name"]: Decimal(n["net"]) for n in sheet["groups"][0]["nets"]}
    # Nino: +0.40 - 0.40 fed, +1.20 (triple) - 0.10 fed + 1.00 from the pot = 2.10
    assert got == {
        "Nino": Decimal("2.10"),
        "Salvo": Decimal("2.10"),
        "Ettore": Decimal("-2.10"),
        "Walter": Decimal("-2.10"),
    }
    assert sum(got.values()) == 0
