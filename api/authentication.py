"""DRF's token authentication, with its one lookup as plain SQL (scorebook/core/hotpath.py
says why: it runs on every API request, deal entry's hot path included)."""

from __future__ import annotations

from typing import Any

from django.db import router
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

from scorebook.core import hotpath


class FastTokenAuthentication(TokenAuthentication):
    """Same answers as DRF's (the same messages for an unknown or inactive user's token),
    one joined read instead of the ORM's select_related query."""

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
