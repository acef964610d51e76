"""Clubs, memberships and players: each list shows only the caller's clubs; every write
goes through ``scorebook.clubs.services``, which checks the caller's role."""

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.authtoken.models import Token
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from api.lookups import found
from api.permissions import ClubRole
from api.serializers.clubs import (
    ClubSerializer,
    InvitationAcceptSerializer,
    InvitationSerializer,
    InvitationSignUpSerializer,
    MembershipSerializer,
    PlayerSerializer,
    PlayerUpdateSerializer,
    RoleSerializer,
    SignedUpSerializer,
)
from api.throttles import CountingThrottle
from scorebook.clubs import services
from scorebook.clubs.models import Membership, Player, Role
from scorebook.clubs.selectors import clubs_directed_by, clubs_of, open_invitations
from scorebook.core.people import signed_in


class ClubViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """Any signed-in user may found a club (and becomes its owner); owners change it, and
    directors its ``confirmation_policy``: what counts as a confirmation of a deal
    (``table_phone``: a tap on the table phone, a PIN or the player's own phone; ``pin``: a
    PIN or their own phone; ``own_phone``: only their own phone)."""

    serializer_class = ClubSerializer
    permission_classes = [IsAuthenticated, ClubRole]
    write_role = Role.OWNER
    filterset_fields = ["public"]
    http_method_names = ["get", "post", "patch"]

    def get_queryset(self):
        return clubs_of(self.request.user).order_by("name")

    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        club = services.club_create(user=signed_in(request), **serializer.validated_data)
        return Response(ClubSerializer(club).data, status=status.HTTP_201_CREATED)

    def partial_update(self, request, *args, **kwargs):
        # The service says who may change what (a director only the confirmation policy).
        club = found(self.get_queryset(), pk=kwargs["pk"])
        serializer = self.get_serializer(club, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        club = services.club_update(
            club=club, changes=serializer.validated_data, user=signed_in(request)
        )
        return Response(ClubSerializer(club).data)


class MembershipViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    """Directors manage members, never above their own role; a club keeps an owner.

    Nobody is added here: joining a club is an invitation the person accepts
    (``invitations``), so no username is looked up and nobody joins without consent."""

    serializer_class = MembershipSerializer
    permission_classes = [IsAuthenticated, ClubRole]
    write_role = Role.DIRECTOR
    filterset_fields = ["club", "role"]
    http_method_names = ["get", "patch", "delete"]

    def get_queryset(self):
        clubs = clubs_of(self.request.user)
        return Membership.objects.filter(club__in=clubs).select_related("user").order_by("id")

    @extend_schema(request=RoleSerializer, responses=MembershipSerializer)
    def partial_update(self, request, *args, **kwargs):
        """Change the role; nothing else of a membership changes."""
        membership = self.get_object()
        serializer = RoleSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        membership = services.membership_change(
            membership=membership, role=serializer.validated_data["role"], user=signed_in(request)
        )
        return Response(MembershipSerializer(membership).data)

    def perform_destroy(self, instance):
        services.membership_remove(membership=instance, user=signed_in(self.request))


class PlayerViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """Scorers add players (guests too) and link them to members' accounts."""

    serializer_class = PlayerSerializer
    permission_classes = [IsAuthenticated, ClubRole]
    write_role = Role.SCORER
    filterset_fields = ["club", "active", "guest"]
    http_method_names = ["get", "post", "patch"]

    def get_queryset(self):
        clubs = clubs_of(self.request.user)
        return Player.objects.filter(club__in=clubs).order_by("name")

    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        player = services.player_create(
            club=data["club"],
            name=data["name"],
            user=signed_in(request),
            linked_user=data.get("user"),
            guest=data.get("guest", False),
            active=data.get("active", True),
        )
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=PlayerUpdateSerializer, responses=PlayerSerializer)
    def partial_update(self, request, *args, **kwargs):
        player = self.get_object()
        serializer = PlayerUpdateSerializer(
            player, data=request.data, partial=True, context={"request": request}
        )
        serializer.is_valid(raise_exception=True)
        player = services.player_update(
            player=player, changes=serializer.validated_data, user=signed_in(request)
        )
        return Response(PlayerSerializer(player).data)


class SignUpThrottle(CountingThrottle):
    """New accounts per client address (rate: REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"])."""

    scope = "signup"


class InvitationViewSet(mixins.ListModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet):
    """Directors invite people to their club; the invitee accepts (``accept``).

    Nobody is added to a club without accepting: that is the only way in."""

    serializer_class = InvitationSerializer
    permission_classes = [IsAuthenticated]
    filterset_fields = ["club"]

    def get_queryset(self):
        """Open invitations of the clubs the caller directs (members see none)."""
        return open_invitations(clubs_directed_by(self.request.user))

    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        invitation = services.invitation_create(
            club=data["club"],
            role=data.get("role", Role.MEMBER),
            player=data.get("player"),
            max_uses=data.get("max_uses", 1),
            days=data.get("days", services.INVITATION_DAYS),
            user=signed_in(request),
        )
        return Response(self.get_serializer(invitation).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=InvitationAcceptSerializer, responses={201: MembershipSerializer})
    @action(detail=False, methods=["post"])
    def accept(self, request):
        """Join the club of the invitation, with its role."""
        serializer = InvitationAcceptSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        membership = services.invitation_accept(
            token=serializer.validated_data["token"], user=signed_in(request)
        )
        return Response(MembershipSerializer(membership).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=InvitationSignUpSerializer,
        responses={201: SignedUpSerializer},
        description=(
            "A new person accepts the invitation (no account needed): a username and a "
            "password, checked as the join page checks them, make the account, which joins "
            "the club with the invitation's role (and its player); the answer carries the "
            "new account's API token. Both or neither: a refused invitation makes no "
            "account. 400 `input.*` (username or password), `invitation.*`; 409 "
            "`user.username_taken`; 429 after too many sign-ups from one address."
        ),
    )
    @action(
        detail=False,
        methods=["post"],
        url_path="sign-up",
        permission_classes=[AllowAny],
        throttle_classes=[SignUpThrottle],
    )
    def sign_up(self, request):
        serializer = InvitationSignUpSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        membership = services.invitation_sign_up(
            token=data["token"], username=data["username"], password=data["password"]
        )
        token, _ = Token.objects.get_or_create(user=membership.user)
        answer = {"token": token.key, "membership": membership}
        return Response(SignedUpSerializer(answer).data, status=status.HTTP_201_CREATED)
