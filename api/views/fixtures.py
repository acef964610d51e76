"""A league's fixtures: read them; count a match for one (scorers), unlink one, record
a forfeit "a tavolino" and undo it, plan the night it is to be played (directors)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from api.lookups import found
from api.permissions import ClubRole
from api.serializers.leagues import (
    FixtureScoreSerializer,
    ForfeitSerializer,
    LinkSerializer,
    PlanSerializer,
    UndoForfeitSerializer,
    fixture_data,
)
from scorebook.clubs.models import Role
from scorebook.clubs.selectors import clubs_of
from scorebook.core.people import signed_in
from scorebook.matches.models import Match
from scorebook.standings.leagues import selectors as tables
from scorebook.standings.leagues import services as leagues
from scorebook.standings.models import Fixture, LeagueEntry


class FixtureViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Fixtures; POST ``/fixtures/{id}/matches`` counts a match for one (scorers)."""

    serializer_class = FixtureScoreSerializer
    permission_classes = [IsAuthenticated, ClubRole]
    write_role = Role.SCORER
    filterset_fields = ["league", "round"]

    def get_queryset(self):
        return (
            Fixture.objects.filter(league__club__in=clubs_of(self.request.user))
            .select_related("league", "home", "away")
            .order_by("league", "round", "id")
        )

    def _scores(self, fixtures: list[Fixture]) -> list[dict[str, Any]]:
        found = {}
        for league in {f.league for f in fixtures}:
            for r in tables.league_table(league).rounds:
                found.update({s.fixture.pk: s for s in r.fixtures})
        return [fixture_data(found[f.pk]) for f in fixtures]

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset())) or []
        return self.get_paginated_response(self._scores(list(page)))

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(self._scores([self.get_object()])[0])

    def _fixture_and_match(self, request: Request) -> tuple[Fixture, Match]:
        fixture = self.get_object()
        serializer = LinkSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        match = found(
            Match, pk=serializer.validated_data["match"], night__club_id=fixture.league.club_id
        )
        return fixture, match

    @extend_schema(
        request=LinkSerializer,
        responses={201: FixtureScoreSerializer},
        description=(
            "Count a match for this fixture; it may still be open. 400 "
            "`league.match_not_for_fixture`; 409 `league.match_linked`, "
            "`league.series_decided` (a best of N already won, or a series over), "
            "`league.series_full` (its games are all linked; la bella once level), "
            "`league.fixture_forfeited`, `league.fixture_not_ready` (a knockout fixture "
            "whose entries are not known yet), `league.entry_withdrawn`."
        ),
    )
    @action(detail=True, methods=["post"])
    def matches(self, request: Request, pk: Any = None) -> Response:
        """Count a match for this fixture; it may still be open."""
        fixture, match = self._fixture_and_match(request)
        leagues.fixture_match_link(fixture=fixture, match=match, user=signed_in(request))
        return Response(self._scores([fixture])[0], status=201)

    @extend_schema(
        request=ForfeitSerializer,
        responses={201: FixtureScoreSerializer},
        description=(
            "Directors: record the fixture as lost *a tavolino* by `entry` (one of its two "
            "entries), with a reason. The other entry wins it with the league's forfeit "
            "score and, in a knockout, goes on. 400 `league.reason_required`, "
            "`league.entry_not_in_fixture`; 403 below director; 409 "
            "`league.fixture_forfeited`, `league.series_decided`, `league.fixture_not_ready`."
        ),
    )
    @action(detail=True, methods=["post"])
    def forfeit(self, request: Request, pk: Any = None) -> Response:
        fixture = self.get_object()
        serializer = ForfeitSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entry = found(
            LeagueEntry, pk=serializer.validated_data["entry"], league_id=fixture.league_id
        )
        score = leagues.fixture_forfeit(
            fixture=fixture,
            entry=entry,
            reason=serializer.validated_data["reason"],
            user=signed_in(request),
        )
        return Response(fixture_data(score), status=201)

    @extend_schema(
        request=PlanSerializer,
        responses=FixtureScoreSerializer,
        description=(
            "Directors: plan the night the fixture is to be played (`null`: not planned; "
            "audited). The calendar feeds show an unplayed fixture on it. 403 below director."
        ),
    )
    @action(detail=True, methods=["post"])
    def plan(self, request: Request, pk: Any = None) -> Response:
        fixture = self.get_object()
        serializer = PlanSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        leagues.fixture_plan(
            fixture=fixture, day=serializer.validated_data["planned_on"], user=signed_in(request)
        )
        return Response(self._scores([self.get_object()])[0])

    @extend_schema(
        request=UndoForfeitSerializer,
        responses=FixtureScoreSerializer,
        description=(
            "Directors: undo the fixture's forfeit, with a reason (audited). 400 "
            "`league.reason_required`; 403 below director; 409 `league.not_forfeited`, "
            "`league.later_round_played` (a knockout whose next round was played)."
        ),
    )
    @action(detail=True, methods=["post"], url_path="forfeit/undo")
    def forfeit_undo(self, request: Request, pk: Any = None) -> Response:
        fixture = self.get_object()
        serializer = UndoForfeitSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        score = leagues.fixture_forfeit_undo(
            fixture=fixture, reason=serializer.validated_data["reason"], user=signed_in(request)
        )
        return Response(fixture_data(score))

    @extend_schema(request=LinkSerializer, responses=FixtureScoreSerializer)
    @action(detail=True, methods=["post"])
    def unlink(self, request: Request, pk: Any = None) -> Response:
        """A match linked by mistake stops counting (directors)."""
        fixture, match = self._fixture_and_match(request)
        leagues.fixture_match_unlink(fixture=fixture, match=match, user=signed_in(request))
        return Response(self._scores([fixture])[0])
