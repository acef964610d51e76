"""Helpers for the standings tests: a season and matches played through the services."""

import datetime
from decimal import Decimal

import pytest

from scorebook.standings import services
from tests import builders as build

# Tressette in 4, 21 up: side A takes 20 thirds and the last trick (7 points), B 12 (4).
A_WINS_DEAL = build.A_WINS
B_WINS_DEAL = build.B_WINS_SMALL
NOV_20 = build.DAY


@pytest.fixture
def eager(settings):
    """Refresh in-process after commit (as with no broker), even in the CI pass that
    sets a real broker: these tests are about what the refresh computes."""
    settings.CELERY_TASK_ALWAYS_EAGER = True


@pytest.fixture
def season(people, eager):
    return services.season_create(
        club_id=people.club.pk,
        name="2026-27",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=None,
        user=people.director,
    )


@pytest.fixture
def night(people):
    return build.night(people, venue="Bar")


def play_pairs(people, night, deals, seats=None, stake=Decimal("0.50")):
    """A Tressette-in-4 match (N-S side A, E-W side B) played deal by deal."""
    match = build.match(
        people,
        night,
        seats=seats or None,
        first_dealer="N",
        stake_amount=stake,
        stake_currency="EUR" if stake else "",
    )
    build.deals(people, match, *deals)
    match.refresh_from_db()
    return match
