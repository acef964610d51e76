"""Every refusal a service (or the API) gives, through HTTP, in English and in Italian:
its status, stable code, the words a player reads, and what it carries besides. And the
other side: a broken invariant is a 500 with a request id in the answer and in the log."""

import datetime
import logging

import pytest

from scorebook.clubs.models import Membership
from scorebook.ledger import transfers
from scorebook.ledger.models import Transfer
from scorebook.matches import services
from scorebook.matches.models import Deal
from tests.api.common import SIDES, SMALL, api
from tests.builders import B_WINS


def seats(*players):
    return dict(zip("NESW", [p.pk for p in players], strict=True))


def member_enters_a_deal(people, match, deal):
    return "member", "post", f"/api/v1/matches/{match.pk}/deals", {"deal": SMALL}, {}


def owner_steps_down(people, match, deal):
    mine = Membership.objects.get(club=people.club, user=people.owner)
    return "owner", "patch", f"/api/v1/memberships/{mine.pk}", {"role": "member"}, {}


def link_someone_else(people, match, deal):
    body = {"club": people.club.pk, "name": "Spia", "user": people.director.pk}
    return "scorer", "post", "/api/v1/players", body, {}


def match_on_a_closed_night(people, match, deal):
    night = services.night_open(
        club_id=people.club.pk, date=datetime.date(2026, 11, 6), venue="", user=people.director
    )
    services.night_close(night=night, user=people.director)
    body = {"night": night.pk, "game": "tressette4", "seats": seats(*people.seated)}
    return "scorer", "post", "/api/v1/matches", body, {}


def deal_one_again(people, match, deal):
    return "scorer", "post", f"/api/v1/matches/{match.pk}/deals", {"deal": SMALL, "number": 1}, {}


def a_stale_correction(people, match, deal):
    services.deal_correct(
        deal=deal, data=SMALL, reason="typo", user=people.director, expected_version=1
    )
    url = f"/api/v1/deals/{deal.pk}/correct"
    return "director", "post", url, {"deal": SIDES, "reason": "x"}, {"HTTP_IF_MATCH": deal.etag}


def a_correction_without_if_match(people, match, deal):
    return "director", "post", f"/api/v1/deals/{deal.pk}/correct", {"deal": SMALL}, {}


def a_deal_the_rules_refuse(people, match, deal):
    bad = {"sides": {"A": {"thirds": 20, "tricks": 5}, "B": {"thirds": 12, "tricks": 4}}}
    return "scorer", "post", f"/api/v1/matches/{match.pk}/deals", {"deal": bad}, {}


def an_outsider_enters_a_deal(people, match, deal):
    return "stranger", "post", f"/api/v1/matches/{match.pk}/deals", {"deal": SMALL}, {}


def seats_named_wrong(people, match, deal):
    body = {
        "night": match.night_id,
        "game": "tressette4",
        "seats": seats(*people.seated),
    }
    body["seats"]["X"] = body["seats"].pop("W")
    return "scorer", "post", "/api/v1/matches", body, {}


def one_player_twice(people, match, deal):
    n, e, s, _ = people.seated
    body = {"night": match.night_id, "game": "tressette4", "seats": seats(n, e, s, n)}
    return "scorer", "post", "/api/v1/matches", body, {}


def paying_an_old_settlement(people, match, deal):
    director = people.director
    match.stake_amount, match.stake_currency, match.stake_unit = 1, "EUR", "money"
    # Only the stake: this instance predates the fixture's deal, and its state with it.
    match.save(update_fields=["stake_amount", "stake_currency", "stake_unit"])
    # 7-0, 7-7, 7-14, 14-14, then A reaches 21 on deal 5; corrected after the close, B
    # does (a correction that still ends the match: the night settles again)
    for data in (B_WINS, B_WINS, SIDES, SIDES):
        services.deal_create(match=match, data=data, expected_number=None, user=director)
    services.night_close(night=match.night, user=director)
    old = Transfer.objects.get(settlement__version=1, payer__player=people.seated[1])
    current = Deal.objects.get(match=match, number=5, is_current=True)
    services.deal_correct(
        deal=current, data=B_WINS, reason="sheet", user=director, expected_version=1
    )
    return "director", "post", f"/api/v1/transfers/{old.pk}/paid", None, {}


