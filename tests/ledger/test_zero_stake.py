"""A match in money at a stake of zero (issue 31 item 3, found by the stateful test in
tests/crossings/): the API and the pages take ``stake_amount`` 0 with a currency, and in
the games settled deal by deal every deal then booked entries of 0.00, which the ledger's
``entry_amount_positive`` constraint refuses: an IntegrityError, a 500 on every deal. A
move of nothing books nothing."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from scorebook.ledger.models import Entry
from scorebook.matches.models import Match
from scorebook.matches.refusals import STAKE_CURRENCIES
from scorebook.rules import games, resume_match
from tests import builders as build
from tests.api.common import api

pytestmark = pytest.mark.django_db


def per_deal_games() -> list[str]:
    """The games whose stakes change hands every deal under their default house rules."""
    return sorted(k for k, g in games().items() if g.settles_per_deal(g.rules(None)))


def test_there_are_games_settled_deal_by_deal():
    assert per_deal_games()


@pytest.mark.parametrize("game", per_deal_games())
def test_deals_at_a_stake_of_zero_book_nothing(people, night, game):
    match = build.match(
        people,
        night,
        game=game,
        rules=None,
        stake_amount=Decimal("0"),
        stake_currency=STAKE_CURRENCIES[0],
    )
    made = build.random_deals(people, match, 4, seed=3)
    assert made
    assert not Entry.objects.filter(match=match).exists()


def test_through_the_api(people, night):
    game = per_deal_games()[0]
    client = api(people, "scorer")
    seats = build.seats_for(people, game, None)
    answer = client.post(
        "/api/v1/matches",
        {
            "night": night.pk,
            "game": game,
            "seats": seats,
            "stake_amount": "0",
            "stake_currency": STAKE_CURRENCIES[0],
        },
        format="json",
    )
    assert answer.status_code == 201, answer.content
    match = Match.objects.get(pk=answer.json()["id"])
    engine, rules, state = resume_match(match.game, match.rules["values"], match.state)
    deal = engine.random_deal(random.Random(5), rules, state, engine.levels[0])
    stored = client.post(f"/api/v1/matches/{match.pk}/deals", {"deal": deal}, format="json")
    assert stored.status_code == 201, stored.content
    assert not Entry.objects.filter(match=match).exists()
