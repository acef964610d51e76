"""The web tests' night (tests/web/conftest.py): a match being played at table 1, a
finished one at table 2 (stake 0.50 EUR each), a closed night, an invitation; and a
season and a started pairs league of the San Rocco club."""

import datetime

import pytest
from django.utils import translation

from scorebook.standings import refresh
from scorebook.standings import services as standings
from tests import builders as build
from tests.web.conftest import world  # noqa: F401  (the fixture, shared)


@pytest.fixture(autouse=True)
def _language_reset():
    yield
    translation.deactivate()


@pytest.fixture
def season(people, world, settings):  # noqa: F811
    """Season 2026-27 with the night's finished match counted (a minimum of 1 match)."""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    standings.settings_update(
        club_id=people.club.pk, changes={"min_matches": 1}, user=people.director
    )
    season = standings.season_create(
        club_id=people.club.pk,
        name="2026-27",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=None,
        user=people.director,
    )
    refresh.rebuild(club_id=people.club.pk)
    return season


@pytest.fixture
def league(people):
    """A started round robin of two pairs: Nino & Salvo against Ettore & Walter."""
    return build.league(people)
