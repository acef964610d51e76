"""Who am I: the signed-in person, their clubs with their role, their player in each."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from scorebook.clubs.models import Membership, Player, Role


class ClubBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()


class PlayerBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class MyClubSerializer(serializers.Serializer):
    """A club of mine: my membership and role there, and my player there (null: no
    player of that club is linked to my account)."""

    club = ClubBriefSerializer()
    membership = serializers.IntegerField(source="membership.id")
    role = serializers.ChoiceField(choices=Role.choices, source="membership.role")
    player = PlayerBriefSerializer(allow_null=True)


class MeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    clubs = MyClubSerializer(many=True)


def me_data(user: Any, memberships: list[tuple[Membership, Player | None]]) -> dict[str, Any]:
    clubs = [
        {"club": membership.club, "membership": membership, "player": player}
        for membership, player in memberships
    ]
    return dict(MeSerializer({"id": user.pk, "username": user.get_username(), "clubs": clubs}).data)
