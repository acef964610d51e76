"""A night closes only with every match finished or abandoned (issue 31 item 10).

Before, the close shut a night with its matches still open: a Terziglio chips session
(which has no end of its own) stayed open on a closed night, its page offering no way on,
and the close did not ask about it. Now the close is refused while a match is open
(``night.open_matches``, naming them) unless it is asked to end exactly the open matches:
then, in the same step, a match with no end of its own is finished with its scores (the
engine's ``stop``), any other abandoned with the reason given. The crossings: the ledger
(booked once, settled), a correction after the close, a deal arriving late (the phone's
queue), a league fixture, the page and the API."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from scorebook.ledger import selectors as reads
from scorebook.ledger import services as ledger
from scorebook.ledger.models import Entry
from scorebook.matches import services
from scorebook.matches.models import Match, Night
from scorebook.matches.refusals import ClosedNight, CorrectionLeavesOpen, OpenMatches
from scorebook.rules import get_game
from scorebook.standings.leagues import selectors as league_reads
from scorebook.standings.leagues import services as leagues
from tests import builders as build
from tests.api.common import api
from tests.web.test_pages import client_for

CHIPS = {"profile": "chips_1_2_4_8_16"}


@pytest.fixture
def evening(people, night):
    """Tonight: a chips Terziglio at table 1 with three deals (no end of its own), a
    Tressette at table 2 at one deal (a race to 21), both at a stake."""
    one = build.table(people, night, 1)
    two = build.table(people, night, 2)
    chips = build.match(
        people, night, game="terziglio", rules=CHIPS, table=one, **build.stake("0.10")
    )
    build.random_deals(people, chips, 3, seed=3)
    race = build.match(people, night, table=two, **build.stake("0.50"))
    build.deals(people, race, build.A_WINS)
    return {"chips": Match.objects.get(pk=chips.pk), "race": Match.objects.get(pk=race.pk)}


def _entries(match):
    return sorted(
        Entry.objects.filter(match=match, reversed_by__isnull=True).values_list(
            "payer_id", "payee_id", "amount"
        )
    )


def test_the_close_is_refused_while_a_match_is_open_naming_them(people, night, evening):
    with pytest.raises(OpenMatches) as refused:
        services.night_close(night=night, user=people.director)
    words = refused.value.text()
    assert "Table 1 · Terziglio / Calabresella" in words
    assert "Table 2 · Tressette, 4 players in pairs" in words
    # a list that is not exactly the open matches is refused the same way
    with pytest.raises(OpenMatches):
        services.night_close(night=night, user=people.director, end_open=[evening["chips"].pk])
    night.refresh_from_db()
    assert night.status == Night.Status.OPEN
    assert set(Match.objects.filter(night=night).values_list("status", flat=True)) == {"open"}


def test_one_confirmation_finishes_the_chips_session_and_abandons_the_race(people, night, evening):
    chips, race = evening["chips"], evening["race"]
    booked = _entries(chips)
    totals = dict(chips.state["totals"])
    services.night_close(
        night=night, user=people.director, end_open=[chips.pk, race.pk], reason="Time's up"
    )
    night.refresh_from_db()
    chips.refresh_from_db()
    race.refresh_from_db()
    assert night.status == Night.Status.CLOSED
    assert (chips.status, chips.stopped, chips.state["totals"]) == ("finished", True, totals)
    assert chips.result["stopped"] is True
    assert set(chips.result["winners"]) == {seat for seat, t in totals.items() if t > 0}
    assert set(chips.result["losers"]) == {seat for seat, t in totals.items() if t < 0}
    assert (race.status, race.stopped, race.ended_reason) == ("abandoned", False, "Time's up")
    # the ledger: the session's chips were booked deal by deal, and nothing twice
    assert _entries(chips) == booked and booked
    ledger.zero_sum_check(Entry.objects.filter(night=night))
    settlement = reads.current_settlement(night)
    assert settlement is not None and settlement.version == 1
    # fold replays the stop: the record re-derives the same finished state
    again = services.fold(chips, [d.input for d in services.current_deals(chips)]).state
    assert again.finished and again.outcome.as_dict() == chips.result


def test_after_the_close_a_late_deal_is_refused_and_a_correction_keeps_it_finished(
    people, night, evening
):
    chips = evening["chips"]
    build.close(people, night)
    # the phone's queue brings a deal after the close: the night is closed (409)
    late = services.current_deals(chips)[0].input
    with pytest.raises(ClosedNight):
        services.deal_create(match=chips, data=late, expected_number=4, user=people.scorer)
    # a director corrects a deal of the finished session: still finished, stopped, and
    # the night settles again
    deals = services.current_deals(chips)
    before = services.fold(chips, [d.input for d in deals[:2]]).state
    game = get_game(chips.game)
    other = game.random_deal(random.Random(11), game.rules(CHIPS), before, "totals")
    services.deal_correct(
        deal=deals[2], data=other, reason="sheet", user=people.director, expected_version=1
    )
    chips.refresh_from_db()
    assert (chips.status, chips.stopped) == ("finished", True)
    assert chips.result["stopped"] is True
    ledger.zero_sum_check(Entry.objects.filter(night=night))
    assert reads.current_settlement(night).version == 2


def test_a_session_with_nothing_played_is_abandoned_not_finished(people, night):
    empty = build.match(people, night, game="terziglio", rules=CHIPS)
    build.close(people, night)
    empty.refresh_from_db()
    assert (empty.status, empty.stopped) == ("abandoned", False)


def test_a_league_match_left_open_is_abandoned_and_the_fixture_is_to_play_again(people, night):
    league = build.league(people)
    fixture = league.fixtures.get()
    match = build.match(people, night)
    build.deals(people, match, build.A_WINS)
    leagues.fixture_match_link(fixture=fixture, match=match, user=people.director)
    build.close(people, night, reason="Late")
    match.refresh_from_db()
    assert match.status == "abandoned"
    table = league_reads.league_table(league)
    (score,) = [s for r in table.rounds for s in r.fixtures if s.fixture.pk == fixture.pk]
    assert score.status == "scheduled" and not score.playing


def test_the_api_says_which_matches_and_ends_them_on_confirmation(people, night, evening):
    client = api(people, "director")
    url = f"/api/v1/nights/{night.pk}/close"
    refused = client.post(url, {}, format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert refused.status_code == 409
    (error,) = refused.json()["errors"]
    assert error["code"] == "night.open_matches" and error["path"] == "end_open"
    assert "Tavolo 1 · Terziglio / Calabresella" in error["message"]
    assert "non sono finite" in error["message"]
    ids = sorted([evening["chips"].pk, evening["race"].pk])
    assert sorted(int(i) for i in error["params"]["matches"].split(", ")) == ids
    wrong = client.post(url, {"end_open": ids[:1]}, format="json")
    assert wrong.status_code == 409
    bad = client.post(url, {"end_open": "all"}, format="json")
    assert bad.status_code == 400
    closed = client.post(url, {"end_open": ids, "reason": "Ora di chiudere"}, format="json")
    assert closed.status_code == 200 and closed.json()["status"] == "closed"
    chips = client.get(f"/api/v1/matches/{evening['chips'].pk}").json()
    assert (chips["status"], chips["stopped"]) == ("finished", True)
    race = client.get(f"/api/v1/matches/{evening['race'].pk}").json()
    assert race["status"] == "abandoned"
    again = client.post(url, {}, format="json")  # closed already: nothing to end
    assert again.status_code == 200


def test_the_close_page_lists_both_and_one_button_ends_them(people, night, evening):
    client = client_for(people, "director")
    url = f"/n/{night.pk}/close"
    italian = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    stop = italian.split('id="to-stop"', 1)[1].split("</section>", 1)[0]
    assert "1 partita non ha una fine propria" in stop
    assert "Tavolo 1 · Terziglio / Calabresella" in stop
    assert f"/m/{evening['chips'].pk}/" in stop and f"/m/{evening['race'].pk}/" not in stop
    abandon = italian.split('id="to-abandon"', 1)[1].split("</section>", 1)[0]
    assert f"/m/{evening['race'].pk}/" in abandon
    assert "Chiudi le partite e la serata" in italian
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "1 match has no end of its own (a chips session)" in english
    assert "End these matches and close the night" in english
    # a match started after the page was shown: the close is refused and names it
    late = build.match(people, night, game="terziglio", rules=CHIPS)
    shown = [evening["chips"].pk, evening["race"].pk]
    refused = client.post(url, {"end_open": shown}, HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 409
    body = refused.content.decode()
    assert "These matches are not finished" in body and f"/m/{late.pk}/" in body
    assert Night.objects.get(pk=night.pk).status == "open"
    done = client.post(url, {"end_open": [*shown, late.pk], "reason": "Basta"})
    assert done.status_code == 302
    assert set(Match.objects.filter(night=night).values_list("status", flat=True)) == {
        "finished",
        "abandoned",
    }
    assert Match.objects.get(pk=evening["race"].pk).ended_reason == "Basta"
    page = client.get(f"/m/{late.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "The match was abandoned" in page


def test_the_stakes_of_a_stopped_session_are_those_of_its_deals(people, night, evening):
    """The result of a session finished at the close pays nothing more: its chips changed
    hands deal by deal (the ledger books one or the other, never both)."""
    chips = evening["chips"]
    before = sum(e[2] for e in _entries(chips))
    build.close(people, night)
    assert sum(e[2] for e in _entries(chips)) == before
    assert Decimal(before) > 0


def test_a_correction_after_the_close_that_would_unfinish_a_match_is_refused(people, night):
    """The stateful test's find (tests/crossings): a race finished by its deals, corrected
    after the close so that they no longer end it, was left open on the closed night,
    where no deal can be added and the close does not run again. Refused in words (the
    close would abandon it, losing its result); nothing changes; a correction that still
    ends it is taken."""
    match = build.match(people, night, **build.stake("0.50"))
    deals = build.deals(people, match, build.A_WINS, build.A_WINS, build.A_WINS)
    build.close(people, night)
    match.refresh_from_db()
    assert match.status == "finished"
    booked = _entries(match)
    with pytest.raises(CorrectionLeavesOpen):
        services.deal_correct(
            deal=deals[2], data=build.B_WINS, reason="sheet", user=people.director,
            expected_version=1,
        )  # fmt: skip
    client = api(people, "director")
    answer = client.post(
        f"/api/v1/deals/{deals[2].pk}/correct",
        {"deal": build.B_WINS, "reason": "sheet"},
        format="json",
        HTTP_IF_MATCH=deals[2].etag,
        HTTP_ACCEPT_LANGUAGE="it",
    )
    assert answer.status_code == 409, answer.content
    (error,) = answer.json()["errors"]
    assert error["code"] == "night.correction_leaves_open"
    assert "lascerebbe la partita non finita" in error["message"]
    match.refresh_from_db()
    assert match.status == "finished" and _entries(match) == booked
    assert [d.version for d in services.current_deals(match)] == [1, 1, 1]
    settled = reads.current_settlement(night)
    assert settled is not None and settled.version == 1
    # a correction that still ends the match is taken (the same side wins: the same nets)
    bigger = {"sides": {"A": {"thirds": 23, "tricks": 6}, "B": {"thirds": 9, "tricks": 4}},
              "last_trick": "A"}  # fmt: skip
    services.deal_correct(
        deal=deals[1], data=bigger, reason="sheet", user=people.director, expected_version=1
    )
    match.refresh_from_db()
    assert match.status == "finished" and _entries(match) == booked
    assert [d.version for d in services.current_deals(match)] == [1, 2, 1]
