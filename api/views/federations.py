"""Federations (issue 34): founding one, its officers, member clubs and invitations,
federation numbers, and a person's links to players across clubs.

Routes (``/api/v1/``): ``federations`` and ``federations/{id}/...`` for the federation
itself (its officers, clubs, invitations, persons); ``federation-officers``,
``federation-invitations``, ``affiliations``, ``federation-numbers`` for the rows each
side acts on; ``person-links`` for links; ``public/federations/{slug}`` for a federation
that publishes. Every write goes through ``scorebook.federations.services``, which checks
the caller's office or club role and refuses in words. A federation the caller may not see
is 404 (``federation.not_found``), as another club's objects are; an officer reads no
club's nights, money or members."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.lookups import found
from api.serializers.championships import ChampionshipCreateSerializer, ChampionshipSerializer
from api.serializers.federations import (
    AffiliationSerializer,
    ClubInvitationSerializer,
    ClubInviteSerializer,
    FederationChangeSerializer,
    FederationPersonSerializer,
    FederationSerializer,
    LinkAcceptSerializer,
    LinkAskSerializer,
    LinkProposeSerializer,
    NumberSerializer,
    NumberSetSerializer,
    OfficerRoleSerializer,
    OfficerSerializer,
    PersonLinkSerializer,
    PublicFederationSerializer,
)
from api.views.public import PublicView
from scorebook.clubs.models import Player
from scorebook.clubs.selectors import clubs_directed_by, clubs_of
from scorebook.core.people import signed_in
from scorebook.federations import championship_selectors as championship_reads
from scorebook.federations import selectors
from scorebook.federations.models import (
    Affiliation,
    ClubInvitation,
    Federation,
    FederationNumber,
    Officer,
    OfficerRole,
    PersonLink,
)
from scorebook.federations.services import championships, links, membership, numbers
from scorebook.federations.services import federation as federations
from scorebook.federations.services.guards import require_officer


def _offices(user: Any) -> dict[int, str]:
    rows = Officer.objects.filter(user_id=user.pk).values_list("federation_id", "role")
    return dict(rows)


class FederationViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """The federations the caller sees: where they are an officer, those their clubs
    belong to, and those that publish. Any signed-in person founds one (and is its first
    president; a few a day per account); the president changes it."""

    serializer_class = FederationSerializer
    permission_classes = [IsAuthenticated]
    filterset_fields = ["level"]

    def get_queryset(self):
        return selectors.federations_visible(self.request.user)

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(), "offices": _offices(self.request.user)}

    def _federation(self) -> Federation:
        return found(self.get_queryset(), pk=self.kwargs["pk"])

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = FederationSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        made = federations.federation_create(
            name=data["name"],
            slug=data["slug"],
            level=data.get("level", "provincial"),
            publishes=data.get("publishes", False),
            user=signed_in(request),
        )
        return Response(self.get_serializer(made).data, status=201)

    @extend_schema(request=FederationChangeSerializer, responses=FederationSerializer)
    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        federation = self._federation()
        serializer = FederationChangeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        changed = federations.federation_update(
            federation=federation, changes=dict(serializer.validated_data), user=signed_in(request)
        )
        return Response(self.get_serializer(changed).data)

    @extend_schema(methods=["get"], responses=ChampionshipSerializer(many=True))
    @extend_schema(
        methods=["post"],
        request=ChampionshipCreateSerializer,
        responses={201: ChampionshipSerializer},
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None, filter_backends=[])
    def championships(self, request: Request, pk: Any = None) -> Response:
        """The federation's championships (GET); an officer creates one (POST): the game
        and house rules, tables per fixture, format, calendar (docs/federation.md)."""
        federation = self._federation()
        if request.method == "GET":
            rows = championship_reads.championships_of(federation)
            return Response(ChampionshipSerializer(rows, many=True).data)
        serializer = ChampionshipCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        made = championships.championship_create(
            federation=federation,
            rules_spec=data.pop("rules", None),
            user=signed_in(request),
            **data,
        )
        return Response(ChampionshipSerializer(made).data, status=201)

    @extend_schema(methods=["get"], responses=OfficerSerializer(many=True))
    @extend_schema(methods=["post"], request=OfficerSerializer, responses={201: OfficerSerializer})
    @action(detail=True, methods=["get", "post"], pagination_class=None, filter_backends=[])
    def officers(self, request: Request, pk: Any = None) -> Response:
        """The officers, presidents first (GET); the president names one (POST)."""
        federation = self._federation()
        if request.method == "GET":
            return Response(OfficerSerializer(selectors.officers(federation), many=True).data)
        serializer = OfficerSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        office = federations.officer_add(
            federation=federation,
            username=serializer.validated_data["user"]["username"],
            role=serializer.validated_data.get("role", OfficerRole.OFFICER),
            user=signed_in(request),
        )
        return Response(OfficerSerializer(office).data, status=201)

    @extend_schema(responses=AffiliationSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def clubs(self, request: Request, pk: Any = None) -> Response:
        """Every period of every member club (current first): name, address, joined, left."""
        rows = selectors.affiliations(self._federation()).select_related("federation")
        return Response(AffiliationSerializer(rows, many=True).data)

    @extend_schema(methods=["get"], responses=ClubInvitationSerializer(many=True))
    @extend_schema(
        methods=["post"], request=ClubInviteSerializer, responses={201: ClubInvitationSerializer}
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None, filter_backends=[])
    def invitations(self, request: Request, pk: Any = None) -> Response:
        """The open invitations (officers); a secretary invites a club by its address."""
        federation = self._federation()
        if request.method == "GET":
            require_officer(signed_in(request), federation.pk, OfficerRole.OFFICER)
            rows = selectors.open_club_invitations(federation=federation)
            return Response(ClubInvitationSerializer(rows, many=True).data)
        serializer = ClubInviteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        invitation = membership.club_invite(
            federation=federation,
            slug=serializer.validated_data["club"],
            days=serializer.validated_data["days"],
            user=signed_in(request),
        )
        return Response(ClubInvitationSerializer(invitation).data, status=201)

    @extend_schema(responses=FederationPersonSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def persons(self, request: Request, pk: Any = None) -> Response:
        """The federation's persons (officers): number, username, linked players' names
        and clubs. Nothing else of any club."""
        federation = self._federation()
        require_officer(signed_in(request), federation.pk, OfficerRole.OFFICER)
        rows = selectors.federation_persons(federation)
        return Response(FederationPersonSerializer(rows, many=True).data)


class OfficerViewSet(viewsets.GenericViewSet):
    """An office: the president changes its role or removes it; an officer steps down."""

    serializer_class = OfficerSerializer
    permission_classes = [IsAuthenticated]
    http_method_names = ["patch", "delete"]

    def get_queryset(self):
        visible = selectors.federations_visible(self.request.user)
        return Officer.objects.filter(federation__in=visible).select_related("user")

    @extend_schema(request=OfficerRoleSerializer, responses=OfficerSerializer)
    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        office = self.get_object()
        serializer = OfficerRoleSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        office = federations.officer_change(
            officer=office, role=serializer.validated_data["role"], user=signed_in(request)
        )
        return Response(OfficerSerializer(office).data)

    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        federations.officer_remove(officer=self.get_object(), user=signed_in(request))
        return Response(status=204)


class ClubInvitationViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """Invitations to the caller's clubs and of the federations they are an officer of.
    The club's owner accepts or declines; a secretary withdraws."""

    serializer_class = ClubInvitationSerializer
    permission_classes = [IsAuthenticated]
    filterset_fields = ["status", "club", "federation"]

    def get_queryset(self):
        user = self.request.user
        mine = Q(club__in=clubs_of(user)) | Q(federation__in=selectors.federations_officered(user))
        return ClubInvitation.objects.filter(mine).select_related("club", "federation")

    @extend_schema(request=None, responses={201: AffiliationSerializer})
    @action(detail=True, methods=["post"])
    def accept(self, request: Request, pk: Any = None) -> Response:
        """The club's owner accepts: the club joins the federation."""
        joined = membership.club_invitation_accept(
            invitation=self.get_object(), user=signed_in(request)
        )
        return Response(AffiliationSerializer(joined).data, status=201)

    @extend_schema(request=None, responses=ClubInvitationSerializer)
    @action(detail=True, methods=["post"])
    def decline(self, request: Request, pk: Any = None) -> Response:
        """The club's owner declines: the club does not join."""
        answered = membership.club_invitation_decline(
            invitation=self.get_object(), user=signed_in(request)
        )
        return Response(ClubInvitationSerializer(answered).data)

    @extend_schema(request=None, responses=ClubInvitationSerializer)
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, pk: Any = None) -> Response:
        """A secretary withdraws an invitation not answered yet."""
        answered = membership.club_invitation_withdraw(
            invitation=self.get_object(), user=signed_in(request)
        )
        return Response(ClubInvitationSerializer(answered).data)


class AffiliationViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """The periods of the caller's clubs in federations, and of the federations they are an
    officer of. The club's owner takes the club out (its history stays)."""

    serializer_class = AffiliationSerializer
    permission_classes = [IsAuthenticated]
    filterset_fields = ["club", "federation"]

    def get_queryset(self):
        user = self.request.user
        mine = Q(club__in=clubs_of(user)) | Q(federation__in=selectors.federations_officered(user))
        return Affiliation.objects.filter(mine).select_related("club", "federation")

    @extend_schema(request=None, responses=AffiliationSerializer)
    @action(detail=True, methods=["post"])
    def leave(self, request: Request, pk: Any = None) -> Response:
        """The club's owner takes the club out of the federation."""
        left = membership.club_leave(affiliation=self.get_object(), user=signed_in(request))
        return Response(AffiliationSerializer(left).data)


class NumberViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """The caller's own federation numbers (GET); a secretary sets a person's number to
    the card they already have (PATCH)."""

    serializer_class = NumberSerializer
    permission_classes = [IsAuthenticated]
    http_method_names = ["get", "patch"]

    def get_queryset(self):
        user = self.request.user
        if self.action == "list":
            return selectors.numbers_of(user)
        officered = selectors.federations_officered(user)
        rows = FederationNumber.objects.filter(Q(federation__in=officered) | Q(user_id=user.pk))
        return rows.select_related("federation")

    @extend_schema(request=NumberSetSerializer, responses=NumberSerializer)
    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        row = self.get_object()
        serializer = NumberSetSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        row = numbers.number_set(
            row=row, number=serializer.validated_data["number"], user=signed_in(request)
        )
        return Response(NumberSerializer(row).data)


class PersonLinkViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Links between an account and a club's player: the caller's own, and those of the
    clubs they direct. A director proposes (POST) and the person accepts; or the person
    asks (``ask``) and a director accepts naming the player. Either side removes it."""

    serializer_class = PersonLinkSerializer
    permission_classes = [IsAuthenticated]
    filterset_fields = ["club", "status"]

    def get_queryset(self):
        user = self.request.user
        mine = Q(user_id=user.pk) | Q(club__in=clubs_directed_by(user))
        return PersonLink.objects.filter(mine).select_related("club", "player", "user")

    @extend_schema(request=LinkProposeSerializer, responses={201: PersonLinkSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """A director proposes that an account is one of the club's players."""
        serializer = LinkProposeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player = found(
            Player.objects.filter(club__in=clubs_of(request.user)),
            pk=serializer.validated_data["player"],
        )
        link = links.person_link_propose(
            player=player, username=serializer.validated_data["username"], user=signed_in(request)
        )
        return Response(PersonLinkSerializer(link).data, status=201)

    @extend_schema(request=LinkAskSerializer, responses={201: PersonLinkSerializer})
    @action(detail=False, methods=["post"])
    def ask(self, request: Request) -> Response:
        """The person asks a club (by its address) to link them to their player there."""
        serializer = LinkAskSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        link = links.person_link_ask(
            slug=serializer.validated_data["club"], user=signed_in(request)
        )
        return Response(PersonLinkSerializer(link).data, status=201)

    @extend_schema(request=LinkAcceptSerializer, responses=PersonLinkSerializer)
    @action(detail=True, methods=["post"])
    def accept(self, request: Request, pk: Any = None) -> Response:
        """The other side accepts: the person a director's proposal, a director the
        person's request (naming ``player``)."""
        link = self.get_object()
        serializer = LinkAcceptSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player = None
        if "player" in serializer.validated_data:
            player = found(
                Player.objects.filter(club__in=clubs_of(request.user)),
                pk=serializer.validated_data["player"],
            )
        link = links.person_link_accept(link=link, player=player, user=signed_in(request))
        return Response(PersonLinkSerializer(link).data)

    @extend_schema(request=None, responses=PersonLinkSerializer)
    @action(detail=True, methods=["post"])
    def decline(self, request: Request, pk: Any = None) -> Response:
        """The other side says no."""
        link = links.person_link_decline(link=self.get_object(), user=signed_in(request))
        return Response(PersonLinkSerializer(link).data)

    @extend_schema(request=None, responses=PersonLinkSerializer)
    @action(detail=True, methods=["post"])
    def remove(self, request: Request, pk: Any = None) -> Response:
        """Either side removes the link (or withdraws it while it waits)."""
        link = links.person_link_remove(link=self.get_object(), user=signed_in(request))
        return Response(PersonLinkSerializer(link).data)


class PublicFederation(PublicView, APIView):
    """A federation that publishes: name, level, member clubs. Never any money."""

    @extend_schema(responses=PublicFederationSerializer)
    def get(self, request: Request, slug: str) -> Response:
        federation = found(Federation.objects.filter(publishes=True), slug=slug)
        data = {
            "name": federation.name,
            "slug": federation.slug,
            "level": federation.level,
            "clubs": selectors.member_clubs(federation),
        }
        return Response(PublicFederationSerializer(data).data)
