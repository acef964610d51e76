"""The leaderboard's column registry (scorebook/standings/columns.py) is the one
description of a row: the model's fields, the contributions, the sortable columns, the
API's serializers (members' and public) and the page's headings all agree with it."""

import dataclasses

import pytest
from django.db import models

from api.serializers.public import PUBLIC_LEADERBOARD_FIELDS, PublicLeaderboardRowSerializer
from api.serializers.standings import ROW_HEAD, LeaderboardRowSerializer
from scorebook.standings import columns, contributions, refresh, selectors
from scorebook.standings.models import LeaderboardRow
from scorebook.standings.selectors import leaderboard_page
from scorebook.web.views.standings import _columns
from tests.standings.conftest import A_WINS_DEAL, play_pairs

#: The fields of a row that are not columns: its keys and its bookkeeping.
ROW_KEYS = {"id", "club", "season", "game", "player", "sources"}
#: The model field each kind is stored in.
STORED_AS = {
    "count": (models.IntegerField,),
    "rate": (models.FloatField,),
    "amount": (models.DecimalField,),
    "money": (models.JSONField,),
    "tally": (models.JSONField,),
}


def test_every_model_column_is_a_registry_line_and_back():
    fields = {f.name: f for f in LeaderboardRow._meta.concrete_fields}
    stored = [name for name in fields if name not in ROW_KEYS]
    assert stored == list(columns.NAMES)
    for column in columns.COLUMNS:
        assert isinstance(fields[column.name], STORED_AS[column.kind]), column.name


def test_the_stored_row_and_the_answers_follow_the_registry():
    assert refresh.ROW_FIELDS == columns.NAMES
    assert selectors.LEADERBOARD_COLUMNS[2:] == columns.NAMES
    assert tuple(LeaderboardRowSerializer().fields) == (*ROW_HEAD, *columns.NAMES)
    public = tuple(c.name for c in columns.COLUMNS if c.public)
    assert PUBLIC_LEADERBOARD_FIELDS == (*ROW_HEAD, *public)
    assert set(contributions.blank()) == {c.name for c in columns.COLUMNS if c.kind != "rate"}


def test_money_and_units_are_never_public():
    assert not columns.BY_NAME["money"].public
    assert not columns.BY_NAME["units"].public
    assert {"money", "units"}.isdisjoint(PUBLIC_LEADERBOARD_FIELDS)
    assert {"money", "units"}.isdisjoint(selectors.PUBLIC_SORTABLE)
    assert "money" not in selectors.PUBLIC_SORTABLE_NESTED
    with pytest.raises(ValueError, match="never public"):
        columns.Column("tips", "money", public=True)
    with pytest.raises(ValueError, match="never public"):
        dataclasses.replace(columns.BY_NAME["money"], public=True)


def test_sorting_follows_the_registry():
    for column in columns.COLUMNS:
        if column.scalar:
            assert selectors.sort_key(column.name) == column.name
            assert selectors.public_sortable(column.name) == column.public
    assert selectors.sort_key("money:EUR") is not None
    assert selectors.sort_key("events:cappotto:made") is not None
    assert selectors.sort_key("bids:solo:won") is not None
    assert selectors.sort_key("money") is None  # a JSON column sorts by one of its keys


@pytest.mark.django_db
def test_the_hand_built_rows_are_what_the_serializers_say(people, season, night):
    """The API builds its rows by hand (faster than the serializer): the rows of a real
    leaderboard, played for money, read back through each serializer unchanged, and
    the page shows a heading for each visible plain column."""
    play_pairs(people, night, [A_WINS_DEAL] * 3)
    play_pairs(people, night, [A_WINS_DEAL] * 3)  # N-S win both: their money nets
    refresh.rebuild(club_id=people.club.pk)
    page = leaderboard_page(season.pk, type(season).objects.all(), "", ["-won"], offset=0, limit=50)
    assert page is not None and len(page.rows) == 4
    assert any(line["money"] for line in page.rows)
    for serializer in (LeaderboardRowSerializer, PublicLeaderboardRowSerializer):
        for i, line in enumerate(page.rows):
            row = serializer.row(line, i + 1)
            assert tuple(row) == tuple(serializer().fields)
            assert serializer(instance=row).data == row
            check = serializer(data=row)
            assert check.is_valid(), check.errors
    stored = list(LeaderboardRow.objects.filter(season=season, game=""))
    for public in (False, True):
        keys = [c["key"] for c in _columns(stored, public) if len(c["path"]) == 1]
        assert keys == [c.name for c in columns.visible(public=public) if c.scalar]
