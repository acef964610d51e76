"""Federations (issue 34): the federation, its officers, member clubs, invitations,
federation numbers and a person's links to players. What an officer reads of a club is
its name and address, never its nights, money or members."""

from __future__ import annotations

from rest_framework import serializers

from api.serializers.me import ClubBriefSerializer, PlayerBriefSerializer
from scorebook.core.numbers import MAX_ID
from scorebook.federations.models import (
    Affiliation,
    ClubInvitation,
    Federation,
    FederationNumber,
    Level,
    Officer,
    OfficerRole,
    PersonLink,
)
from scorebook.federations.services.membership import INVITATION_DAYS, INVITATION_MAX_DAYS
from scorebook.federations.services.numbers import NUMBER_MAX


class FederationSerializer(serializers.ModelSerializer):
    """A federation; ``role`` is the caller's office in it (blank: none)."""

    role = serializers.SerializerMethodField()

    class Meta:
        model = Federation
        fields = ["id", "name", "slug", "level", "publishes", "role", "created_at"]
        # A slug already in use is the service's 409 (races included), not a 400 here.
        extra_kwargs: dict[str, dict[str, list[object]]] = {"slug": {"validators": []}}

    def get_role(self, federation: Federation) -> str:
        offices: dict[int, str] = self.context.get("offices", {})
        return offices.get(federation.pk, "")


class FederationChangeSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    slug = serializers.SlugField(max_length=60, required=False)
    level = serializers.ChoiceField(choices=Level.choices, required=False)
    publishes = serializers.BooleanField(required=False)


class FederationBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()
    level = serializers.ChoiceField(choices=Level.choices)


class OfficerSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", max_length=150)

    class Meta:
        model = Officer
        fields = ["id", "federation", "username", "role", "created_at"]
        read_only_fields = ["federation"]


class OfficerRoleSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=OfficerRole.choices)


class AffiliationSerializer(serializers.ModelSerializer):
    """One period of a club's membership (``left_at`` blank: a member now)."""

    club = ClubBriefSerializer()
    federation = FederationBriefSerializer()

    class Meta:
        model = Affiliation
        fields = ["id", "federation", "club", "joined_at", "left_at"]
        validators: list[object] = []  # read only; "taken" is the services' 409


class ClubInvitationSerializer(serializers.ModelSerializer):
    club = ClubBriefSerializer()
    federation = FederationBriefSerializer()

    class Meta:
        model = ClubInvitation
        fields = ["id", "federation", "club", "status", "created_at", "expires_at", "answered_at"]
        validators: list[object] = []  # read only; "taken" is the services' 409


class ClubInviteSerializer(serializers.Serializer):
    club = serializers.SlugField(max_length=60, help_text="The club's address (its slug).")
    days = serializers.IntegerField(
        min_value=1,
        max_value=INVITATION_MAX_DAYS,
        default=INVITATION_DAYS,
        help_text="How many days the owner has to answer.",
    )


class LinkedPlayerSerializer(serializers.Serializer):
    club = ClubBriefSerializer()
    name = serializers.CharField()


class FederationPersonSerializer(serializers.Serializer):
    """A person of the federation: their number (its row's id to change it), username and
    linked players in the current member clubs."""

    id = serializers.IntegerField(source="number.pk")
    number = serializers.IntegerField(source="number.number")
    username = serializers.CharField(source="user.username")
    players = LinkedPlayerSerializer(many=True)


class NumberSerializer(serializers.ModelSerializer):
    federation = FederationBriefSerializer()

    class Meta:
        model = FederationNumber
        fields = ["id", "federation", "number", "assigned_at"]
        validators: list[object] = []  # read only; "taken" is the services' 409


class NumberSetSerializer(serializers.Serializer):
    number = serializers.IntegerField(min_value=1, max_value=NUMBER_MAX)


class PersonLinkSerializer(serializers.ModelSerializer):
    """A link between an account and a club's player, with who began it and its state.
    The club's directors and the person see it; nobody else."""

    club = ClubBriefSerializer()
    player = PlayerBriefSerializer(allow_null=True)
    username = serializers.CharField(source="user.username")

    class Meta:
        model = PersonLink
        fields = [
            "id",
            "club",
            "player",
            "username",
            "origin",
            "status",
            "proposed_at",
            "answered_at",
            "removed_at",
        ]
        validators: list[object] = []  # read only; "taken" is the services' 409


class LinkProposeSerializer(serializers.Serializer):
    player = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text="A player of a club you direct."
    )
    username = serializers.CharField(max_length=150, help_text="The person's account.")


class LinkAskSerializer(serializers.Serializer):
    club = serializers.SlugField(max_length=60, help_text="The club's address (its slug).")


class LinkAcceptSerializer(serializers.Serializer):
    player = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        help_text="A director accepting a person's request names the club's player they are.",
    )


class PublicFederationSerializer(serializers.Serializer):
    """A federation that publishes: its name, level and member clubs (never any money)."""

    name = serializers.CharField()
    slug = serializers.CharField()
    level = serializers.ChoiceField(choices=Level.choices)
    clubs = ClubBriefSerializer(many=True)
