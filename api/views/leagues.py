"""Leagues and their tables.

Members read; directors create, configure, start a league (round robin or knockout),
add entries and withdraw them. The services check the roles and refuse with ``Refusal``s,
mapped by ``api.errors``. Public versions (no login) serve the clubs that publish their
results. Fixtures are in ``api.views.fixtures``, player statistics in
``api.views.statistics``.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.lookups import found
from api.permissions import ClubRole
from api.serializers.leagues import (
    KnockoutStageSerializer,
    LeagueChangeSerializer,
    LeagueEntrySerializer,
    LeagueSerializer,
    PublicStandingsSerializer,
    StandingsSerializer,
    WithdrawSerializer,
    standings_data,
)
from api.serializers.public import PublicLeagueSerializer
from api.views.public import PublicView, public_club
from scorebook.clubs.models import Club, Role
from scorebook.clubs.selectors import clubs_of
from scorebook.core.people import signed_in
from scorebook.ledger.exports import as_csv
from scorebook.sharing import noticeboard
from scorebook.standings.leagues import selectors as tables
from scorebook.standings.leagues import services as leagues
from scorebook.standings.models import League, LeagueEntry


def standings_csv(table: tables.LeagueTable) -> HttpResponse:
    """The league table as CSV, as a secretary files it."""
    response = HttpResponse(
        as_csv(tables.league_sheet(table)), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="league-{table.league.pk}.csv"'
    return response


# -- members' endpoints ---------------------------------------------------------------------


class LeagueViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A club's leagues. The table is computed from the fixtures' matches when read."""

    serializer_class = LeagueSerializer
    permission_classes = [IsAuthenticated, ClubRole]
    write_role = Role.DIRECTOR
    filterset_fields = ["club"]

    def get_queryset(self):
        return League.objects.filter(club__in=clubs_of(self.request.user)).order_by("-id")

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = LeagueSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        club: Club = data.pop("club")
        league = leagues.league_create(club=club, user=signed_in(request), **data)
        return Response(LeagueSerializer(league).data, status=201)

    @extend_schema(request=LeagueChangeSerializer, responses=LeagueSerializer)
    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        league = self.get_object()
        serializer = LeagueChangeSerializer(league, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        league = leagues.league_update(
            league=league, changes=dict(serializer.validated_data), user=signed_in(request)
        )
        return Response(LeagueSerializer(league).data)

    @extend_schema(methods=["get"], responses=LeagueEntrySerializer(many=True))
    @extend_schema(
        methods=["post"], request=LeagueEntrySerializer, responses={201: LeagueEntrySerializer}
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None, filter_backends=[])
    def entries(self, request: Request, pk: Any = None) -> Response:
        """The entries (GET), or add one before the league starts (POST, directors)."""
        league = self.get_object()
        if request.method == "GET":
            return Response(LeagueEntrySerializer(tables.league_entries(league), many=True).data)
        return self._add_entry(request, league)

    def _add_entry(self, request: Request, league: League) -> Response:
        serializer = LeagueEntrySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entry = leagues.entry_add(
            league=league,
            name=serializer.validated_data["name"],
            player_ids=serializer.validated_data["players"],
            user=signed_in(request),
        )
        return Response(LeagueEntrySerializer(entry).data, status=201)

    @extend_schema(request=None, responses=LeagueSerializer)
    @action(detail=True, methods=["post"])
    def start(self, request: Request, pk: Any = None) -> Response:
        """Make the fixtures (circle method) and draw the lots, once."""
        league = leagues.league_start(league=self.get_object(), user=signed_in(request))
        return Response(LeagueSerializer(league).data)

    @extend_schema(
        request=KnockoutStageSerializer,
        responses={201: LeagueSerializer},
        description=(
            "Directors: make a knockout stage from this round robin: a new knockout league "
            "(a draft, to start) of the top `top` entries of the table, seeded in table "
            "order. 400 `league.too_few_entries`, `league.bad_series`; 403 below director; "
            "409 `league.not_round_robin` (a knockout, or not started)."
        ),
    )
    @action(detail=True, methods=["post"])
    def knockout(self, request: Request, pk: Any = None) -> Response:
        league = self.get_object()
        serializer = KnockoutStageSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        stage = leagues.knockout_stage(
            league=league, user=signed_in(request), **serializer.validated_data
        )
        return Response(LeagueSerializer(stage).data, status=201)

    @extend_schema(responses=StandingsSerializer)
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, pk: Any = None) -> Response:
        """The table (with the tie-break that decided each place) and every fixture."""
        return Response(standings_data(tables.league_table(self.get_object())))

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    @action(detail=True, methods=["get"], url_path="standings/csv")
    def standings_csv(self, request: Request, pk: Any = None) -> HttpResponse:
        return standings_csv(tables.league_table(self.get_object()))

    @extend_schema(responses={(200, "application/pdf"): OpenApiTypes.BINARY})
    @action(detail=True, methods=["get"], url_path="standings/pdf")
    def standings_pdf(self, request: Request, pk: Any = None) -> HttpResponse:
        """The table as an A4 PDF for the club's notice board."""
        league = self.get_object()
        response = HttpResponse(
            noticeboard.league_pdf(tables.league_table(league)), content_type="application/pdf"
        )
        response["Content-Disposition"] = f'inline; filename="league-{league.pk}.pdf"'
        return response


class LeagueEntryViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = LeagueEntrySerializer
    permission_classes = [IsAuthenticated, ClubRole]
    write_role = Role.DIRECTOR

    def get_queryset(self):
        return LeagueEntry.objects.filter(
            league__club__in=clubs_of(self.request.user)
        ).select_related("league")

    @extend_schema(request=WithdrawSerializer, responses=LeagueEntrySerializer)
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, pk: Any = None) -> Response:
        """Withdraw the entry: its results are voided or kept as the league says."""
        serializer = WithdrawSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entry = leagues.entry_withdraw(
            entry=self.get_object(),
            user=signed_in(request),
            reason=serializer.validated_data["reason"],
        )
        return Response(LeagueEntrySerializer(entry).data)


# -- public versions ------------------------------------------------------------------------


class PublicLeagues(PublicView, APIView):
    """A public club's leagues."""

    @extend_schema(responses=PublicLeagueSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        club = public_club(slug)
        return Response(PublicLeagueSerializer(tables.leagues_of_club(club.pk), many=True).data)


class PublicLeagueStandings(PublicView, APIView):
    """A public club's league table and fixtures (``?format=csv`` for the CSV)."""

    @extend_schema(responses=PublicStandingsSerializer)
    def get(self, request: Request, slug: str, pk: int) -> Response:
        club = public_club(slug)
        table = tables.league_table(found(League, pk=pk, club=club))
        return Response(standings_data(table, public=True))


class PublicLeagueStandingsCsv(PublicView, APIView):
    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request: Request, slug: str, pk: int) -> HttpResponse:
        club = public_club(slug)
        return standings_csv(tables.league_table(found(League, pk=pk, club=club)))
