"""Standings: seasons, leaderboards, ratings and rating history, for members and (for
clubs that publish results) for anyone; every table also as CSV, whole, at its own path
(``/leaderboard.csv``...): one media type per answer. The old ``?format=csv`` on the JSON
paths still answers CSV (clients written before), undocumented.

Reads come from the precomputed tables; each answer says when they were last brought up
to date (``updated_at``) and whether changes are waiting (``pending``).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, mixins, viewsets
from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param
from rest_framework.views import APIView

from api.deal_schema import GAME_OR_ALL
from api.lookups import PAGE_NOT_FOUND, found, missing
from api.permissions import ClubRole
from api.serializers.public import (
    PublicLeaderboardRowSerializer,
    PublicRatingSerializer,
    PublicSeasonSerializer,
)
from api.serializers.standings import (
    LeaderboardRowSerializer,
    RatingChangeSerializer,
    RatingSerializer,
    SeasonSerializer,
    SettingsSerializer,
)
from api.views.public import PublicView, public_club
from scorebook.clubs.models import Club, Role
from scorebook.clubs.selectors import clubs_of
from scorebook.core.numbers import parse_id, parse_int
from scorebook.core.people import signed_in
from scorebook.core.refusals import Refusal
from scorebook.core.times import utc_iso
from scorebook.ledger.exports import as_csv
from scorebook.rules import games
from scorebook.sharing import noticeboard
from scorebook.standings import selectors, services
from scorebook.standings.models import ALL_GAMES, Rating, RatingChange, Season

#: Past this a page of 50 rows would skip billions of rows: no such page.
MAX_PAGE = 10**6


class MissingParameter(Refusal):
    code = "standings.parameter_required"
    message = _("The %(name)s parameter is required.")


class UnknownColumn(Refusal):
    code = "standings.unknown_column"
    message = _("There is no column %(name)s to sort by.")


class CSVRenderer(BaseRenderer):
    """Any of these tables as CSV: nested columns (money per currency, events, bids)
    become one column each, named like the ordering parameter (``money:EUR``)."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None):
        if isinstance(data, dict) and "results" in data:
            data = data["results"]
        if isinstance(data, dict):  # an error answer
            data = data.get("errors", [data])
        rows = [dict(_flat(row)) for row in data]
        columns: list[str] = []
        for row in rows:
            columns.extend(key for key in row if key not in columns)
        lines = [columns, *([row.get(c, "") for c in columns] for row in rows)]
        return as_csv(lines).encode()  # formula-safe cells (names are text)


def _flat(row: dict[str, Any], prefix: str = ""):
    for key, value in row.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            yield from _flat(value, f"{name}:")
        else:
            yield name, value


RENDERERS = [JSONRenderer, CSVRenderer]


class FreshPagination(PageNumberPagination):
    """The project's pages, plus when the table was last brought up to date and whether
    changes are waiting: declared in the schema, so a generated client reads them."""

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        paginated = super().get_paginated_response_schema(schema)
        paginated["properties"]["updated_at"] = {
            "type": "string",
            "format": "date-time",
            "nullable": True,
            "description": "When the table was last brought up to date (never: null).",
        }
        paginated["properties"]["pending"] = {
            "type": "boolean",
            "description": "Changes are waiting to be counted in.",
        }
        paginated["required"] = [*paginated["required"], "updated_at", "pending"]
        return paginated


class TableMixin(generics.GenericAPIView):
    """A table read: whole as CSV, paginated as JSON, with when it was brought up to date."""

    renderer_classes = RENDERERS
    pagination_class = FreshPagination
    club_id: int

    def handle_exception(self, exc):
        """Errors are answered in JSON, even to a CSV request."""
        self.request.accepted_renderer = JSONRenderer()
        self.request.accepted_media_type = JSONRenderer.media_type
        return super().handle_exception(exc)

    def paginate_queryset(self, queryset):
        if self.request.accepted_renderer.format == "csv":
            return None
        return super().paginate_queryset(queryset)

    def get_paginated_response(self, data):
        response = super().get_paginated_response(data)
        built, pending = selectors.freshness_of(self.club_id)
        response.data["updated_at"] = utc_iso(built)
        response.data["pending"] = pending
        return response


