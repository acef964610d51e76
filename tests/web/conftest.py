"""A night with a Tressette match at table 1 and two deals, a closed night, an invitation."""

import pytest
from django.utils import translation

from scorebook.clubs import services as clubs
from scorebook.matches import services
from tests import builders as build
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
    return make_world(club, people)


def make_world(club, people):
    """The pages' world (the ``world`` fixture): the pks and names the pages' URLs need."""
    director = people["director"]
    night = build.night(people, venue="Bar")
    stake = {"stake_amount": "0.50", "stake_currency": "EUR"}
    table = build.table(people, night, 1, "Tavolo 1")
    match = build.match(people, night, first_dealer="N", table=table, user=director, **stake)
    deals = build.deals(people, match, SIDES, SMALL, user=director)
    table2 = build.table(people, night, 2)
    finished = build.match(people, night, table=table2, user=director, **stake)
    build.deals(people, finished, SIDES, SMALL, SIDES, SIDES, user=director)
    assert finished.__class__.objects.get(pk=finished.pk).status == "finished"
    closed = build.night(people, day=13)
    services.night_close(night=closed, user=director)
    invitation = clubs.invitation_create(club=club, role="member", user=director)
    n = people.seated[0]
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
