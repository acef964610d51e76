"""Championships (issue 34 item 3): a championship with its teams, calendar and table; the
requests that create one, enter a team, play, confirm, forfeit or move a fixture. Never
any money: a fixture's matches are named by id, with tables won and game points."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scorebook.core.numbers import MAX_ID
from scorebook.federations import championship_selectors as reads
from scorebook.federations.models import Championship, ChampionshipFixture, Team


class RosterSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    substitute = serializers.BooleanField()


class TeamSerializer(serializers.ModelSerializer):
    club = serializers.CharField(source="club.slug", read_only=True)
    club_name = serializers.CharField(source="club.name", read_only=True)
    captain = serializers.CharField(source="captain.username", read_only=True, allow_null=True)
    roster = RosterSerializer(many=True, read_only=True)

    class Meta:
        model = Team
        fields = [
            "id",
            "name",
            "club",
            "club_name",
            "captain",
            "group",
            "seed",
            "withdrawn",
            "withdrawal",
            "withdrawal_reason",
            "roster",
        ]


class ChampionshipResultSerializer(serializers.Serializer):
    home_tables = serializers.IntegerField()
    away_tables = serializers.IntegerField()
    home_points = serializers.IntegerField()
    away_points = serializers.IntegerField()
    complete = serializers.BooleanField()


class FixtureSerializer(serializers.ModelSerializer):
    """A fixture; ``result`` is read from its tables' matches (null before it is played),
    ``matches`` are the ids of the home club's matches it is played as."""

    home = serializers.IntegerField(source="home_id", read_only=True)
    away = serializers.IntegerField(source="away_id", read_only=True)
    home_name = serializers.CharField(source="home.name", read_only=True)
    away_name = serializers.CharField(source="away.name", read_only=True)
    result = serializers.SerializerMethodField()
    matches = serializers.SerializerMethodField()

    class Meta:
        model = ChampionshipFixture
        fields = [
            "id",
            "championship",
            "stage",
            "group",
            "round",
            "slot",
            "home",
            "away",
            "home_name",
            "away_name",
            "planned_on",
            "status",
            "reason",
            "result",
            "matches",
            "confirmed_at",
        ]

    @staticmethod
    def _result(fixture: ChampionshipFixture) -> dict[str, Any] | None:
        found = reads.result(fixture)
        return None if found is None else found.as_dict()

    @extend_schema_field(ChampionshipResultSerializer(allow_null=True))
    def get_result(self, fixture: ChampionshipFixture) -> dict[str, Any] | None:
        return self._result(fixture)

    def get_matches(self, fixture: ChampionshipFixture) -> list[int]:
        return list(fixture.boards.values_list("match_id", flat=True))


class TableRowSerializer(serializers.Serializer):
    position = serializers.IntegerField(source="row.position", allow_null=True)
    team = serializers.IntegerField(source="team.pk")
    name = serializers.CharField(source="team.name")
    club = serializers.CharField(source="team.club.name")
    played = serializers.IntegerField(source="row.played")
    won = serializers.IntegerField(source="row.won")
    drawn = serializers.IntegerField(source="row.drawn")
    lost = serializers.IntegerField(source="row.lost")
    tables_won = serializers.IntegerField()
    tables_lost = serializers.IntegerField()
    points_scored = serializers.IntegerField(source="row.scored")
    points_conceded = serializers.IntegerField(source="row.conceded")
    points = serializers.IntegerField(source="row.points")
    withdrawn = serializers.BooleanField(source="team.withdrawn")


class GroupTableSerializer(serializers.Serializer):
    group = serializers.IntegerField(allow_null=True)
    rows = TableRowSerializer(many=True)


class ChampionshipSerializer(serializers.ModelSerializer):
    federation = serializers.CharField(source="federation.slug", read_only=True)

    class Meta:
        model = Championship
        fields = [
            "id",
            "federation",
            "name",
            "season",
            "game",
            "rules",
            "tables",
            "substitutes",
            "format",
            "legs",
            "groups",
            "advance",
            "first_day",
            "every_days",
            "status",
        ]
        read_only_fields = ["federation", "status"]


class ChampionshipDetailSerializer(ChampionshipSerializer):
    """A championship with its teams, calendar and table (one per group)."""

    teams = serializers.SerializerMethodField()
    fixtures = serializers.SerializerMethodField()
    table = serializers.SerializerMethodField()

    class Meta(ChampionshipSerializer.Meta):
        fields = [*ChampionshipSerializer.Meta.fields, "teams", "fixtures", "table"]

    def get_teams(self, championship: Championship) -> TeamSerializer(many=True):  # type: ignore[valid-type]
        return TeamSerializer(reads.teams(championship), many=True).data

    def get_fixtures(self, championship: Championship) -> FixtureSerializer(many=True):  # type: ignore[valid-type]
        return FixtureSerializer(reads.fixtures(championship), many=True).data

    def get_table(self, championship: Championship) -> GroupTableSerializer(many=True):  # type: ignore[valid-type]
        return GroupTableSerializer(reads.standings(championship), many=True).data


class ChampionshipCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    season = serializers.CharField(max_length=20)
    game = serializers.CharField(max_length=40)
    rules = serializers.JSONField(required=False)
    tables = serializers.IntegerField(min_value=1, max_value=8, default=2)
    substitutes = serializers.IntegerField(min_value=0, max_value=8, default=2)
    format = serializers.ChoiceField(
        choices=Championship.Format.choices, default=Championship.Format.ROUND_ROBIN
    )
    legs = serializers.IntegerField(min_value=1, max_value=2, default=2)
    groups = serializers.IntegerField(min_value=1, max_value=8, default=1)
    advance = serializers.IntegerField(min_value=1, max_value=4, default=2)
    first_day = serializers.DateField(required=False, allow_null=True)
    every_days = serializers.IntegerField(min_value=1, max_value=90, default=7)


class TeamEnterSerializer(serializers.Serializer):
    club = serializers.SlugField(help_text="The club's address.")
    name = serializers.CharField(max_length=80)
    players = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=MAX_ID))
    substitutes = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID), required=False
    )
    captain = serializers.CharField(
        max_length=150, required=False, help_text="The captain's username (default: you)."
    )


class LineupsSerializer(serializers.Serializer):
    home = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID), required=False
    )
    away = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID), required=False
    )


class ChampionshipForfeitSerializer(serializers.Serializer):
    team = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True)


class ChampionshipPlanSerializer(serializers.Serializer):
    day = serializers.DateField(allow_null=True)
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True)


class TeamWithdrawSerializer(serializers.Serializer):
    """Why the team leaves (kept with the withdrawal once the championship has started)."""

    reason = serializers.CharField(max_length=200, required=False, allow_blank=True)


class ForfeitUndoSerializer(serializers.Serializer):
    """Why a forfeit recorded by mistake is undone (the audit log keeps it)."""

    reason = serializers.CharField(max_length=200, required=False, allow_blank=True)
