from django.contrib.auth import get_user_model
from rest_framework import serializers

from scorebook.clubs.models import Club, Membership, Player, Role


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "public", "created_at"]


class MembershipSerializer(serializers.ModelSerializer):
    username = serializers.SlugRelatedField(
        source="user",
        slug_field="username",
        queryset=get_user_model().objects.all(),
        help_text="The user account to add, by its username.",
    )

    class Meta:
        model = Membership
        fields = ["id", "club", "user", "username", "role", "created_at"]
        read_only_fields = ["user"]


class RoleSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=Role.choices)


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "club", "name", "user", "guest", "active", "created_at"]


class PlayerUpdateSerializer(serializers.ModelSerializer):
    """A player stays in its club: the club cannot change."""

    class Meta:
        model = Player
        fields = ["name", "user", "guest", "active"]
