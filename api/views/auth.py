"""Token login for scripts and apps, counted by django-axes like every other login."""

from django.contrib.auth.signals import user_logged_in
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.response import Response

from api.parsers import StrictFormParser, StrictJSONParser, StrictMultiPartParser
from api.serializers.auth import TokenSerializer


class TokenView(ObtainAuthToken):
    """POST username and password, get the API token.

    Failed attempts count per username and address; after the limit the answer is 429 with
    ``Retry-After`` (see ``AXES_*`` in settings). The serializer authenticates against the
    underlying Django request, so django-axes marks the request its middleware answers, and
    a success is announced as a login, which clears the failure count as a web login does.
    """

    serializer_class = TokenSerializer
    parser_classes = (StrictFormParser, StrictMultiPartParser, StrictJSONParser)

    def get_serializer_context(self):
        return {"request": self.request._request, "format": self.format_kwarg, "view": self}

    def post(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = serializer.validated_data["user"]
        token, _ = Token.objects.get_or_create(user=user)
        user_logged_in.send(sender=user.__class__, request=request._request, user=user)
        return Response({"token": token.key})
