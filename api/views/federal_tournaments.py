"""Federal tournaments and the federation ranking (issue 34 items 4 and 5).

Routes (``/api/v1/``): ``federations/{id}/tournaments`` (list; an officer announces),
``federal-tournaments/{id}`` and its ``cancel`` (officer), ``open`` (the host's director,
on the host's night) and ``registrations`` (list; a person registers a pair);
``federal-registrations/{id}/withdraw``; ``federations/{id}/ranking`` (today's) and
``federations/{id}/ranking/{user_id}`` (a person's history); ``public/federations/{slug}/
ranking`` for a federation that publishes; the rating across the member clubs beside them
(``federations/{id}/ratings``, ``federations/{id}/ratings/{user_id}``,
``public/federations/{slug}/ratings``). A federation the caller may not see is 404;
every write goes through ``scorebook.federations.services.federal_tournaments``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.lookups import found
from api.serializers.federal_tournaments import (
    FederalAnnounceSerializer,
    FederalResultSerializer,
    FederalTournamentSerializer,
    FederationRatingRowSerializer,
    FederationRatingsSerializer,
    OpenSerializer,
    RankRowSerializer,
    ReasonSerializer,
    RegisterSerializer,
    RegistrationSerializer,
)
from api.views.public import PublicView
from scorebook.clubs.models import Role
from scorebook.clubs.selectors import membership_of
from scorebook.core.people import signed_in
from scorebook.federations import ranking, ratings, selectors
from scorebook.federations.models import FederalRegistration, FederalTournament, Federation
from scorebook.federations.services import federal_tournaments as federal
from scorebook.matches.models import Night


def _visible(user: Any):
    return FederalTournament.objects.filter(
        federation__in=selectors.federations_visible(user)
    ).select_related("host", "tournament")


def _sees_money(user: Any, row: FederalTournament) -> bool:
    if selectors.is_officer(user, row.federation_id):
        return True
    membership = membership_of(user, row.host_id)
    return membership is not None and membership.role in (Role.DIRECTOR, Role.OWNER)


def tournament_answer(row: FederalTournament, user: Any) -> dict[str, Any]:
    size, placed = ranking.placings(row)
    live = row.registrations.values_list("status", flat=True)
    money = _sees_money(user, row)
    return {
        **{f: getattr(row, f) for f in FederalTournamentSerializer.Meta.fields if hasattr(row, f)},
        "federation": row.federation_id,
        "tournament": row.tournament_id,
        "host": row.host,
        "registered": sum(1 for s in live if s == FederalRegistration.Status.REGISTERED),
        "waiting": sum(1 for s in live if s == FederalRegistration.Status.WAITING),
        "finished": ranking.is_finished(row),
        "field": size,
        "placings": [
            {"place": p.place, "persons": [u.username for u in p.persons], "points": p.points}
            for p in placed
        ],
        "fee": row.fee if money else None,
        "federation_share": row.federation_share if money else None,
        "currency": row.currency if money else None,
    }


def _registration(row: FederalRegistration) -> dict[str, Any]:
    return {
        "id": row.pk,
        "federal_tournament": row.federal_tournament_id,
        "first": row.first,
        "second": row.second,
        "status": row.status,
        "waiting_position": ranking.waiting_position(row),
        "created_at": row.created_at,
        "withdrawn_at": row.withdrawn_at,
    }


class FederationTournaments(APIView):
    """The federation's tournaments, latest first (who sees the federation); an officer
    announces one."""

    permission_classes = [IsAuthenticated]

    def _federation(self, request: Request, pk: int) -> Federation:
        return found(selectors.federations_visible(request.user), pk=pk)

    @extend_schema(responses=FederalTournamentSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        federation = self._federation(request, pk)
        rows = ranking.federal_tournaments(federation)
        answer = [tournament_answer(row, request.user) for row in rows]
        return Response(FederalTournamentSerializer(answer, many=True).data)

    @extend_schema(request=FederalAnnounceSerializer, responses={201: FederalTournamentSerializer})
    def post(self, request: Request, pk: int) -> Response:
        federation = self._federation(request, pk)
        serializer = FederalAnnounceSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = signed_in(request)
        made = federal.federal_tournament_announce(
            federation=federation, user=user, **serializer.validated_data
        )
        return Response(FederalTournamentSerializer(tournament_answer(made, user)).data, status=201)


class FederalTournamentViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A federal tournament of a federation the caller sees."""

    serializer_class = FederalTournamentSerializer
    permission_classes = [IsAuthenticated]

    def get_queryset(self):
        return _visible(self.request.user)

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(
            self.get_serializer(tournament_answer(self.get_object(), request.user)).data
        )

    @extend_schema(request=ReasonSerializer, responses=FederalTournamentSerializer)
    @action(detail=True, methods=["post"])
    def cancel(self, request: Request, pk: Any = None) -> Response:
        """An officer calls off a tournament not yet opened."""
        serializer = ReasonSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = signed_in(request)
        row = federal.federal_tournament_cancel(
            federal_tournament=self.get_object(),
            reason=serializer.validated_data["reason"],
            user=user,
        )
        return Response(self.get_serializer(tournament_answer(row, user)).data)

    @extend_schema(request=OpenSerializer, responses=FederalTournamentSerializer)
    @action(detail=True, methods=["post"])
    def open(self, request: Request, pk: Any = None) -> Response:
        """The host's director opens it on the host's night of its date: the host's
        tournament is made with the registered pairs entered (``tournament``: its id)."""
        row = self.get_object()
        serializer = OpenSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        night = found(
            Night.objects.filter(club_id=row.host_id), pk=serializer.validated_data["night"]
        )
        user = signed_in(request)
        federal.federal_tournament_open(federal_tournament=row, night=night, user=user)
        row.refresh_from_db()
        return Response(self.get_serializer(tournament_answer(row, user)).data)

    @extend_schema(methods=["get"], responses=RegistrationSerializer(many=True))
    @extend_schema(
        methods=["post"], request=RegisterSerializer, responses={201: RegistrationSerializer}
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None, filter_backends=[])
    def registrations(self, request: Request, pk: Any = None) -> Response:
        """Every pair registered, waiting or withdrawn (GET); the signed-in person
        registers a pair with their partner (POST)."""
        row = self.get_object()
        if request.method == "GET":
            rows = [_registration(r) for r in ranking.registrations(row)]
            return Response(RegistrationSerializer(rows, many=True).data)
        serializer = RegisterSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        made = federal.registration_add(
            federal_tournament=row,
            partner=serializer.validated_data["partner"],
            user=signed_in(request),
        )
        return Response(RegistrationSerializer(_registration(made)).data, status=201)


