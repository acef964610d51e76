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

from api.lookups import ROUTE_NOT_FOUND, code_of
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


def not_found_code(exc: Exception, view: Any) -> str:
    """A 404's code names what is missing: the code it was raised with (``found``,
    ``missing``, a page), else the view's resource (its router ``basename`` or its
    ``not_found_code``), else ``route.not_found``."""
    if isinstance(exc, exceptions.NotFound):
        code = exc.get_codes()
        if isinstance(code, str) and code != exceptions.NotFound.default_code:
            return code
    named = getattr(view, "not_found_code", None)
    if named:
        return str(named)
    basename = getattr(view, "basename", None)
    return code_of(basename) if basename else ROUTE_NOT_FOUND


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
    elif isinstance(exc, Http404 | exceptions.NotFound):
        detail = getattr(exc, "detail", exceptions.NotFound.default_detail)
        errors = [{"code": not_found_code(exc, context.get("view")), "message": str(detail)}]
    else:
        # Django's PermissionDenied reaches here as itself: DRF answered it as its own
        # PermissionDenied, so it gets that code too.
        named: Any = exceptions.PermissionDenied if isinstance(exc, PermissionDenied) else exc
        code = getattr(named, "default_code", "error")
        detail = getattr(exc, "detail", str(exc))
        errors = [{"code": f"http.{code}", "message": str(detail)}]
    for entry in errors:
        entry.setdefault("path", "")
        entry.setdefault("params", {})
    response.data = {"errors": errors}
    if response.status_code == status.HTTP_429_TOO_MANY_REQUESTS:
        response.data["errors"][0]["code"] = "http.throttled"
    return response


def unrouted(request: Any, exception: Exception | None = None) -> Any:
    """handler404: an API path that matches no route answers in the errors shape, its code
    named from the resource the path starts with (``/api/v1/deals/abc`` is
    ``deal.not_found``, as ``/api/v1/deals/987654`` is), else ``route.not_found``."""
    from django.http import JsonResponse

    from api.v1 import router
    from scorebook.core.views import not_found

    if not request.path.startswith("/api/"):
        return not_found(request, exception)
    parts = request.path.split("/")  # "", "api", "v1", "deals", "abc", ...
    prefix = parts[3] if len(parts) > 3 and parts[2] == "v1" else ""
    names = {registered[0]: registered[2] for registered in router.registry}
    code = code_of(names[prefix]) if prefix in names else ROUTE_NOT_FOUND
    entry = {"code": code, "path": "", "message": _("Not found."), "params": {}}
    return JsonResponse({"errors": [entry]}, status=404)
