"""What anyone may read of a club that publishes its results, field by field.

Each serializer here is an allow-list written for the public: a field is public because
it is named here, never because the members' serializer has it. The members' leaderboard
serializer was reused and gave each player's ``money`` and stake ``units`` to anyone
(docs/api.md: no stakes in public). Memberships, who entered or corrected a deal, audit,
stakes, money and stake units stay private.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers.standings import LeaderboardRowSerializer, RatingSerializer
from scorebook.clubs.models import Club
from scorebook.matches.models import Deal, Match, Night
from scorebook.standings.leagues.tiebreaks import CRITERIA
from scorebook.standings.models import League, Season

#: What a finished match's result says in public: who won, who lost and why; never the
#: multiplier or the stake units it pays.
PUBLIC_RESULT = ("reason", "winners", "losers")


class PublicClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["name", "slug"]
        # Read only: no uniqueness check of its own.
        extra_kwargs: dict[str, dict[str, list[object]]] = {"slug": {"validators": []}}


class PublicResultSerializer(serializers.Serializer):
    """A finished match's result in public: who won, who lost and why."""

    reason = serializers.CharField()
    winners = serializers.ListField(child=serializers.CharField())
    losers = serializers.ListField(child=serializers.CharField())


class PublicDealSerializer(serializers.ModelSerializer):
    points = serializers.SerializerMethodField()

    class Meta:
        model = Deal
        fields = ["number", "version", "points"]

    @extend_schema_field(serializers.DictField(child=serializers.IntegerField()))
    def get_points(self, deal: Deal) -> dict[str, int]:
        return deal.result.get("points", {})


class PublicMatchSerializer(serializers.ModelSerializer):
    date = serializers.DateField(source="night.date")
    table = serializers.SerializerMethodField()
    seats = serializers.SerializerMethodField()
    totals = serializers.SerializerMethodField()
    result = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = ["id", "date", "table", "game", "seats", "status", "totals", "result"]

    def get_table(self, match: Match) -> str | None:
        return str(match.table) if match.table else None

    @extend_schema_field(serializers.DictField(child=serializers.CharField()))
    def get_seats(self, match: Match) -> dict[str, str]:
        names: dict[int, str] = self.context["names"]
        return {seat: names.get(pid, "?") for seat, pid in match.seats.items()}

    @extend_schema_field(serializers.DictField(child=serializers.IntegerField()))
    def get_totals(self, match: Match) -> dict[str, int]:
        return match.state.get("totals", {})

    @extend_schema_field(PublicResultSerializer(allow_null=True))
    def get_result(self, match: Match) -> dict[str, Any] | None:
        if not match.result:
            return None
        return {key: match.result[key] for key in PUBLIC_RESULT if key in match.result}


class PublicMatchDetailSerializer(PublicMatchSerializer):
    deals = serializers.SerializerMethodField()

    class Meta(PublicMatchSerializer.Meta):
        fields = [*PublicMatchSerializer.Meta.fields, "deals"]

    @extend_schema_field(PublicDealSerializer(many=True))
    def get_deals(self, match: Match) -> Any:
        current = match.current  # type: ignore[attr-defined]  # prefetched by the view (to_attr)
        return PublicDealSerializer(current, many=True).data


class PublicNightSerializer(serializers.ModelSerializer):
    matches = serializers.SerializerMethodField()

    class Meta:
        model = Night
        fields = ["id", "date", "venue", "status", "matches"]

    @extend_schema_field(PublicMatchSerializer(many=True))
    def get_matches(self, night: Night) -> Any:
        return PublicMatchSerializer(night.matches.all(), many=True, context=self.context).data


class PublicSeasonSerializer(serializers.ModelSerializer):
    class Meta:
        model = Season
        fields = ["id", "name", "starts_on", "ends_on"]


class PublicLeaderboardRowSerializer(LeaderboardRowSerializer):
    """A leaderboard row as anyone reads it: the columns the registry makes public
    (``scorebook.standings.columns``: not the money per currency nor the stake units).
    The view builds the rows by hand (``row``) and keeps exactly these fields."""

    public = True


#: The fields of a public leaderboard row, in order.
PUBLIC_LEADERBOARD_FIELDS = tuple(PublicLeaderboardRowSerializer().fields)


# The members' rating with its own allow-list of fields: a field added there is not
# public until it is named here.
class PublicRatingSerializer(RatingSerializer):
    class Meta(RatingSerializer.Meta):
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


class PublicLeagueSerializer(serializers.ModelSerializer):
    tiebreaks = serializers.ListField(child=serializers.ChoiceField(choices=CRITERIA))

    class Meta:
        model = League
        fields = [
            "id",
            "name",
            "kind",
            "game",
            "legs",
            "points_win",
            "points_draw",
            "points_loss",
            "tiebreaks",
            "withdrawals",
            "format",
            "seeding",
            "series",
            "series_games",
            "points_per_game",
            "forfeit_points",
            "started_at",
        ]
        read_only_fields = fields
