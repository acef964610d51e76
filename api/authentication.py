"""DRF's token authentication, with its one lookup as plain SQL (scorebook/core/hotpath.py
says why: it runs on every API request, deal entry's hot path included), and the token
taken after either prefix: ``Token <key>`` (DRF's) or ``Bearer <key>`` (what generated
clients and HTTP libraries send for a bearer scheme)."""

from __future__ import annotations

from typing import Any

from django.db import router
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication, get_authorization_header
from rest_framework.authtoken.models import Token

from scorebook.core import hotpath

#: The prefixes of the Authorization header that carry a token, lower case.
PREFIXES = (b"token", b"bearer")


class FastTokenAuthentication(TokenAuthentication):
    """Same answers as DRF's (the same messages for an unknown or inactive user's token),
    one joined read instead of the ORM's select_related query; ``Bearer`` as ``Token``."""

    def authenticate(self, request: Any) -> tuple[Any, Token] | None:
        auth = get_authorization_header(request).split()
        if not auth or auth[0].lower() not in PREFIXES:
            return None
        if len(auth) == 1:
            raise exceptions.AuthenticationFailed(
                _("Invalid token header. No credentials provided.")
            )
        if len(auth) > 2:
            raise exceptions.AuthenticationFailed(
                _("Invalid token header. Token string should not contain spaces.")
            )
        try:
            key = auth[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed(
                _("Invalid token header. Token string should not contain invalid characters.")
            ) from None
        return self.authenticate_credentials(key)

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        user = hotpath.user_of_token(key)
        if user is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        # The stored token as DRF gives it; its other fields are deferred (loaded if read).
        token = Token.from_db(router.db_for_read(Token), ["key", "user_id"], [key, user.pk])
        token.user = user
        return user, token
