"""One shape for every refusal the API gives: ``{"errors": [{"code", "message", "path"?}]}``.

The engine's rejections already have it; the exception handler gives DRF's own errors
(validation, authentication, permission, throttling) and the services' refusals the same
shape, with messages in the request's language.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from api.permissions import needs_role
from scorebook.clubs.services import LastOwner, NotAllowed
from scorebook.core.refusals import Refusal


def error(code: str, message: str, status: int, **extra: Any) -> Response:
    """A refusal with a stable ``code`` and a ``message`` a player can read."""
    return Response({"errors": [{"code": code, "message": str(message)}], **extra}, status=status)


def _flatten(detail: Any, field: str = "") -> list[dict[str, str]]:
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


def handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's exception handler, answering in the ``errors`` shape."""
    if isinstance(exc, Refusal):
        return Response({"errors": exc.errors()}, status=exc.status, headers=exc.headers())
    if isinstance(exc, NotAllowed):
        exc = exceptions.PermissionDenied(needs_role(str(exc)))
    elif isinstance(exc, LastOwner):
        return error("club.last_owner", _("A club must keep at least one owner."), 409)
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        errors = _flatten(exc.detail)
    else:
        code = getattr(exc, "default_code", "error")
        detail = getattr(exc, "detail", str(exc))
        errors = [{"code": f"http.{code}", "message": str(detail)}]
    response.data = {"errors": errors}
    if response.status_code == status.HTTP_429_TOO_MANY_REQUESTS:
        response.data["errors"][0]["code"] = "http.throttled"
    return response
