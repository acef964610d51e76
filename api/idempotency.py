"""Stripe's Idempotency-Key contract for every POST of the API.

The first response to a key is stored; a retry with the same key and body gets it again
(marked ``Idempotent-Replayed: true``); the same key with another body gets 422.

The work and the key row with its answer commit in one transaction. A concurrent request
with the same key (a phone retrying while the first is still running) does its work,
then waits on the key's unique index until the first commits, fails there, rolls its work
back and replays the first answer; if the first fails, its key goes with it and the retry
runs afresh. One transaction and one key statement per request keep deal entry fast
(the key row is written without ORM query building: see ``scorebook.core.rows``).
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

from api.errors import error, refusal_response
from scorebook.core import rows
from scorebook.core.refusals import Refusal
from scorebook.matches.models import IdempotencyKey

HEADER = "HTTP_IDEMPOTENCY_KEY"


def _body_hash(request: Request) -> str:
    canonical = json.dumps(request.data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(f"{request.path}|{canonical}".encode()).hexdigest()


def _replay(row: IdempotencyKey, digest: str) -> Response:
    if row.body_hash != digest:
        return error(
            "idempotency.key_reused",
            _("This Idempotency-Key was already used with a different request."),
            422,
        )
    response = Response(row.response, status=row.status)
    response["Idempotent-Replayed"] = "true"
    return response


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
                try:
                    response = view(self, request, *args, **kwargs)
                except Refusal as refusal:  # the service rolled its work back; keep the answer
                    response = refusal_response(refusal)
                if response.status_code >= 500:
                    transaction.set_rollback(True)
                    return response
                rows.insert(
                    IdempotencyKey(
                        user=request.user,
                        key=key,
                        method=request.method,
                        path=request.path,
                        body_hash=digest,
                        status=response.status_code,
                        response=response.data,
                    )
                )
        except IntegrityError:
            # A retry, or a request with this key that committed while we waited on the
            # index; anything else that broke a constraint is not ours to answer.
            stored = IdempotencyKey.objects.filter(user=request.user, key=key).first()
            if stored is None:
                raise
            return _replay(stored, digest)
        return response

    return wrapper