def _param(request, name: str) -> str:
    value = request.query_params.get(name, "")
    if not value:
        raise MissingParameter(path=name, name=name)
    return value


def _id_param(request, name: str) -> int:
    number = parse_id(_param(request, name))
    if number is None:
        raise MissingParameter(path=name, name=name)
    return number


# -- seasons -------------------------------------------------------------------------------


class SeasonViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """A club's seasons: members read, directors open and change them."""

    serializer_class = SeasonSerializer
    permission_classes = [IsAuthenticated, ClubRole]
    write_role = Role.DIRECTOR
    filterset_fields = ["club"]
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_queryset(self):
        return Season.objects.filter(club__in=clubs_of(self.request.user)).order_by(
            "club_id", "-starts_on"
        )

    def perform_create(self, serializer):
        data = serializer.validated_data
        serializer.instance = services.season_create(
            club_id=data["club"].pk,
            name=data["name"],
            starts_on=data["starts_on"],
            ends_on=data.get("ends_on"),
            user=signed_in(self.request),
        )

    def perform_update(self, serializer):
        changes = {k: v for k, v in serializer.validated_data.items() if k != "club"}
        serializer.instance = services.season_update(
            season=serializer.instance, changes=changes, user=signed_in(self.request)
        )


# -- leaderboards --------------------------------------------------------------------------


LEADERBOARD_PARAMS = [
    OpenApiParameter("season", int, required=True),
    OpenApiParameter("game", GAME_OR_ALL, description='A game key; empty or "all": all games.'),
    OpenApiParameter(
        "ordering",
        str,
        description="Comma-separated columns, '-' for descending (default -won,-win_rate): "
        + ", ".join(selectors.SORTABLE)
        + ", money:<CUR>, events:<event>:made|suffered, bids:<contract>:made|won.",
    ),
]
PUBLIC_LEADERBOARD_PARAMS = [
    *LEADERBOARD_PARAMS[:2],
    OpenApiParameter(
        "ordering",
        str,
        description="Comma-separated columns, '-' for descending (default -won,-win_rate): "
        + ", ".join(selectors.PUBLIC_SORTABLE)
        + ", events:<event>:made|suffered, bids:<contract>:made|won.",
    ),
]


def _leaderboard_query(request, public: bool) -> tuple[str, list[str]]:
    game = request.query_params.get("game", "")
    game = ALL_GAMES if game in ("", "all") else game
    ordering = [o for o in request.query_params.get("ordering", "").split(",") if o]
    for name in ordering:
        column = name.lstrip("-")
        if selectors.sort_key(column) is None or (public and not selectors.public_sortable(column)):
            raise UnknownColumn(path="ordering", name=name)
    return game, ordering or ["-won", "-win_rate"]


class LeaderboardList(TableMixin, generics.ListAPIView):
    """A season's leaderboard: one query for the page (see ``selectors.leaderboard_page``),
    paginated like every list (``count``, ``next``, ``previous``, ``results``, 50 a page),
    the ranked rows numbered in order (the unranked have no position)."""

    serializer_class: type[LeaderboardRowSerializer] = LeaderboardRowSerializer
    filter_backends: list[Any] = []

    def seasons(self):
        raise NotImplementedError

    def list(self, request, *args, **kwargs):
        season_id = _id_param(request, "season")
        game, ordering = _leaderboard_query(request, public=self.serializer_class.public)
        csv = request.accepted_renderer.format == "csv"
        paginator = self.paginator
        assert isinstance(paginator, PageNumberPagination)  # the project's default
        assert paginator.page_size is not None  # PAGE_SIZE is set in the settings
        size = paginator.page_size
        number = parse_int(request.query_params.get("page", "1"), low=1, high=MAX_PAGE)
        if not csv and number is None:
            raise NotFound(PageNumberPagination.invalid_page_message, code=PAGE_NOT_FOUND)
        page_number = 1 if csv or number is None else number
        offset = (page_number - 1) * size
        page = selectors.leaderboard_page(
            season_id,
            self.seasons(),
            game,
            ordering,
            None if csv else offset,
            None if csv else size,
        )
        if page is None:
            raise missing(Season)
        if not page.rows and page_number > 1:
            raise NotFound(PageNumberPagination.invalid_page_message, code=PAGE_NOT_FOUND)
        row = self.serializer_class.row
        rows = [
            row(line, offset + i + 1 if line["ranked"] else None)
            for i, line in enumerate(page.rows)
        ]
        if csv:
            return Response(rows)
        url = request.build_absolute_uri()
        following = None
        if offset + size < page.count:
            following = replace_query_param(url, "page", page_number + 1)
        previous = None
        if page_number > 1:
            previous = (
                remove_query_param(url, "page")
                if page_number == 2
                else replace_query_param(url, "page", page_number - 1)
            )
        return Response(
            {
                "count": page.count,
                "next": following,
                "previous": previous,
                "results": rows,
                "updated_at": utc_iso(page.built_at),
                "pending": page.pending,
            }
        )