def a_correction_that_unfinishes_a_match_of_a_closed_night(people, match, deal):
    for _ in range(2):
        services.deal_create(match=match, data=SIDES, expected_number=None, user=people.scorer)
    services.night_close(night=match.night, user=people.director)
    third = Deal.objects.get(match=match, number=3, is_current=True)
    url = f"/api/v1/deals/{third.pk}/correct"
    return "director", "post", url, {"deal": SMALL, "reason": "x"}, {"HTTP_IF_MATCH": third.etag}


# setup -> (status, code, English message, Italian message)
REFUSALS = {
    member_enters_a_deal: (
        403,
        "role.required",
        "This needs the scorer role in this club.",
        "Serve il ruolo di segnapunti in questo circolo.",
    ),
    owner_steps_down: (
        409,
        "club.last_owner",
        "A club must keep at least one owner.",
        "Un circolo deve avere almeno un titolare.",
    ),
    link_someone_else: (
        403,
        "player.link_consent",
        "A player is linked to someone else's account only when they accept an invitation "
        "for this player: send them one.",
        "Un giocatore viene collegato all'account di un'altra persona solo quando questa "
        "accetta un invito per quel giocatore: mandagliene uno.",
    ),
    match_on_a_closed_night: (409, "night.closed", "The night is closed.", "La serata è chiusa."),
    deal_one_again: (
        409,
        "deal.conflict",
        "Deal 1 is already entered or is not the next deal.",
        "La smazzata 1 è già stata inserita o non è la prossima.",
    ),
    a_stale_correction: (
        412,
        "deal.stale_version",
        "Someone changed this deal meanwhile: check the current version.",
        "Qualcuno ha modificato questa smazzata nel frattempo: controlla la versione attuale.",
    ),
    a_correction_without_if_match: (
        428,
        "deal.if_match_required",
        "Say which version you are correcting: send If-Match with the deal's ETag.",
        "Indica quale versione stai correggendo: invia If-Match con l'ETag della smazzata.",
    ),
    an_outsider_enters_a_deal: (
        404,
        "match.not_found",
        "There is no such match.",
        "Questa partita non esiste.",
    ),
    seats_named_wrong: (
        400,
        "match.seats",
        "The seats must be exactly N, W, S, E.",
        "I posti devono essere esattamente N, W, S, E.",
    ),
    one_player_twice: (
        400,
        "match.seat_players",
        "Each seat needs a different player of this club.",
        "Ogni posto richiede un giocatore diverso di questo circolo.",
    ),
    a_correction_that_unfinishes_a_match_of_a_closed_night: (
        409,
        "night.correction_leaves_open",
        "The night is closed: this correction would leave the match unfinished, and no deal "
        "can be added to end it. Correct the deals so that they still end the match.",
        "La serata è chiusa: questa correzione lascerebbe la partita non finita, e non si può "
        "più aggiungere una smazzata per finirla. Correggi le smazzate in modo che la "
        "concludano ancora.",
    ),
    paying_an_old_settlement: (
        409,
        "settlement.superseded",
        "The settlement changed since: mark the transfers of the current one.",
        "Il conto è cambiato nel frattempo: segna i pagamenti di quello attuale.",
    ),
}


