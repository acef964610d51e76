"""Stripe's Idempotency-Key contract, the default for every POST under /api/.

One middleware, so no endpoint can forget it: each API POST that carries an
``Idempotency-Key`` runs through the store's ``run_once`` (``scorebook.core.idempotency``,
which says the contract), and a replay answers the stored JSON.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext_lazy as _

from scorebook.core.idempotency import run_once
from scorebook.core.models import IdempotencyKey
from scorebook.core.refusals import Refusal

PREFIX = "/api/"


class KeyTooLong(Refusal):
    code = "idempotency.key_too_long"
    message = _("An Idempotency-Key has at most 255 characters.")


class KeyReused(Refusal):
    code = "idempotency.key_reused"
    status = 422
    message = _("This Idempotency-Key was already used with a different request.")


def _refused(refusal: Refusal) -> JsonResponse:
    return JsonResponse({"errors": refusal.errors()}, status=refusal.status)


def _replay_json(row: IdempotencyKey) -> HttpResponse:
    response = JsonResponse(row.response, status=row.status, safe=False)
    for name, value in (row.headers or {}).items():
        response[name] = value
    response["Idempotent-Replayed"] = "true"
    return response


def _json_answer(response: HttpResponse) -> tuple[int, Any] | None:
    if 200 <= response.status_code < 300 and hasattr(response, "data"):
        return response.status_code, response.data
    return None


class IdempotencyMiddleware:
    """Runs each API POST that carries an Idempotency-Key with its key, as above."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        key = request.META.get("HTTP_IDEMPOTENCY_KEY")
        if not key or request.method != "POST" or not request.path.startswith(PREFIX):
            return self.get_response(request)
        if len(key) > 255:
            return _refused(KeyTooLong())
        digest = hashlib.sha256(request.path.encode() + b"|" + request.body).hexdigest()
        return run_once(
            key=key,
            method=request.method,
            path=request.path,
            digest=digest,
            run=lambda: self.get_response(request),
            # The API's authentication sets the request's user (DRF does, on the Django
            # request), after the view has run.
            user_of=lambda: getattr(request, "user", None),
            answer=_json_answer,
            replay=_replay_json,
            reused=lambda: _refused(KeyReused()),
        )
