"""The rules engine over HTTP: stateless scoring, the catalogue of games and each game's
deal and house-rules schemas."""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, PolymorphicProxySerializer, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.deal_schema import GAME_KEY, GAME_SCHEMAS
from api.serializers.engine import GamesSerializer, ScoredDealSerializer, ScoredMatchSerializer
from api.throttles import CountingThrottle
from scorebook.core.refusals import Refusal
from scorebook.matches.refusals import RulesRejected
from scorebook.rules import Rejection, describe_games, games, play_match, score_deal
from scorebook.rules.schema import game_schemas


class GamesView(APIView):
    """Every game with its house-rule switches, allowed values, defaults and profiles."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: GamesSerializer})
    def get(self, request: Request) -> Response:
        return Response(describe_games())


class NoSuchGame(Refusal):
    """The path names no game of the engine."""

    code = "rules.no_such_game"
    status = 404
    message = _("There is no such game.")


class GameSchemaView(APIView):
    """A game's JSON Schemas, generated from the engine: its house rules (``house_rules``)
    and its deal at each level it takes (``deal``: ``totals``, ``cards``, ``play``). The
    same schemas are the API schema's ``<Game>HouseRules`` and ``<Game>Deal<Level>``; a
    deal that fits may still be refused by the rules (400, every problem listed)."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("game", GAME_KEY, OpenApiParameter.PATH)],
        responses={200: GAME_SCHEMAS},
    )
    def get(self, request: Request, game: str) -> Response:
        if game not in games():
            raise NoSuchGame(path="game")
        return Response(game_schemas(game))


class ScoreThrottle(CountingThrottle):
    scope = "score"  # rate: REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]


class ScoreView(APIView):
    """Score a deal, or a whole match (an object with ``deals``), without storing anything."""

    permission_classes = [AllowAny]
    throttle_classes = [ScoreThrottle]

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={
            200: PolymorphicProxySerializer(
                "Scored",
                [ScoredDealSerializer, ScoredMatchSerializer],
                resource_type_field_name=None,
            )
        },
    )
    def post(self, request: Request) -> Response:
        data = request.data
        try:
            if isinstance(data, dict) and "deals" in data:
                return Response(play_match(data).as_dict())
            return Response({"ok": True, "result": score_deal(data).as_dict()})
        except Rejection as rejection:
            # the API's one refusal shape, {"errors": [...]} (it said "ok": false beside)
            raise RulesRejected(rejection) from None
