"""A player's statistics, described for the schema (the answer is built by
``api.serializers.leagues.statistics_data`` from ``scorebook.standings.stats``)."""

from __future__ import annotations

from rest_framework import serializers


class PersonSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class RecordSerializer(serializers.Serializer):
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()


class HeadToHeadSerializer(RecordSerializer):
    opponent = PersonSerializer()


class PartnerSerializer(RecordSerializer):
    partner = PersonSerializer()
    baseline = serializers.FloatField(help_text="The player's win rate without this partner.")
    partner_baseline = serializers.FloatField(help_text="The partner's, without the player.")
    synergy = serializers.FloatField(help_text="Together against apart.")


class OpponentRecordSerializer(RecordSerializer):
    """A rival (played most against) or a nemesis (lost most to)."""

    id = serializers.IntegerField()
    name = serializers.CharField()


class StreakSerializer(serializers.Serializer):
    length = serializers.IntegerField()
    first_match = serializers.IntegerField(allow_null=True)
    last_match = serializers.IntegerField(allow_null=True)


class RatingPointSerializer(serializers.Serializer):
    """The rating after one rated match."""

    seq = serializers.IntegerField()
    match_id = serializers.IntegerField()
    display_after = serializers.FloatField()
    mu_after = serializers.FloatField()


class PlayerStatisticsSerializer(serializers.Serializer):
    """A player's record by game, head-to-head, partners, rival, nemesis, longest winning
    streak and rating history by game."""

    player = PersonSerializer()
    min_shared = serializers.IntegerField()
    by_game = serializers.DictField(child=RecordSerializer(), help_text="Game: record.")
    head_to_head = HeadToHeadSerializer(many=True)
    partners = PartnerSerializer(many=True)
    best_partner = PersonSerializer(allow_null=True)
    rival = OpponentRecordSerializer(allow_null=True)
    nemesis = OpponentRecordSerializer(allow_null=True)
    longest_streak = StreakSerializer()
    ratings = serializers.DictField(
        child=serializers.ListField(child=RatingPointSerializer()),
        help_text="Game: the rating after each rated match, in order.",
    )
