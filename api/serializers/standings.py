"""The standings' serializers: seasons, ratings and their changes, a club's settings, and
a leaderboard row, members' and public, derived from the standings' column registry
(``scorebook.standings.columns``): a column added there is in these answers, and in the
public one only if the registry says it is public (money never is)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.scoping import OwnClubsField
from scorebook.clubs.models import Club
from scorebook.standings import columns
from scorebook.standings.models import Rating, RatingChange, Season

#: The fields of every row before its columns: its place and its player.
ROW_HEAD = ("position", "player", "player_name", "ranked")


def _field(column: columns.Column) -> serializers.Field:
    if column.kind == "count":
        return serializers.IntegerField()
    if column.kind == "rate":
        return serializers.FloatField()
    if column.kind == "amount":
        return serializers.DecimalField(max_digits=14, decimal_places=2)
    if column.kind == "money":
        return serializers.DictField(child=serializers.CharField())
    return serializers.DictField(child=serializers.DictField(child=serializers.IntegerField()))


class LeaderboardRowSerializer(serializers.Serializer):
    """A leaderboard row as the members read it: every column of the registry."""

    #: True: only the columns the registry makes public.
    public = False

    def get_fields(self) -> dict[str, serializers.Field]:
        fields: dict[str, serializers.Field] = {
            "position": serializers.IntegerField(allow_null=True),
            "player": serializers.IntegerField(),
            "player_name": serializers.CharField(),
            "ranked": serializers.BooleanField(),
        }
        for column in columns.visible(public=self.public):
            fields[column.name] = _field(column)
        return fields

    @classmethod
    def row(cls, line: dict[str, Any], position: int | None) -> dict[str, Any]:
        """A row as this serializer describes it, built from a selector's line
        (``selectors.leaderboard_page``) by hand: a serializer with nested dict fields
        cost more than the query for a 50-row page. tests/standings/test_columns.py
        checks the two give the same answer."""
        out: dict[str, Any] = {
            "position": position,
            "player": line["player_id"],
            "player_name": line["player__name"],
            "ranked": line["ranked"],
        }
        for column in columns.visible(public=cls.public):
            value = line[column.name]
            out[column.name] = f"{value:.2f}" if column.kind == "amount" else value
        return out


class SeasonSerializer(serializers.ModelSerializer):
    club = OwnClubsField(queryset=Club.objects.all())

    class Meta:
        model = Season
        fields = ["id", "club", "name", "starts_on", "ends_on"]
        # A taken name or number is the service's 409 in words (races too), never a 400 here.
        validators: list[object] = []


class RatingSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name")
    provisional = serializers.SerializerMethodField()

    class Meta:
        model = Rating
        fields = [
            "player",
            "player_name",
            "game",
            "display",
            "mu",
            "sigma",
            "matches",
            "provisional",
        ]

    def get_provisional(self, rating: Rating) -> bool:
        return rating.matches < self.context["provisional_matches"]


class RatingChangeSerializer(serializers.ModelSerializer):
    class Meta:
        model = RatingChange
        fields = [
            "player",
            "game",
            "match",
            "seq",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
            "display_after",
        ]


class SettingsSerializer(serializers.Serializer):
    min_matches = serializers.IntegerField(min_value=0, max_value=1000, required=False)
    provisional_matches = serializers.IntegerField(min_value=0, max_value=1000, required=False)
