"""Championships (issue 34 item 3).

Routes (``/api/v1/``): ``federations/{id}/championships`` (the federation's list; an
officer creates one: ``FederationViewSet``'s action, in ``api/views/federations.py``),
``championships/{id}`` (teams, calendar, table), ``championships/{id}/teams`` (a club's
director enters a team), ``championship-teams/{id}/withdraw`` (a director of its club or
an officer before the start; an officer after it, by the withdrawal rule), ``.../start``
and ``.../knockout`` (an officer); ``championship-fixtures/{id}`` with ``play`` (the home
club's director, at its night open today), ``confirm`` (the away captain or a director of
the away club), ``forfeit`` and ``undo-forfeit`` (an officer), ``plan`` (an officer or the
home club's director: a postponement); ``public/championships/{id}`` for a federation
that publishes. Every write goes through ``scorebook.federations.services``
(``championships``, ``withdrawals``), which refuse in words."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from api.lookups import found
from api.serializers.championships import (
    ChampionshipDetailSerializer,
    ChampionshipForfeitSerializer,
    ChampionshipPlanSerializer,
    FixtureSerializer,
    ForfeitUndoSerializer,
    LineupsSerializer,
    TeamEnterSerializer,
    TeamSerializer,
    TeamWithdrawSerializer,
)
from api.views.public import PublicView
from scorebook.clubs.models import Club
from scorebook.core.people import signed_in
from scorebook.federations import championship_selectors as reads
from scorebook.federations.models import Championship, ChampionshipFixture, Team
from scorebook.federations.refusals import CaptainNotOfClub, NotInFixture
from scorebook.federations.services import championships as champs
from scorebook.federations.services import withdrawals


class ChampionshipViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A championship of a federation the caller sees: its teams, calendar and table."""

    serializer_class = ChampionshipDetailSerializer
    permission_classes = [IsAuthenticated]

    def get_queryset(self):
        return reads.championships_visible(self.request.user)

    def _championship(self) -> Championship:
        return found(self.get_queryset(), pk=self.kwargs["pk"])

    @extend_schema(request=TeamEnterSerializer, responses={201: TeamSerializer})
    @action(detail=True, methods=["post"])
    def teams(self, request: Request, pk: Any = None) -> Response:
        """A club's director enters a team: the club's address, its name, its regulars
        in table order and its substitutes (player ids of the club)."""
        championship = self._championship()
        serializer = TeamEnterSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        club = found(Club, slug=data["club"])
        captain = None
        if data.get("captain"):
            captain = get_user_model().objects.filter(username=data["captain"]).first()
            if captain is None:
                raise CaptainNotOfClub(path="captain", club=club.name)
        team = champs.team_enter(
            championship=championship,
            club=club,
            name=data["name"],
            player_ids=data["players"],
            substitute_ids=data.get("substitutes", []),
            captain=captain,
            user=signed_in(request),
        )
        return Response(TeamSerializer(team).data, status=201)

    @extend_schema(request=None, responses=ChampionshipDetailSerializer)
    @action(detail=True, methods=["post"])
    def start(self, request: Request, pk: Any = None) -> Response:
        """An officer starts it: the groups and the calendar are drawn."""
        made = champs.championship_start(championship=self._championship(), user=signed_in(request))
        return Response(ChampionshipDetailSerializer(made).data)

    @extend_schema(request=None, responses=ChampionshipDetailSerializer)
    @action(detail=True, methods=["post"])
    def knockout(self, request: Request, pk: Any = None) -> Response:
        """An officer draws the knockout once every group fixture is settled."""
        made = champs.knockout_start(championship=self._championship(), user=signed_in(request))
        return Response(ChampionshipDetailSerializer(made).data)


class ChampionshipTeamViewSet(viewsets.GenericViewSet):
    """A team of a championship of a federation the caller sees."""

    serializer_class = TeamSerializer
    permission_classes = [IsAuthenticated]

    def get_queryset(self):
        return Team.objects.filter(
            championship__in=reads.championships_visible(self.request.user)
        ).select_related("championship")

    @extend_schema(request=TeamWithdrawSerializer, responses=ChampionshipDetailSerializer)
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, pk: Any = None) -> Response:
        """The team leaves the championship: before the start a director of its club (or
        an officer), and it is deleted; after the start an officer, by the rule of
        docs/federation.md (its results annulled before half of its group fixtures are
        settled; from half on, or in the knockout, its remaining fixtures lost by
        forfeit). Answers the championship as it then is."""
        team = found(self.get_queryset(), pk=self.kwargs["pk"])
        serializer = TeamWithdrawSerializer(data=request.data or {})
        serializer.is_valid(raise_exception=True)
        championship = team.championship
        withdrawals.team_withdraw(
            team=team, reason=serializer.validated_data.get("reason", ""), user=signed_in(request)
        )
        championship.refresh_from_db()
        return Response(ChampionshipDetailSerializer(championship).data)


class ChampionshipFixtureViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A championship fixture: played at the home club's night, confirmed by the away
    captain; an officer records a forfeit or moves its night."""

    serializer_class = FixtureSerializer
    permission_classes = [IsAuthenticated]

    def get_queryset(self):
        return ChampionshipFixture.objects.filter(
            championship__in=reads.championships_visible(self.request.user)
        ).select_related("championship", "home", "away")

    def _fixture(self) -> ChampionshipFixture:
        return found(self.get_queryset(), pk=self.kwargs["pk"])

    @extend_schema(request=LineupsSerializer, responses=FixtureSerializer)
    @action(detail=True, methods=["post"])
    def play(self, request: Request, pk: Any = None) -> Response:
        """The home club's director plays it at the club's night open today: each table a
        match of the home club (the away players as its guests). Line-ups: player ids of
        each roster in table order (default: the regulars)."""
        fixture = self._fixture()
        serializer = LineupsSerializer(data=request.data or {})
        serializer.is_valid(raise_exception=True)
        played = champs.fixture_play(
            fixture=fixture, lineups=dict(serializer.validated_data), user=signed_in(request)
        )
        return Response(FixtureSerializer(played).data)

    @extend_schema(request=None, responses=FixtureSerializer)
    @action(detail=True, methods=["post"])
    def confirm(self, request: Request, pk: Any = None) -> Response:
        """The away captain (or a director of the away club) confirms the result."""
        done = champs.fixture_confirm(fixture=self._fixture(), user=signed_in(request))
        return Response(FixtureSerializer(done).data)

    @extend_schema(request=ChampionshipForfeitSerializer, responses=FixtureSerializer)
    @action(detail=True, methods=["post"])
    def forfeit(self, request: Request, pk: Any = None) -> Response:
        """An officer records that a team forfeits the fixture."""
        fixture = self._fixture()
        serializer = ChampionshipForfeitSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        team = Team.objects.filter(
            pk=data["team"], pk__in=[fixture.home_id, fixture.away_id]
        ).first()
        if team is None:
            raise NotInFixture(path="team")
        done = champs.fixture_forfeit(
            fixture=fixture, team=team, reason=data.get("reason", ""), user=signed_in(request)
        )
        return Response(FixtureSerializer(done).data)

    @extend_schema(request=ForfeitUndoSerializer, responses=FixtureSerializer)
    @action(detail=True, methods=["post"], url_path="undo-forfeit")
    def undo_forfeit(self, request: Request, pk: Any = None) -> Response:
        """An officer undoes a forfeit recorded by mistake: the fixture goes back to its
        tables' result when it was played, else to planned."""
        fixture = self._fixture()
        serializer = ForfeitUndoSerializer(data=request.data or {})
        serializer.is_valid(raise_exception=True)
        done = withdrawals.fixture_forfeit_undo(
            fixture=fixture,
            reason=serializer.validated_data.get("reason", ""),
            user=signed_in(request),
        )
        return Response(FixtureSerializer(done).data)

    @extend_schema(request=ChampionshipPlanSerializer, responses=FixtureSerializer)
    @action(detail=True, methods=["post"])
    def plan(self, request: Request, pk: Any = None) -> Response:
        """Move the fixture's planned night (a postponement)."""
        fixture = self._fixture()
        serializer = ChampionshipPlanSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        done = champs.fixture_plan(
            fixture=fixture, day=data["day"], reason=data.get("reason", ""), user=signed_in(request)
        )
        return Response(FixtureSerializer(done).data)


class PublicChampionship(PublicView):
    """A championship of a federation that publishes: teams, calendar, table."""

    @extend_schema(responses=ChampionshipDetailSerializer)
    def get(self, request: Request, pk: int) -> Response:
        queryset = Championship.objects.filter(federation__publishes=True)
        return Response(ChampionshipDetailSerializer(found(queryset, pk=pk)).data)
