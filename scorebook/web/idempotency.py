"""The API's Idempotency-Key contract for the pages' saves (a phone retrying a deal),
through the same function as the API's middleware (``core.idempotency.run_once``).

The key comes in a hidden field (``idempotency_key``), made in the browser and kept until
the save is acknowledged, or in the ``Idempotency-Key`` header the offline queue sends. A
save that succeeds (a redirect) stores the key with where it led, in the same
transaction; a retry with the same key and fields is sent there again; the same key with
other fields is refused (422). A refusal stores nothing: it changed nothing, and the
retry runs afresh.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.translation import gettext as _

from scorebook.core.idempotency import run_once
from scorebook.core.models import IdempotencyKey

FIELD = "idempotency_key"


def _digest(request: HttpRequest) -> str:
    """The path and the posted fields (not the CSRF token, which a page may renew)."""
    fields = sorted(
        (name, values) for name, values in request.POST.lists() if name != "csrfmiddlewaretoken"
    )
    canonical = json.dumps([request.path, fields], separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def _answer(response: HttpResponse) -> tuple[int, Any] | None:
    if response.status_code in (302, 303):
        return 303, {"location": response["Location"]}
    return None


def _replay(row: IdempotencyKey) -> HttpResponse:
    response = HttpResponseRedirect((row.response or {}).get("location", "/"), status=303)
    response["Idempotent-Replayed"] = "true"
    return response


def _reused() -> HttpResponse:
    return HttpResponse(
        _("This save was already sent with other data. Reload the page."), status=422
    )


def idempotent_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        key = request.POST.get(FIELD) or request.META.get("HTTP_IDEMPOTENCY_KEY", "")
        if request.method != "POST" or not key or not request.user.is_authenticated:
            return view(request, *args, **kwargs)
        return run_once(
            key=key[:255],
            method="POST",
            path=request.path,
            digest=_digest(request),
            run=lambda: view(request, *args, **kwargs),
            user_of=lambda: request.user,
            answer=_answer,
            replay=_replay,
            reused=_reused,
        )

    return wrapper
