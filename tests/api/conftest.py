"""A night with a Tressette match at table 1, and its first deal."""

import datetime

import pytest

from scorebook.matches import services
from tests.api.common import SIDES


@pytest.fixture
def match(people):
    night = services.night_open(
        club_id=people.club.pk, date=datetime.date(2026, 11, 20), venue="Bar", user=people.director
    )
    director = people.director
    table = services.table_create(night=night, number=1, name="Tavolo 1", user=director)
    n, e, s, w = people.seated
    return services.match_create(
        night=night,
        game="tressette4",
        rules={"profile": "classic_21"},
        seats={"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk},
        first_dealer="N",
        table=table,
        user=people.scorer,
    )


@pytest.fixture
def deal(match, people):
    return services.deal_create(match=match, data=SIDES, expected_number=1, user=people.scorer)
