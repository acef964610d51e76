"""Values the services store are checked by the services: a league's series of 0 games,
a stake's currency ("eur" beside "EUR", "XXX"), 100,000-character reasons were stored.
Each is now a clear refusal that stores nothing, through the API and the services alike.
"""

from __future__ import annotations

import pytest

from scorebook.core.models import AuditEvent
from scorebook.core.refusals import Refusal
from scorebook.matches import services as matches
from scorebook.matches.models import Deal, Match
from scorebook.standings.leagues import services as leagues
from scorebook.standings.models import League
from tests.api.common import SIDES, SMALL, api

LONG = "perché" * 17_500  # 105,000 characters


def _codes(answer) -> list[str]:
    return [e["code"] for e in answer.json()["errors"]]


@pytest.mark.parametrize("series", ["matches", "best_of", "games"])
def test_a_series_of_no_games_is_refused(people, club, series):
    director = api(people, "director")
    body = {"club": club.pk, "name": "Coppa", "series": series, "series_games": 0}
    answer = director.post("/api/v1/leagues", body, format="json")
    assert answer.status_code == 400, answer.content
    assert _codes(answer) == ["league.bad_series"]
    assert not League.objects.exists()
    league = leagues.league_create(club=club, name="Coppa", user=people.director, series=series)
    changed = director.patch(f"/api/v1/leagues/{league.pk}", {"series_games": 0}, format="json")
    assert changed.status_code == 400, changed.content
    league.refresh_from_db()
    assert league.series_games == 1


@pytest.mark.parametrize("currency", ["eur", "XXX", "EU", "€", "E U"])
def test_a_stake_in_no_currency_is_refused(people, night, currency):
    n, e, s, w = people.seated
    seats = {"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk}
    body = {
        "night": night.pk, "game": "tressette4", "seats": seats, "stake_amount": "0.50",
        "stake_currency": currency,
    }  # fmt: skip
    answer = api(people, "scorer").post("/api/v1/matches", body, format="json")
    assert answer.status_code == 400, answer.content
    assert _codes(answer) == ["match.currency"]
    assert answer.json()["errors"][0]["path"] == "stake_currency"
    assert "EUR" in answer.json()["errors"][0]["message"]
    italian = api(people, "scorer").post(
        "/api/v1/matches", body, format="json", HTTP_ACCEPT_LANGUAGE="it"
    )
    assert italian.json()["errors"][0]["message"] == (
        "La valuta della posta è una tra EUR, CHF, o nessuna (punti)."
    )
    assert not Match.objects.exists()
    for fine in ("EUR", ""):
        created = api(people, "scorer").post(
            "/api/v1/matches", {**body, "stake_currency": fine}, format="json"
        )
        assert created.status_code == 201, created.content


@pytest.mark.parametrize("currency", ["XXX", "ZZZ"])
def test_a_tournament_fee_in_no_currency_is_refused(people, night, currency):
    """The tournaments (landed after the stakes' fix) took any three capital letters, or
    three accented ones, for the entry fee's currency: 'XXX' was booked in the ledger
    beside the night's EUR. The same currencies as a stake now, through the API and the
    service; nothing stored."""
    from scorebook.tournaments.models import Tournament

    body = {
        "night": night.pk, "name": "Torneo", "game": "tressette4",
        "rules": {"profile": "classic_21"}, "entry_fee": "5.00", "currency": currency,
    }  # fmt: skip
    answer = api(people, "director").post("/api/v1/tournaments", body, format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["errors"][0]["path"] == "currency"
    assert "EUR" in answer.json()["errors"][0]["message"]
    assert not Tournament.objects.exists()
    for fine in ("EUR", "CHF"):
        created = api(people, "director").post(
            "/api/v1/tournaments", {**body, "currency": fine, "name": fine}, format="json"
        )
        assert created.status_code == 201, created.content


@pytest.mark.parametrize("currency", ["XXX", "ÀÈÌ"])
def test_the_tournament_service_refuses_a_fee_in_no_currency(people, night, currency):
    from scorebook.tournaments.refusals import TournamentSettings
    from scorebook.tournaments.services.setup import tournament_create

    with pytest.raises(TournamentSettings) as refused:
        tournament_create(
            night=night, name="Torneo", game="tressette4", rules={"profile": "classic_21"},
            user=people.director, entry_fee="5", currency=currency,
        )  # fmt: skip
    assert refused.value.path == "currency"
    assert not night.tournaments.exists()


@pytest.fixture
def played(people, night):
    n, e, s, w = people.seated
    match = matches.match_create(
        night=night,
        game="tressette4",
        rules={"profile": "classic_21"},
        seats={"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk},
        user=people.director,
    )
    return matches.deal_create(match=match, data=SIDES, expected_number=1, user=people.scorer)


def test_a_correction_with_a_100000_character_reason_is_refused(people, played):
    with pytest.raises(Refusal) as refused:
        matches.deal_correct(
            deal=played, data=SMALL, reason=LONG, user=people.director, expected_version=1
        )
    assert refused.value.code == "reason.too_long"
    assert refused.value.path == "reason"
    assert Deal.objects.count() == 1
    with pytest.raises(Refusal) as overridden:
        matches.deal_confirm(deal=played, user=people.director, override_reason=LONG)
    assert overridden.value.code == "reason.too_long"
    assert not played.confirmations.exists()


def test_a_withdrawal_with_a_100000_character_reason_is_refused(people, club):
    from tests.standings.league_helpers import players

    director = people.director
    league = leagues.league_create(club=club, name="Coppa", user=director)
    a, b, c, d = players(club, "A1", "A2", "B1", "B2")
    entry = leagues.entry_add(league=league, name="A", player_ids=[a.pk, b.pk], user=director)
    leagues.entry_add(league=league, name="B", player_ids=[c.pk, d.pk], user=director)
    leagues.league_start(league=league, user=director)
    answer = api(people, "director").post(
        f"/api/v1/league-entries/{entry.pk}/withdraw", {"reason": LONG}, format="json"
    )
    assert answer.status_code == 400, answer.content[:300]
    assert _codes(answer) == ["reason.too_long"]
    entry.refresh_from_db()
    assert entry.withdrawn_at is None
    assert not AuditEvent.objects.filter(verb="league_entry_withdrawn").exists()


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "A reason is at most 2000 characters; this one has 105000."),
        ("it", "Un motivo è lungo al massimo 2000 caratteri; questo ne ha 105000."),
    ],
)
def test_the_correction_page_says_the_reason_is_too_long(people, played, language, said):
    import uuid

    from tests.web.test_deal_pages import TV01, as_

    client = as_(people, "director")
    data = {**TV01, "sides.A.thirds": "20", "sides.A.tricks": "5", "last_trick": "A",
            "expected_version": "1", "idempotency_key": str(uuid.uuid4())}  # fmt: skip
    data["reason"] = LONG
    answer = client.post(f"/d/{played.pk}/correct", data, HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 400
    assert said in answer.content.decode()
    assert Deal.objects.count() == 1
