"""A player's statistics: members of the player's club, or anyone for a public club."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.lookups import found
from api.serializers.leagues import statistics_data
from api.serializers.statistics import PlayerStatisticsSerializer
from api.views.public import PublicView, public_club
from scorebook.clubs.models import Player
from scorebook.clubs.selectors import clubs_of
from scorebook.standings import stats

MIN_SHARED = OpenApiParameter(
    "min_shared", int, description="Matches needed for best partner, rival and nemesis."
)


def min_shared_of(request: Request) -> int:
    field = serializers.IntegerField(min_value=1, max_value=1000, default=stats.MIN_SHARED)
    return int(field.run_validation(request.query_params.get("min_shared", stats.MIN_SHARED)))


class PlayerStatisticsView(APIView):
    """A player's record by game, head-to-head, partners, rival, nemesis, streak and
    rating history."""

    permission_classes = [IsAuthenticated]

    @extend_schema(parameters=[MIN_SHARED], responses={200: PlayerStatisticsSerializer})
    def get(self, request: Request, pk: int) -> Response:
        player = found(Player, pk=pk, club__in=clubs_of(request.user))
        figures = stats.player_statistics(player, min_shared=min_shared_of(request))
        return Response(statistics_data(figures))


class PublicPlayerStatistics(PublicView, APIView):
    @extend_schema(parameters=[MIN_SHARED], responses={200: PlayerStatisticsSerializer})
    def get(self, request: Request, slug: str, pk: int) -> Response:
        club = public_club(slug)
        player = found(Player, pk=pk, club=club)
        figures = stats.player_statistics(player, min_shared=min_shared_of(request))
        return Response(statistics_data(figures))
