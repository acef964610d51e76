"""Helpers for the standings tests: a season and matches played through the services."""

import datetime
from decimal import Decimal

import pytest

from scorebook.matches import services as matches
from scorebook.standings import services

# Tressette in 4, 21 up: side A takes 20 thirds and the last trick (7 points), B 12 (4).
A_WINS_DEAL = {
    "sides": {"A": {"thirds": 20, "tricks": 5}, "B": {"thirds": 12, "tricks": 5}},
    "last_trick": "A",
}
B_WINS_DEAL = {
    "sides": {"A": {"thirds": 14, "tricks": 4}, "B": {"thirds": 18, "tricks": 6}},
    "last_trick": "B",
}
NOV_20 = datetime.date(2026, 11, 20)


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
    return matches.night_open(
        club_id=people.club.pk, date=NOV_20, venue="Bar", user=people.director
    )


def play_pairs(people, night, deals, seats=None, stake=Decimal("0.50")):
    """A Tressette-in-4 match (N-S side A, E-W side B) played deal by deal."""
    n, e, s, w = people.seated
    match = matches.match_create(
        night=night,
        game="tressette4",
        rules={"profile": "classic_21"},
        seats=seats or {"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk},
        first_dealer="N",
        user=people.scorer,
        stake_amount=stake,
        stake_currency="EUR" if stake else "",
    )
    for deal in deals:
        matches.deal_create(match=match, data=deal, expected_number=None, user=people.scorer)
    match.refresh_from_db()
    return match
