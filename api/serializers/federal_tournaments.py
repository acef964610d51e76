"""Federal tournaments and the federation ranking (issue 34 items 4 and 5). A federation's
answers name persons by username and federation number, never a club's player names; the
fee is said to the federation's officers and the host's directors only (never on a public
answer)."""

from __future__ import annotations

from decimal import Decimal

from rest_framework import serializers

from scorebook.core.numbers import MAX_ID
from scorebook.federations.models import FederalRegistration, FederalTournament, TournamentLevel
from scorebook.federations.services.federal_tournaments import CAP_MOST
from scorebook.tournaments.models import Tournament


def _money(words: str) -> serializers.DecimalField:
    return serializers.DecimalField(
        max_digits=9,
        decimal_places=2,
        min_value=Decimal(0),
        max_value=Decimal(10**6),
        required=False,
        help_text=words,
    )


class HostSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()


class PlacingSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    persons = serializers.ListField(child=serializers.CharField(), help_text="Usernames.")
    points = serializers.IntegerField()


class FederalTournamentSerializer(serializers.ModelSerializer):
    """A federal tournament; ``fee``, ``federation_share`` and ``currency`` are null but
    for the federation's officers and the host's directors; ``placings`` once the host's
    tournament is finished (``field``: the pairs entered)."""

    federation = serializers.IntegerField()
    tournament = serializers.IntegerField(
        allow_null=True, help_text="The host's tournament, once opened."
    )
    host = HostSerializer()
    registered = serializers.IntegerField(help_text="Pairs within the cap.")
    waiting = serializers.IntegerField(help_text="Pairs on the waiting list.")
    finished = serializers.BooleanField()
    field = serializers.IntegerField(help_text="The pairs entered (0 until finished).")
    placings = PlacingSerializer(many=True)
    fee = serializers.DecimalField(max_digits=9, decimal_places=2, allow_null=True)
    federation_share = serializers.DecimalField(max_digits=9, decimal_places=2, allow_null=True)
    currency = serializers.CharField(allow_null=True)

    class Meta:
        model = FederalTournament
        fields = [
            "id",
            "federation",
            "name",
            "date",
            "host",
            "level",
            "game",
            "rules",
            "format",
            "rounds",
            "group_size",
            "qualifiers",
            "cap",
            "status",
            "tournament",
            "cancel_reason",
            "registered",
            "waiting",
            "finished",
            "field",
            "placings",
            "fee",
            "federation_share",
            "currency",
        ]


class FederalAnnounceSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    date = serializers.DateField()
    host = serializers.SlugField(max_length=60, help_text="The host club's address.")
    level = serializers.ChoiceField(choices=TournamentLevel.choices)
    game = serializers.CharField(max_length=40)
    rules = serializers.JSONField(required=False, help_text="The house-rule spec.")
    format = serializers.ChoiceField(choices=Tournament.Format.choices, required=False)
    rounds = serializers.IntegerField(min_value=1, max_value=20, required=False)
    group_size = serializers.IntegerField(min_value=3, max_value=5, required=False)
    qualifiers = serializers.IntegerField(min_value=1, max_value=2, required=False)
    fee = _money("Each player's fee.")
    federation_share = _money("The federation's share of each fee.")
    currency = serializers.CharField(max_length=3, required=False, allow_blank=True)
    cap = serializers.IntegerField(min_value=2, max_value=CAP_MOST)


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=200)


class OpenSerializer(serializers.Serializer):
    night = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text="The host club's night of the tournament's date."
    )


class RegistrationSerializer(serializers.ModelSerializer):
    federal_tournament = serializers.IntegerField()
    first = serializers.CharField(source="first.username")
    second = serializers.CharField(source="second.username")
    waiting_position = serializers.IntegerField(allow_null=True)

    class Meta:
        model = FederalRegistration
        fields = [
            "id",
            "federal_tournament",
            "first",
            "second",
            "status",
            "waiting_position",
            "created_at",
            "withdrawn_at",
        ]


class RegisterSerializer(serializers.Serializer):
    partner = serializers.CharField(max_length=150, help_text="Your partner's username.")


class RankRowSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    username = serializers.CharField(source="user.username")
    number = serializers.IntegerField(allow_null=True, help_text="The federation number.")
    points = serializers.IntegerField()
    best = serializers.IntegerField(help_text="The best single result's points.")
    tournaments = serializers.IntegerField()


class FederalResultSerializer(serializers.Serializer):
    federal_tournament = serializers.IntegerField(source="federal.pk")
    name = serializers.CharField(source="federal.name")
    date = serializers.DateField(source="federal.date")
    level = serializers.ChoiceField(choices=TournamentLevel.choices, source="federal.level")
    place = serializers.IntegerField()
    field = serializers.IntegerField()
    points = serializers.IntegerField()
    counts = serializers.BooleanField(help_text="Within the ranking's twelve months.")


class FederationRatingRowSerializer(serializers.Serializer):
    position = serializers.IntegerField(help_text="Within the game (equal ratings share it).")
    game = serializers.CharField()
    username = serializers.CharField(source="user.username")
    number = serializers.IntegerField(allow_null=True, help_text="The federation number.")
    rating = serializers.FloatField(help_text="The conservative value shown: mu - 3 sigma.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    matches = serializers.IntegerField(help_text="Rated matches across the member clubs.")
    clubs = serializers.IntegerField(help_text="At how many member clubs they were played.")


class FederationRatingsSerializer(serializers.Serializer):
    updated_at = serializers.DateTimeField(
        allow_null=True, help_text="When the ratings were last replayed."
    )
    pending = serializers.BooleanField(help_text="A change waits for the next replay.")
    results = FederationRatingRowSerializer(many=True)
