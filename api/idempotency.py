"""Stripe's Idempotency-Key contract, the default for every POST under /api/.

One middleware, so no endpoint can forget it. A POST with an ``Idempotency-Key`` header
runs in one transaction with its key: when it succeeds (2xx) the key row with the answer
is written in the same transaction, so the work and the key commit together or not at
all. A retry with the same key and body gets the stored answer again (marked
``Idempotent-Replayed: true``); the same key with another body gets 422.

A concurrent request with the same key (a phone retrying while the first is still
running) does its work, then waits on the key's unique index until the first commits,
fails there, rolls its work back and replays the first answer; if the first fails, its
key goes with it and the retry runs afresh. An answer that is not a success (a refusal,
invalid input) changes nothing and is not stored: it is rolled back, and if another
request with the key has committed meanwhile (the retry was refused because the first
already did the work), that first answer is replayed. Keys are per user: anonymous
requests run as if they had none.

The body is compared byte for byte (with the path): a retry sends the request it sent.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext_lazy as _

from api.models import IdempotencyKey
from scorebook.core.people import Anyone
from scorebook.core.refusals import Refusal

PREFIX = "/api/"
#: Headers of a stored answer that its replay carries too.
REPLAYED_HEADERS = ("ETag", "Location")


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


def _stored(user: Anyone, key: str) -> IdempotencyKey | None:
    return IdempotencyKey.objects.filter(user_id=int(user.pk or 0), key=key).first()


def run_once(
    *,
    key: str,
    method: str,
    path: str,
    digest: str,
    run: Callable[[], HttpResponse],
    user_of: Callable[[], Any],
    answer: Callable[[HttpResponse], tuple[int, Any] | None],
    replay: Callable[[IdempotencyKey], HttpResponse],
    reused: Callable[[], HttpResponse],
) -> HttpResponse:
    """The contract above, for any POST: ``run`` does the work; ``answer`` says what of
    a response to store (``(status, data)``, or None when it is not a success); ``replay``
    answers a retry from the stored row; ``reused`` answers the same key with another
    ``digest``. The API's middleware and the pages' saves both use it."""
    user = None
    try:
        with transaction.atomic():
            response = run()
            user = user_of()
            if user is None or not user.is_authenticated:
                return response
            stored = answer(response)
            if stored is not None:
                IdempotencyKey.objects.create(
                    user=user,
                    key=key,
                    method=method,
                    path=path,
                    body_hash=digest,
                    status=stored[0],
                    response=stored[1],
                    headers={h: response[h] for h in REPLAYED_HEADERS if response.has_header(h)},
                )
            else:
                transaction.set_rollback(True)
    except IntegrityError:
        # A retry, or a request with this key that committed while we waited on the
        # index; anything else that broke a constraint is not ours to answer.
        row = _stored(user, key) if user is not None else None
        if row is None:
            raise
        return replay(row) if row.body_hash == digest else reused()
    if stored is None and response.status_code < 500:
        row = _stored(user, key)
        if row is not None:
            return replay(row) if row.body_hash == digest else reused()
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