class FederalRegistrationViewSet(viewsets.GenericViewSet):
    """A registration of a tournament of a federation the caller sees."""

    serializer_class = RegistrationSerializer
    permission_classes = [IsAuthenticated]

    def get_queryset(self):
        return FederalRegistration.objects.filter(
            federal_tournament__federation__in=selectors.federations_visible(self.request.user)
        ).select_related("first", "second", "federal_tournament")

    @extend_schema(request=None, responses=RegistrationSerializer)
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, pk: Any = None) -> Response:
        """Either person of the pair (or an officer) withdraws it before the night."""
        row = federal.registration_withdraw(registration=self.get_object(), user=signed_in(request))
        return Response(RegistrationSerializer(_registration(row)).data)


def ranking_rows(federation: Federation) -> list[dict[str, Any]]:
    return [
        {
            "position": r.position,
            "user": r.user,
            "number": r.number,
            "points": r.points,
            "best": r.best,
            "tournaments": len(r.results),
        }
        for r in ranking.board(federation).rows
    ]


class FederationRanking(APIView):
    """The federation ranking by federal points over twelve months (who sees the
    federation)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=RankRowSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        federation = found(selectors.federations_visible(request.user), pk=pk)
        return Response(RankRowSerializer(ranking_rows(federation), many=True).data)


class FederationPersonHistory(APIView):
    """A person's results at the federation's tournaments, latest first."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses=FederalResultSerializer(many=True), operation_id="v1_federations_ranking_history"
    )
    def get(self, request: Request, pk: int, user_id: int) -> Response:
        federation = found(selectors.federations_visible(request.user), pk=pk)
        person = found(get_user_model().objects.filter(is_active=True), pk=user_id)
        first, _last = ranking.window()
        rows = [
            {**vars(r), "counts": r.federal.date >= first}
            for r in ranking.person_history(federation, person.pk)
        ]
        return Response(FederalResultSerializer(rows, many=True).data)


class PublicFederationRanking(PublicView, APIView):
    """The ranking of a federation that publishes: position, username, number, points."""

    @extend_schema(responses=RankRowSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        federation = found(Federation.objects.filter(publishes=True), slug=slug)
        return Response(RankRowSerializer(ranking_rows(federation), many=True).data)


def ratings_answer(federation: Federation) -> dict[str, Any]:
    """Every game's rows (each row names its game), best first within each game."""
    fresh = ratings.freshness(federation)
    return {
        "updated_at": fresh.built_at if fresh else None,
        "pending": bool(fresh and fresh.pending),
        "results": ratings.table(federation),
    }


class FederationRatings(APIView):
    """The federation's openskill rating across its member clubs, per game (who sees the
    federation): persons only, best first."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=FederationRatingsSerializer)
    def get(self, request: Request, pk: int) -> Response:
        federation = found(selectors.federations_visible(request.user), pk=pk)
        answer = ratings_answer(federation)
        return Response(FederationRatingsSerializer(answer).data)


class FederationPersonRatings(APIView):
    """A person's ratings across the federation's member clubs, one per game."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses=FederationRatingRowSerializer(many=True),
        operation_id="v1_federations_ratings_person",
    )
    def get(self, request: Request, pk: int, user_id: int) -> Response:
        federation = found(selectors.federations_visible(request.user), pk=pk)
        person = found(get_user_model().objects.filter(is_active=True), pk=user_id)
        rows = ratings.person_ratings(federation, person.pk)
        return Response(FederationRatingRowSerializer(rows, many=True).data)


class PublicFederationRatings(PublicView, APIView):
    """The ratings of a federation that publishes (anyone)."""

    @extend_schema(responses=FederationRatingsSerializer)
    def get(self, request: Request, slug: str) -> Response:
        federation = found(Federation.objects.filter(publishes=True), slug=slug)
        answer = ratings_answer(federation)
        return Response(FederationRatingsSerializer(answer).data)
