"""Closing the night while a tournament on it is not over is refused, in words that say
what to do (finish it, or cancel it); cancelling gives every fee still in the pot back
(the night stays zero-sum) and abandons its open matches, and the night then closes."""

from decimal import Decimal

import pytest

from scorebook.ledger.models import Entry as LedgerEntry
from scorebook.ledger.selectors import balances
from scorebook.matches import refusals as match_refusals
from scorebook.matches import services as matches
from scorebook.matches.models import Match, Night
from scorebook.tournaments import refusals, selectors
from scorebook.tournaments.models import Tournament
from scorebook.tournaments.services.results import tournament_cancel, tournament_finish
from scorebook.tournaments.services.rounds import round_pair, round_start
from tests.api.common import api

from .helpers import play_round, with_pairs


def zero_sum(night):
    for group in balances(LedgerEntry.objects.filter(night=night)).values():
        assert sum(group.values(), Decimal(0)) == 0


def test_the_night_does_not_close_while_its_tournament_is_not_over(people, night):
    t = with_pairs(people, night, 4, rounds=2, entry_fee="5", currency="EUR")
    r1 = round_start(tournament=t, user=people.director)
    play_round(people, r1)
    with pytest.raises(match_refusals.NightNotReady) as refused:
        matches.night_close(night=night, user=people.director)
    words = refused.value.words()["what"]
    assert "Torneo di San Rocco" in words and "finish it" in words and "cancel it" in words
    night.refresh_from_db()
    assert night.status == Night.Status.OPEN
    assert selectors.pot_balance(t) == Decimal("40.00")
    r2 = round_start(tournament=t, user=people.director)
    play_round(people, r2)
    tournament_finish(tournament=t, user=people.director)
    matches.night_close(night=night, user=people.director)  # finished: it closes
    night.refresh_from_db()
    assert night.status == Night.Status.CLOSED
    assert selectors.pot_balance(t) == 0
    zero_sum(night)


def test_cancelling_gives_the_fees_back_and_lets_the_night_close(people, night):
    t = with_pairs(people, night, 4, rounds=3, entry_fee="5", currency="EUR")
    r1 = round_start(tournament=t, user=people.director)
    play_round(people, r1)
    round_start(tournament=t, user=people.director)  # round 2 being played
    tournament_cancel(tournament=t, reason="Si è fatto tardi", user=people.director)
    t.refresh_from_db()
    assert t.status == Tournament.Status.CANCELLED
    assert selectors.pot_balance(t) == 0
    fees = LedgerEntry.objects.filter(night=night, kind=LedgerEntry.Kind.FEE)
    assert fees.count() == 8 and all(hasattr(f, "reversed_by") for f in fees)
    open_ones = Match.objects.filter(night=night, status=Match.Status.OPEN)
    assert not open_ones.exists()
    assert Match.objects.filter(night=night, status=Match.Status.ABANDONED).count() == 2
    with pytest.raises(refusals.TournamentCancelled):
        round_pair(tournament=t, user=people.director)
    matches.night_close(night=night, user=people.director)
    zero_sum(night)


def test_through_the_api_a_refusal_then_cancel_then_close(people, night):
    t = with_pairs(people, night, 2, rounds=1, entry_fee="5", currency="EUR")
    director = api(people, "director")
    refused = director.post(f"/api/v1/nights/{night.pk}/close", {}, format="json")
    assert refused.status_code == 409
    assert [e["code"] for e in refused.json()["errors"]] == ["night.not_ready"]
    blank = director.post(f"/api/v1/tournaments/{t.pk}/cancel", {"reason": " "}, format="json")
    assert blank.status_code == 400
    cancelled = director.post(
        f"/api/v1/tournaments/{t.pk}/cancel", {"reason": "Pioggia"}, format="json"
    )
    assert cancelled.status_code == 200, cancelled.json()
    assert cancelled.json()["status"] == "cancelled"
    assert selectors.pot_balance(t) == 0
    closed = director.post(f"/api/v1/nights/{night.pk}/close", {}, format="json")
    assert closed.status_code == 200, closed.json()