@extend_schema(parameters=LEADERBOARD_PARAMS)
class LeaderboardView(LeaderboardList):
    """A season's leaderboard for a game or all games: the ranked players (at least the
    club's minimum of finished matches) first, then the unranked."""

    permission_classes = [IsAuthenticated]

    def seasons(self):
        return Season.objects.filter(club__in=clubs_of(self.request.user))


class LeaderboardPdf(APIView):
    """A season's leaderboard as an A4 PDF for the club's notice board: the public
    columns only (no money: it hangs where anyone passes), in the page's order."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[LEADERBOARD_PARAMS[0], LEADERBOARD_PARAMS[1]],
        responses={(200, "application/pdf"): OpenApiTypes.BINARY},
    )
    def get(self, request: Request) -> HttpResponse:
        season_id = _id_param(request, "season")
        season = found(
            Season.objects.select_related("club"),
            pk=season_id,
            club__in=clubs_of(request.user),
        )
        game = request.query_params.get("game", "")
        game = ALL_GAMES if game in ("", "all") else game
        if game and game not in games():
            raise NotFound(code="game.not_found")
        minimum = services.settings_of(season.club_id).min_matches
        rows = list(selectors.leaderboard(season, game, ["-won", "-win_rate"], minimum))
        position = 0
        for row in rows:
            position += row.ranked
            row.position = position if row.ranked else None
        pdf = noticeboard.leaderboard_pdf(season.club.name, season.name, game, rows)
        response = HttpResponse(pdf, content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="leaderboard-{season.pk}.pdf"'
        return response


# -- ratings -------------------------------------------------------------------------------


CLUB_GAME = [
    OpenApiParameter("club", int, required=True),
    OpenApiParameter("game", str, required=True),
]


class ClubScoped(TableMixin, generics.ListAPIView):
    permission_classes = [IsAuthenticated]
    filter_backends: list[Any] = []

    def club(self) -> Club:
        return found(clubs_of(self.request.user), pk=_id_param(self.request, "club"))

    def get_serializer_context(self):
        context = super().get_serializer_context()
        if hasattr(self, "club_id"):
            settings = services.settings_of(self.club_id)
            context["provisional_matches"] = settings.provisional_matches
        return context


@extend_schema(parameters=CLUB_GAME)
class RatingsView(ClubScoped):
    """A club's ratings in one game, by the conservative value (mu - 3 sigma)."""

    serializer_class = RatingSerializer

    def get_queryset(self):
        self.club_id = self.club().pk
        return ratings_of(self.club_id, _param(self.request, "game"))


def ratings_of(club_id: int, game: str):
    return (
        Rating.objects.filter(club_id=club_id, game=game)
        .select_related("player")
        .order_by("-display", "player__name")
    )


@extend_schema(parameters=[*CLUB_GAME, OpenApiParameter("player", int)])
class RatingHistoryView(ClubScoped):
    """Each rated match's before and after, in the order the matches finished."""

    serializer_class = RatingChangeSerializer

    def get_queryset(self):
        self.club_id = self.club().pk
        changes = RatingChange.objects.filter(
            club_id=self.club_id, game=_param(self.request, "game")
        )
        player = self.request.query_params.get("player", "")
        if player:  # not an id: no player's changes, as for one that does not exist
            number = parse_id(player)
            changes = changes.filter(player_id=number) if number else changes.none()
        return changes.order_by("player_id", "seq")


