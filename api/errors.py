"""One shape for every refusal the API gives: ``{"errors": [{"code", "message", "path"?}]}``.

The exception handler maps, in one place: the services' refusals (``Refusal``: its status,
entries, extra fields and headers), the engine's rejections (inside ``RulesRejected``),
DRF's own errors (validation, authentication, permission, throttling), all with messages
in the request's language. Anything else is a bug: logged with the request id and
answered 500 with that id, never dressed up as an input error.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler, set_rollback

from api.serializers.matches import DealSerializer
from scorebook.core import requestid
from scorebook.core.refusals import Refusal
from scorebook.matches.models import Deal

logger = logging.getLogger(__name__)

#: How the API shows the objects a refusal carries (``Refusal.extra``).
REPRESENTATIONS: dict[type, Callable[[Any], Any]] = {
    Deal: lambda deal: DealSerializer(deal).data,
}


def error(code: str, message: str, status: int, **extra: Any) -> Response:
    """A refusal with a stable ``code`` and a ``message`` a player can read."""
    entry = {"code": code, "path": "", "message": str(message), "params": {}}
    return Response({"errors": [entry], **extra}, status=status)


def _represent(value: Any) -> Any:
    render = REPRESENTATIONS.get(type(value))
    return render(value) if render is not None else value


def refusal_response(refusal: Refusal) -> Response:
    """The answer to a service's refusal (the work it refused was rolled back)."""
    body = {"errors": refusal.errors()}
    body.update((key, _represent(value)) for key, value in refusal.extra().items())
    return Response(body, status=refusal.status, headers=refusal.headers())


def _server_error(exc: Exception, context: dict[str, Any]) -> Response:
    request_id = requestid.current()
    request = context.get("request")
    logger.error(
        "unhandled %s in %s %s",
        type(exc).__name__,
        getattr(request, "method", "?"),
        getattr(request, "path", "?"),
        exc_info=exc,
        extra={"request_id": request_id},
    )
    message = _("Something went wrong on our side. It was logged as %(request_id)s.")
    entry = {"code": "server.error", "path": "", "message": message % {"request_id": request_id}}
    return Response(
        {
            "errors": [{**entry, "params": {}}],
            "request_id": request_id,
        },
        status=status.HTTP_500_INTERNAL_SERVER_ERROR,
    )


def _flatten(detail: Any, field: str = "") -> list[dict[str, Any]]:
    if isinstance(detail, dict):
        return [
            item
            for key, value in detail.items()
            for item in _flatten(value, f"{field}.{key}" if field else str(key))
        ]
    if isinstance(detail, list):
        if all(isinstance(item, exceptions.ErrorDetail | str) for item in detail):
            return [item for value in detail for item in _flatten(value, field)]
        return [
            item
            for index, value in enumerate(detail)
            for item in _flatten(value, f"{field}[{index}]")
        ]
    entry = {"code": f"input.{getattr(detail, 'code', 'invalid')}", "message": str(detail)}
    if field and field != "non_field_errors":
        entry["path"] = field
    return [entry]


def _unavailable(exc: Exception, context: dict[str, Any]) -> Response:
    request = context.get("request")
    logger.warning(
        "database unavailable in %s %s: %s",
        getattr(request, "method", "?"),
        getattr(request, "path", "?"),
        exc,
        extra={"request_id": requestid.current()},
    )
    message = _("The service is briefly unavailable. Try again in a few seconds.")
    entry = {"code": "service.unavailable", "path": "", "message": message, "params": {}}
    return Response(
        {"errors": [entry]},
        status=status.HTTP_503_SERVICE_UNAVAILABLE,
        headers={"Retry-After": str(settings.RETRY_AFTER_SECONDS)},
    )


def handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's exception handler, answering in the ``errors`` shape: every entry has
    ``code``, ``path``, ``message`` and ``params``."""
    if isinstance(exc, Refusal):
        set_rollback()
        return refusal_response(exc)
    if isinstance(exc, RequestDataTooBig):
        set_rollback()
        message = _("The request body is too large.")
        entry = {"code": "http.too_large", "path": "", "message": message, "params": {}}
        return Response({"errors": [entry]}, status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, (OperationalError, InterfaceError)):
        set_rollback()
        return _unavailable(exc, context)
    response = exception_handler(exc, context)
    if response is None:
        set_rollback()
        return _server_error(exc, context)
    if isinstance(exc, exceptions.ValidationError):
        errors = _flatten(exc.detail)
    else:
        # Django's Http404 and PermissionDenied reach here as themselves: DRF answered
        # them as NotFound and PermissionDenied, so they get those codes too.
        drf = {Http404: exceptions.NotFound, PermissionDenied: exceptions.PermissionDenied}
        code = getattr(drf.get(type(exc), exc), "default_code", "error")
        detail = getattr(exc, "detail", str(exc))
        errors = [{"code": f"http.{code}", "message": str(detail)}]
    for entry in errors:
        entry.setdefault("path", "")
        entry.setdefault("params", {})
    response.data = {"errors": errors}
    if response.status_code == status.HTTP_429_TOO_MANY_REQUESTS:
        response.data["errors"][0]["code"] = "http.throttled"
    return response
