from typing import Any

from django.contrib.auth import get_user_model
from django.urls import reverse
from rest_framework import serializers

from api.scoping import OwnClubsField
from scorebook.clubs.models import Club, Invitation, Membership, Player, Role
from scorebook.clubs.selectors import clubs_of
from scorebook.clubs.services import INVITATION_MAX_DAYS, INVITATION_MAX_USES
from scorebook.clubs.signup import NewAccountForm


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "public", "confirmation_policy", "created_at"]
        # A slug already in use is the service's 409 (races included), not a 400 here.
        extra_kwargs: dict[str, dict[str, list[object]]] = {"slug": {"validators": []}}


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
        validators: list = []  # a second membership is the service's 409


class RoleSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=Role.choices)


class PlayerSerializer(serializers.ModelSerializer):
    club = OwnClubsField(queryset=Club.objects.all())
    user = OwnClubsField(
        queryset=get_user_model().objects.all(),
        required=False,
        allow_null=True,
        help_text="A member's account: your own, or theirs through an invitation.",
    )

    class Meta:
        model = Player
        fields = ["id", "club", "name", "user", "guest", "active", "created_at"]
        validators: list = []  # a name already in the club is the service's 409


class PlayerUpdateSerializer(serializers.ModelSerializer):
    """A player stays in its club: the club cannot change."""

    user = OwnClubsField(queryset=get_user_model().objects.all(), required=False, allow_null=True)

    class Meta:
        model = Player
        fields = ["name", "user", "guest", "active"]


class ClubOfCaller(serializers.PrimaryKeyRelatedField):
    """A club of the caller: another club's id is as unknown as a missing one."""

    def get_queryset(self):
        return clubs_of(self.context["request"].user)


class PlayerOfCallersClubs(serializers.PrimaryKeyRelatedField):
    def get_queryset(self):
        return Player.objects.filter(club__in=clubs_of(self.context["request"].user))


class InvitationSerializer(serializers.ModelSerializer):
    """An invitation to join a club: share ``url`` (or its QR code on the invite page)."""

    club = ClubOfCaller()
    player = PlayerOfCallersClubs(
        required=False,
        allow_null=True,
        help_text="A player without an account whom the invitee becomes.",
    )
    days = serializers.IntegerField(
        write_only=True,
        required=False,
        min_value=1,
        max_value=INVITATION_MAX_DAYS,
        help_text="How many days the invitation lasts (default 7).",
    )
    max_uses = serializers.IntegerField(required=False, min_value=1, max_value=INVITATION_MAX_USES)
    url = serializers.SerializerMethodField(help_text="The join link to share.")

    class Meta:
        model = Invitation
        fields = [
            "id",
            "club",
            "role",
            "player",
            "token",
            "url",
            "max_uses",
            "uses",
            "days",
            "expires_at",
            "created_at",
        ]
        read_only_fields = ["token", "uses", "expires_at", "created_at"]

    def get_url(self, invitation: Invitation) -> str:
        path = reverse("web:join", args=[invitation.token])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request else path


class InvitationAcceptSerializer(serializers.Serializer):
    token = serializers.CharField(max_length=64, help_text="The token of the join link.")


class InvitationSignUpSerializer(serializers.Serializer):
    """A new person joins with an invitation: the join page's rules (Django's username
    rules, the password validators in settings), checked by the same form."""

    token = serializers.CharField(max_length=64, help_text="The token of the join link.")
    username = serializers.CharField(
        max_length=150, help_text="Letters, digits and @ . + - _, at most 150."
    )
    password = serializers.CharField(
        max_length=4096, trim_whitespace=False, style={"input_type": "password"}
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        form = NewAccountForm(
            data={
                "username": data["username"],
                "password1": data["password"],
                "password2": data["password"],
            }
        )
        if not form.is_valid():
            paths = {"password1": "password", "password2": "password"}
            raise serializers.ValidationError(
                {
                    paths.get(field, field): [
                        serializers.ErrorDetail(" ".join(e.messages), code=e.code or "invalid")
                        for e in errors
                    ]
                    for field, errors in form.errors.as_data().items()
                }
            )
        return {**data, "username": form.cleaned_data["username"]}


class SignedUpSerializer(serializers.Serializer):
    """The new person's API token and their membership of the club."""

    token = serializers.CharField()
    membership = MembershipSerializer()
