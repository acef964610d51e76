"""A member's calendar addresses (the feeds are served by the pages' routes: a calendar
app fetches them without a session, by the token in the address)."""

from rest_framework import serializers


class LeagueFeedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    url = serializers.URLField()


class CalendarSerializer(serializers.Serializer):
    mine = serializers.URLField(help_text="The member's nights, fixtures and tournaments.")
    club = serializers.URLField(help_text="Every night, fixture and tournament of the club.")
    leagues = LeagueFeedSerializer(many=True, help_text="One feed per league.")
    public = serializers.URLField(
        allow_null=True, help_text="The public nights feed, for clubs that publish; else null."
    )
