"""A modest club history (a season of weekly nights, three tables, random legal deals from
the engine) imported whole: every night, match and deal stored, the leaderboard and the
ratings rebuilt with them; the same file again stores nothing new."""

from __future__ import annotations

from datetime import date

import pytest

from deploy.bench.history_file import club_history
from scorebook.history import services
from scorebook.history.models import Import
from scorebook.matches.models import Deal, Match, Night
from scorebook.standings import services as standings
from scorebook.standings.models import LeaderboardRow, Rating

pytestmark = pytest.mark.usefixtures("eager_tasks")

NIGHTS = 12


@pytest.mark.slow
def test_a_season_of_nights_imports_whole(people, django_capture_on_commit_callbacks):
    standings.season_create(
        club_id=people.club.pk,
        name="2015",
        starts_on=date(2015, 1, 1),
        ends_on=None,
        user=people.director,
    )
    text, deals = club_history(NIGHTS)
    data = text.encode()
    batch = services.import_preview(
        club=people.club, user=people.director, filename="s.csv", data=data
    )
    assert (batch.nights_total, batch.deals_total) == (NIGHTS, deals)
    with django_capture_on_commit_callbacks(execute=True):
        services.import_accept(batch=batch, user=people.director)
    batch = Import.objects.get(pk=batch.pk)
    assert (batch.status, batch.nights_done) == ("done", NIGHTS)
    nights = Night.objects.filter(club=people.club)
    assert nights.count() == NIGHTS and set(nights.values_list("status", flat=True)) == {"closed"}
    assert Match.objects.filter(night__club=people.club).count() == NIGHTS * 9
    assert Deal.objects.filter(match__night__club=people.club).count() == deals
    assert not Match.objects.filter(night__club=people.club, status="open").exists()
    assert LeaderboardRow.objects.filter(club=people.club).count() >= 24
    assert Rating.objects.filter(club=people.club).count() >= 24
    with pytest.raises(services.NothingNew):
        services.import_preview(club=people.club, user=people.director, filename="s.csv", data=data)
