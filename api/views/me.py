"""GET /api/v1/me: who the token (or session) belongs to, for an app's first screen."""

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.serializers.me import MeSerializer, me_data
from scorebook.clubs.selectors import memberships_of
from scorebook.core.people import signed_in


class MeView(APIView):
    """The signed-in person: their clubs, their role in each, their player in each."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=MeSerializer)
    def get(self, request: Request) -> Response:
        user = signed_in(request)
        return Response(me_data(user, memberships_of(user)))
