"""The migration that repairs leagues stored before their settings were checked: a league
of "poker" (every read of it answered 500) plays any game after it; a valid one is left."""

import importlib

from django.apps import apps as global_apps

from scorebook.standings.models import League
from tests.api.common import api

repair = importlib.import_module("scorebook.standings.migrations.0008_leagues_of_no_game").repair


def test_a_stored_league_of_no_game_is_readable_after_the_repair(people, club):
    bad = League.objects.create(club=club, name="Poker", game="poker", series_games=0)
    good = League.objects.create(club=club, name="Coppa", game="tressette4")
    repair(global_apps, None)
    bad.refresh_from_db()
    good.refresh_from_db()
    assert (bad.game, bad.series_games) == ("", 1)
    assert good.game == "tressette4"
    member = api(people, "member")
    for url in (f"/api/v1/leagues/{bad.pk}/standings", f"/api/v1/leagues/{bad.pk}/standings/csv"):
        assert member.get(url).status_code == 200, url
