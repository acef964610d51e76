"""Clubs, memberships and players: each list shows only the caller's clubs."""

from django.db import transaction
from rest_framework import mixins, viewsets
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import IsAuthenticated

from api.idempotency import idempotent
from api.permissions import ClubRole, needs_role
from api.serializers.clubs import ClubSerializer, MembershipSerializer, PlayerSerializer
from scorebook.clubs.models import Membership, Player, Role
from scorebook.clubs.selectors import clubs_of, membership_of


def require(user, club_id, role):
    membership = membership_of(user, club_id)
    if membership is None or not membership.at_least(role):
        raise PermissionDenied(needs_role(role))


class ClubViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
    mixins.UpdateModelMixin, viewsets.GenericViewSet,
):  # fmt: skip
    serializer_class = ClubSerializer
    permission_classes = [IsAuthenticated, ClubRole]
    write_role = Role.OWNER
    filterset_fields = ["public"]

    def get_queryset(self):
        return clubs_of(self.request.user).order_by("name")

    @idempotent
    def create(self, request, *args, **kwargs):
        return super().create(request, *args, **kwargs)

    @transaction.atomic
    def perform_create(self, serializer):
        club = serializer.save()
        Membership.objects.create(club=club, user=self.request.user, role=Role.OWNER)


class MembershipViewSet(viewsets.ModelViewSet):
    serializer_class = MembershipSerializer
    permission_classes = [IsAuthenticated, ClubRole]
    write_role = Role.DIRECTOR
    filterset_fields = ["club", "role"]
    http_method_names = ["get", "post", "patch", "delete"]

    def get_queryset(self):
        clubs = clubs_of(self.request.user)
        return Membership.objects.filter(club__in=clubs).select_related("user").order_by("id")

    @idempotent
    def create(self, request, *args, **kwargs):
        return super().create(request, *args, **kwargs)

    def perform_create(self, serializer):
        require(self.request.user, serializer.validated_data["club"].pk, Role.DIRECTOR)
        serializer.save()


class PlayerViewSet(viewsets.ModelViewSet):
    serializer_class = PlayerSerializer
    permission_classes = [IsAuthenticated, ClubRole]
    write_role = Role.SCORER
    filterset_fields = ["club", "active", "guest"]
    http_method_names = ["get", "post", "patch"]

    def get_queryset(self):
        clubs = clubs_of(self.request.user)
        return Player.objects.filter(club__in=clubs).order_by("name")

    @idempotent
    def create(self, request, *args, **kwargs):
        return super().create(request, *args, **kwargs)

    def perform_create(self, serializer):
        require(self.request.user, serializer.validated_data["club"].pk, Role.SCORER)
        serializer.save()
