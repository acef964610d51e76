"""A night with a Tressette match at table 1 and two deals, a closed night, an invitation."""

import datetime

import pytest
from django.utils import translation

from scorebook.clubs import services as clubs
from scorebook.matches import services
from tests.api.common import SIDES, SMALL


@pytest.fixture(autouse=True)
def _language_reset():
    """A request in Italian leaves Italian active in the test's thread (LocaleMiddleware
    activates it and nothing deactivates it): the tests after it, in other folders too,
    read English words in Italian. Each page test ends in the default language."""
    yield
    translation.deactivate()


@pytest.fixture
def world(club, people):
    director = people["director"]
    night = services.night_open(
        club_id=club.pk, date=datetime.date(2026, 11, 20), venue="Bar", user=director
    )
    table = services.table_create(night=night, number=1, name="Tavolo 1", user=director)
    n, e, s, w = people.seated
    match = services.match_create(
        night=night,
        game="tressette4",
        rules={"profile": "classic_21"},
        seats={"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk},
        first_dealer="N",
        table=table,
        user=director,
        stake_amount="0.50",
        stake_currency="EUR",
    )
    deals = [
        services.deal_create(match=match, data=data, expected_number=number, user=director)
        for number, data in enumerate([SIDES, SMALL], start=1)
    ]
    table2 = services.table_create(night=night, number=2, name="", user=director)
    finished = services.match_create(
        night=night,
        game="tressette4",
        rules={"profile": "classic_21"},
        seats={"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk},
        table=table2,
        user=director,
        stake_amount="0.50",
        stake_currency="EUR",
    )
    for number, data in enumerate([SIDES, SMALL, SIDES, SIDES], start=1):
        services.deal_create(match=finished, data=data, expected_number=number, user=director)
    assert finished.__class__.objects.get(pk=finished.pk).status == "finished"
    closed = services.night_open(
        club_id=club.pk, date=datetime.date(2026, 11, 13), venue="", user=director
    )
    services.night_close(night=closed, user=director)
    invitation = clubs.invitation_create(club=club, role="member", user=director)
    return {
        "slug": club.slug,
        "night": night.pk,
        "closed": closed.pk,
        "match": match.pk,
        "finished": finished.pk,
        "deal": deals[0].pk,
        "player": n.pk,
        "token": invitation.token,
        "invitation": invitation.pk,
    }