# -- settings ------------------------------------------------------------------------------


class StandingsSettingsView(generics.GenericAPIView):
    """The club's minimum of matches to be ranked and its provisional count."""

    serializer_class = SettingsSerializer
    permission_classes = [IsAuthenticated, ClubRole]
    write_role = Role.DIRECTOR

    def get_object(self):
        club = found(clubs_of(self.request.user), pk=self.kwargs["club_id"])
        self.check_object_permissions(self.request, club)
        return club

    def get(self, request, club_id: int):
        club = self.get_object()
        return Response(SettingsSerializer(services.settings_of(club.pk)).data)

    def patch(self, request, club_id: int):
        club = self.get_object()
        serializer = SettingsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        found = services.settings_update(
            club_id=club.pk, changes=serializer.validated_data, user=signed_in(request)
        )
        return Response(SettingsSerializer(found).data)


# -- public --------------------------------------------------------------------------------


class PublicScoped(PublicView, generics.GenericAPIView):
    filter_backends: list[Any] = []


class PublicSeasons(PublicScoped, TableMixin, generics.ListAPIView):
    """A public club's seasons."""

    serializer_class = PublicSeasonSerializer

    def get_queryset(self):
        club = public_club(self.kwargs["slug"])
        self.club_id = club.pk
        return Season.objects.filter(club=club).order_by("-starts_on")


@extend_schema(parameters=PUBLIC_LEADERBOARD_PARAMS)
class PublicLeaderboard(PublicScoped, LeaderboardList):
    """A public club's leaderboard: the members' columns without money or stake units
    (neither to read nor to sort by)."""

    serializer_class = PublicLeaderboardRowSerializer

    def seasons(self):
        return Season.objects.filter(club=public_club(self.kwargs["slug"]))


@extend_schema(parameters=[OpenApiParameter("game", str, required=True)])
class PublicRatings(PublicScoped, TableMixin, generics.ListAPIView):
    """A public club's ratings in one game."""

    serializer_class = PublicRatingSerializer

    def get_queryset(self):
        club = public_club(self.kwargs["slug"])
        self.club_id = club.pk
        return ratings_of(club.pk, _param(self.request, "game"))

    def get_serializer_context(self):
        context = super().get_serializer_context()
        if hasattr(self, "club_id"):
            context["provisional_matches"] = services.settings_of(self.club_id).provisional_matches
        return context


# -- the same tables as CSV, each at its own path ------------------------------------------


class CsvOnly(generics.GenericAPIView):
    """A table, whole (not paginated), as CSV at its own path, whatever the Accept header
    says: the JSON path answers JSON, this one CSV. Refusals still answer JSON."""

    renderer_classes = [CSVRenderer]

    def perform_content_negotiation(self, request, force=False):
        return CSVRenderer(), CSVRenderer.media_type


def csv_schema(parameters: list[OpenApiParameter]) -> Any:
    """The CSV path's schema: a text/csv answer, the JSON path's parameters but the page."""
    return extend_schema(
        parameters=[*parameters, OpenApiParameter("page", exclude=True)],
        responses={(200, "text/csv"): OpenApiTypes.STR},
    )


@csv_schema(LEADERBOARD_PARAMS)
class LeaderboardCsv(CsvOnly, LeaderboardView):
    """The leaderboard as CSV."""


@csv_schema(CLUB_GAME)
class RatingsCsv(CsvOnly, RatingsView):
    """A club's ratings as CSV."""


@csv_schema([*CLUB_GAME, OpenApiParameter("player", int)])
class RatingHistoryCsv(CsvOnly, RatingHistoryView):
    """The rating changes as CSV."""


@csv_schema([])
class PublicSeasonsCsv(CsvOnly, PublicSeasons):
    """A public club's seasons as CSV."""


@csv_schema(PUBLIC_LEADERBOARD_PARAMS)
class PublicLeaderboardCsv(CsvOnly, PublicLeaderboard):
    """A public club's leaderboard as CSV."""


@csv_schema([OpenApiParameter("game", str, required=True)])
class PublicRatingsCsv(CsvOnly, PublicRatings):
    """A public club's ratings as CSV."""