@pytest.mark.parametrize("language", ["en", "it"])
@pytest.mark.parametrize("setup", REFUSALS, ids=lambda setup: setup.__name__)
def test_each_refusal_in_both_languages(people, match, deal, setup, language):
    status, code, english, italian = REFUSALS[setup]
    who, method, url, body, headers = setup(people, match, deal)
    deals_before = Deal.objects.count()
    response = getattr(api(people, who), method)(
        url, body, format="json", HTTP_ACCEPT_LANGUAGE=language, **headers
    )
    assert response.status_code == status, response.content
    (error,) = response.json()["errors"]
    assert error["code"] == code
    assert error["message"] == (italian if language == "it" else english)
    assert Deal.objects.count() == deals_before


def test_a_conflict_carries_the_stored_deal_and_a_stale_edit_the_current_one(people, match, deal):
    conflict = api(people, "scorer").post(
        f"/api/v1/matches/{match.pk}/deals", {"deal": SMALL, "number": 1}, format="json"
    )
    assert conflict.json()["stored"]["id"] == deal.pk
    assert conflict.json()["errors"][0]["params"] == {"number": 1}
    director = people.director
    new = services.deal_correct(
        deal=deal, data=SMALL, reason="typo", user=director, expected_version=1
    )
    stale = api(people, "director").post(
        f"/api/v1/deals/{deal.pk}/correct",
        {"deal": SIDES, "reason": "again"},
        format="json",
        HTTP_IF_MATCH=deal.etag,
    )
    assert stale.status_code == 412
    assert stale.json()["current"]["id"] == new.pk and stale["ETag"] == new.etag


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_rules_refusal_lists_the_engines_problems_in_the_request_language(
    people, match, deal, language
):
    who, method, url, body, headers = a_deal_the_rules_refuse(people, match, deal)
    response = api(people, who).post(url, body, format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    errors = response.json()["errors"]
    by_code = {e["code"]: e for e in errors}
    assert "capture.tricks_total" in by_code
    assert by_code["capture.tricks_total"]["path"]
    other = "en" if language == "it" else "it"
    again = api(people, who).post(url, body, format="json", HTTP_ACCEPT_LANGUAGE=other)
    assert {e["code"] for e in again.json()["errors"]} == set(by_code)
    assert again.json()["errors"][0]["message"] != errors[0]["message"]


def test_a_broken_invariant_is_a_logged_500_with_the_request_id(people, match, monkeypatch, caplog):
    """A booking bug (stakes that do not sum to zero) must never reach the phone as an
    input error: 500, nothing stored, and a log line that names the request."""
    match.stake_amount, match.stake_currency, match.stake_unit = 1, "EUR", "money"
    match.save()
    scorer = api(people, "scorer")
    url = f"/api/v1/matches/{match.pk}/deals"
    for _ in range(2):
        assert scorer.post(url, {"deal": SIDES}, format="json").status_code == 201
    honest = transfers.split

    def lopsided(balances):
        first = next(iter(balances))
        return honest({**balances, first: balances[first] + 1})

    monkeypatch.setattr(transfers, "split", lopsided)
    with caplog.at_level(logging.ERROR, logger="api.errors"):
        response = scorer.post(
            url, {"deal": SIDES}, format="json", HTTP_X_REQUEST_ID="phone-retry-0042"
        )
    assert response.status_code == 500
    body = response.json()
    assert body["errors"][0]["code"] == "server.error"
    assert body["request_id"] == "phone-retry-0042" == response["X-Request-ID"]
    assert "phone-retry-0042" in body["errors"][0]["message"]
    (record,) = [r for r in caplog.records if r.name == "api.errors"]
    assert record.request_id == "phone-retry-0042"
    assert isinstance(record.exc_info[1], transfers.Unbalanced)
    assert Deal.objects.filter(match=match).count() == 2


def test_every_answer_names_its_request(people):
    first = api(people, "member").get("/api/v1/clubs")
    second = api(people, "member").get("/api/v1/clubs", HTTP_X_REQUEST_ID="bad id!")
    assert len(first["X-Request-ID"]) == 32
    assert second["X-Request-ID"] not in ("bad id!", first["X-Request-ID"])
