"""Stripe's Idempotency-Key contract for every POST of the API.

The first response to a key is stored; a retry with the same key and body gets it again
(marked ``Idempotent-Replayed: true``); the same key with another body gets 422; a request
that arrives while the first is still running gets 409. The key row is inserted in its own
transaction before the work starts, so its unique constraint lets exactly one request in.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import error
from scorebook.matches.models import IdempotencyKey

HEADER = "HTTP_IDEMPOTENCY_KEY"


def _body_hash(request: Request) -> str:
    canonical = json.dumps(request.data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(f"{request.path}|{canonical}".encode()).hexdigest()


def idempotent(view: Callable[..., Response]) -> Callable[..., Response]:
    @functools.wraps(view)
    def wrapper(self: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request.META.get(HEADER)
        if not key or not request.user.is_authenticated:
            return view(self, request, *args, **kwargs)
        if len(key) > 255:
            return error(
                "idempotency.key_too_long", _("An Idempotency-Key has at most 255 characters."), 400
            )
        digest = _body_hash(request)
        try:
            with transaction.atomic():
                row = IdempotencyKey.objects.create(
                    user=request.user,
                    key=key,
                    method=request.method,
                    path=request.path,
                    body_hash=digest,
                )
        except IntegrityError:
            row = IdempotencyKey.objects.get(user=request.user, key=key)
            if row.body_hash != digest:
                return error(
                    "idempotency.key_reused",
                    _("This Idempotency-Key was already used with a different request."),
                    422,
                )
            if row.status is None:
                return error(
                    "idempotency.in_progress",
                    _("The first request with this key is still running: retry in a moment."),
                    409,
                )
            response = Response(row.response, status=row.status)
            response["Idempotent-Replayed"] = "true"
            return response
        try:
            response = view(self, request, *args, **kwargs)
        except Exception:
            row.delete()
            raise
        if response.status_code >= 500:
            row.delete()
        else:
            row.status = response.status_code
            row.response = response.data
            row.save(update_fields=["status", "response"])
        return response

    return wrapper
