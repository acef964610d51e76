"""The rules engine over HTTP: stateless scoring and the catalogue of games."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.throttles import CountingThrottle
from scorebook.matches.refusals import RulesRejected
from scorebook.rules import Rejection, describe_games, play_match, score_deal


class GamesView(APIView):
    """Every game with its house-rule switches, allowed values, defaults and profiles."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request) -> Response:
        return Response(describe_games())


class ScoreThrottle(CountingThrottle):
    scope = "score"  # rate: REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]


class ScoreView(APIView):
    """Score a deal, or a whole match (an object with ``deals``), without storing anything."""

    permission_classes = [AllowAny]
    throttle_classes = [ScoreThrottle]

    @extend_schema(
        request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT}
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
