"""Read-only results of the clubs that opt in (``Club.public``), for anyone.

Only what a results board shows: nights, matches, who sat where, totals and per-deal
points, through the allow-lists of ``api.serializers.public``. Memberships, who entered or
corrected a deal, audit, stakes and money stay private.
"""

from __future__ import annotations

from django.db.models import Prefetch
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.authentication import BaseAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from api.lookups import found
from api.serializers.public import (
    PublicClubSerializer,
    PublicMatchDetailSerializer,
    PublicNightSerializer,
)
from api.throttles import CountingThrottle
from scorebook.clubs.models import Club, Player
from scorebook.matches.models import Deal, Match, Night


class PublicThrottle(CountingThrottle):
    scope = "public"  # rate: REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]


def public_club(slug: str) -> Club:
    return found(Club, slug=slug, public=True)


def player_names(club: Club) -> dict[int, str]:
    return dict(Player.objects.filter(club=club).values_list("id", "name"))


class PublicView(APIView):
    """Anyone may read, unauthenticated, throttled per address."""

    permission_classes = [AllowAny]
    authentication_classes: list[type[BaseAuthentication]] = []
    throttle_classes = [PublicThrottle]


class PublicClubs(PublicView, generics.ListAPIView):
    """The clubs whose results are public."""

    serializer_class = PublicClubSerializer
    queryset = Club.objects.filter(public=True).order_by("name")


class PublicNights(PublicView, generics.ListAPIView):
    """A public club's nights, newest first, with their matches and totals."""

    serializer_class = PublicNightSerializer
    queryset = Night.objects.none()  # for the schema; the real one needs the club

    def get_queryset(self):
        self.club = public_club(self.kwargs["slug"])
        matches = Match.objects.select_related("night", "table").order_by("id")
        return (
            Night.objects.filter(club=self.club)
            .prefetch_related(Prefetch("matches", queryset=matches))
            .order_by("-date", "-id")
        )

    def get_serializer_context(self):
        context = super().get_serializer_context()
        if hasattr(self, "club"):
            context["names"] = player_names(self.club)
        return context

    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.get_queryset())
        context = self.get_serializer_context()
        data = PublicNightSerializer(page, many=True, context=context).data
        return self.get_paginated_response(data)


class PublicMatch(PublicView, generics.RetrieveAPIView):
    """One match of a public club, with the points of every deal."""

    serializer_class = PublicMatchDetailSerializer

    @extend_schema(responses=PublicMatchDetailSerializer)
    def get(self, request, *args, **kwargs):
        club = public_club(self.kwargs["slug"])
        match = found(
            Match.objects.select_related("night", "table").prefetch_related(
                Prefetch(
                    "deals",
                    queryset=Deal.objects.filter(is_current=True).order_by("number"),
                    to_attr="current",
                )
            ),
            pk=self.kwargs["pk"],
            night__club=club,
        )
        context = {**self.get_serializer_context(), "names": player_names(club)}
        return Response(PublicMatchDetailSerializer(match, context=context).data)
