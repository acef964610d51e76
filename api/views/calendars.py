"""A member's calendar addresses (ICS feeds with a private token) and new ones: the old
addresses answer 404 from then on. Members of the club only (404 for anyone else)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import get_language
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.serializers.sharing import CalendarSerializer
from scorebook.clubs.models import Club
from scorebook.clubs.selectors import membership_of
from scorebook.sharing import services
from scorebook.sharing.models import CalendarFeed
from scorebook.standings.models import League


def _membership(request: Request, club_id: int):
    club = Club.objects.filter(pk=club_id).first()
    membership = membership_of(request.user, club_id) if club else None
    if club is None or membership is None:
        raise NotFound()
    return club, membership


def addresses(request: Request, club: Club, feed: CalendarFeed) -> dict[str, Any]:
    def url(name: str, *args: Any) -> str:
        return request.build_absolute_uri(reverse(name, args=args))

    leagues = League.objects.filter(club=club).order_by("name")
    return {
        "mine": url("web:calendar_mine", feed.token),
        "club": url("web:calendar_club", feed.token),
        "leagues": [
            {
                "id": league.pk,
                "name": league.name,
                "url": url("web:calendar_league", feed.token, league.pk),
            }
            for league in leagues
        ],
        "public": url("web:calendar_public", club.slug) if club.public else None,
    }


class CalendarView(APIView):
    """The member's calendar addresses (made the first time they are asked for)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=CalendarSerializer)
    def get(self, request: Request, club_id: int) -> Response:
        club, membership = _membership(request, club_id)
        feed = services.calendar_feed_for(membership=membership, language=get_language())
        return Response(CalendarSerializer(addresses(request, club, feed)).data)


class CalendarRotateView(APIView):
    """New calendar addresses for the member: the old ones answer 404 from now on."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={201: CalendarSerializer})
    def post(self, request: Request, club_id: int) -> Response:
        club, membership = _membership(request, club_id)
        feed = services.calendar_feed_rotate(membership=membership, language=get_language())
        return Response(CalendarSerializer(addresses(request, club, feed)).data, status=201)
