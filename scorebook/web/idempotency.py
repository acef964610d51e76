"""The API's Idempotency-Key contract for the pages' saves (a phone retrying a deal).

The key comes in a hidden field (``idempotency_key``), made in the browser and kept until
the save is acknowledged, or in the ``Idempotency-Key`` header. A save that succeeds (a
redirect) stores the key with where it led, in the same transaction; a retry with the
same key and fields is sent there again; the same key with another body is refused (422).
A refusal stores nothing: it changed nothing, and the retry runs afresh.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.translation import gettext as _

from scorebook.matches.models import IdempotencyKey

FIELD = "idempotency_key"


def _replay(row: IdempotencyKey, digest: str) -> HttpResponse:
    if row.body_hash != digest:
        return HttpResponse(
            _("This save was already sent with other data. Reload the page."), status=422
        )
    response = HttpResponseRedirect((row.response or {}).get("location", "/"), status=303)
    response["Idempotent-Replayed"] = "true"
    return response


def _digest(request: HttpRequest) -> str:
    """The path and the posted fields (not the CSRF token, which a page may renew)."""
    fields = sorted(
        (name, values) for name, values in request.POST.lists() if name != "csrfmiddlewaretoken"
    )
    canonical = json.dumps([request.path, fields], separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def idempotent_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        key = request.POST.get(FIELD) or request.META.get("HTTP_IDEMPOTENCY_KEY", "")
        if request.method != "POST" or not key or not request.user.is_authenticated:
            return view(request, *args, **kwargs)
        key = key[:255]
        digest = _digest(request)
        try:
            with transaction.atomic():
                response = view(request, *args, **kwargs)
                done = response.status_code in (302, 303)
                if done:
                    IdempotencyKey.objects.create(
                        user=request.user,
                        key=key,
                        method="POST",
                        path=request.path,
                        body_hash=digest,
                        status=303,
                        response={"location": response["Location"]},
                    )
                else:
                    transaction.set_rollback(True)
        except IntegrityError:
            stored = IdempotencyKey.objects.filter(user=request.user, key=key).first()
            if stored is None:
                raise
            return _replay(stored, digest)
        if not done and response.status_code < 500:
            stored = IdempotencyKey.objects.filter(user=request.user, key=key).first()
            if stored is not None:
                return _replay(stored, digest)
        return response

    return wrapper
