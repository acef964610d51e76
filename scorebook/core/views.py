import sys

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from scorebook.core import health, requestid


@require_GET
def healthz(request):
    """For load balancers and monitors: the database, the broker and a live Celery worker,
    each reported on its own; 503 when any of them is down (scorebook.core.health)."""
    checks = health.report()
    return JsonResponse(checks, status=200 if checks["status"] == "ok" else 503)


def login_locked_out(request, original_response=None, credentials=None):
    """django-axes lockout answer: 429 with Retry-After, JSON for the API, text elsewhere."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    message = gettext(
        "Too many failed logins for this name from this address. Try again in %(minutes)d minutes."
    ) % {"minutes": minutes}
    if request.path.startswith("/api/"):
        entry = {"code": "auth.locked_out", "path": "", "message": message, "params": {}}
        response: HttpResponse = JsonResponse({"errors": [entry]}, status=429)
    else:
        response = render(request, "web/auth/locked_out.html", {"message": message}, status=429)
    response["Retry-After"] = str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    return response


@csrf_exempt
@require_POST
def bench_insert(request):
    """The HTTP bench's baseline: a bare view doing one INSERT (routed only when
    BENCH_ENDPOINTS is set), so deal entry is measured against the same stack."""
    from scorebook.core.models import AuditEvent

    AuditEvent.objects.create(verb="bench", object_type="bench", object_id="0")
    return JsonResponse({"ok": True}, status=201)


# -- error answers outside a view: unknown routes, refused bodies, a database gone --------------


def _is_api(request) -> bool:
    return request.path.startswith("/api/")


def _api_error(code: str, message: str, status: int) -> JsonResponse:
    entry = {"code": code, "path": "", "message": message, "params": {}}
    return JsonResponse({"errors": [entry]}, status=status)


def _database_down(exc: BaseException | None) -> bool:
    from django.db import InterfaceError, OperationalError

    return isinstance(exc, (OperationalError, InterfaceError))


def unavailable(request) -> HttpResponse:
    """503 with Retry-After: the database did not answer; the phone retries later."""
    message = gettext("The service is briefly unavailable. Try again in a few seconds.")
    if _is_api(request):
        response: HttpResponse = _api_error("service.unavailable", message, 503)
    else:
        response = HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(settings.RETRY_AFTER_SECONDS)
    return response


def bad_request(request, exception=None):
    """handler400: a body over the size limit is 413; the API answers in its JSON shape."""
    from django.core.exceptions import RequestDataTooBig

    if isinstance(exception, RequestDataTooBig):
        message = gettext("The request body is too large.")
        if _is_api(request):
            return _api_error("http.too_large", message, 413)
        return HttpResponse(message, status=413, content_type="text/plain; charset=utf-8")
    if _is_api(request):
        return _api_error("http.bad_request", gettext("Bad request."), 400)
    return defaults.bad_request(request, exception)


def not_found(request, exception=None):
    """handler404: unknown API routes answer JSON like every other API error."""
    if _is_api(request):
        return _api_error("http.not_found", gettext("Not found."), 404)
    return defaults.page_not_found(request, exception)


def server_error(request):
    """handler500: a database that does not answer is a 503 with Retry-After; any other
    failure is the logged 500 it always was (JSON under /api/)."""
    if _database_down(sys.exc_info()[1]):
        return unavailable(request)
    if _is_api(request):
        message = gettext("Something went wrong on our side. It was logged as %(request_id)s.")
        request_id = requestid.current()
        response = _api_error("server.error", message % {"request_id": request_id}, 500)
        return response
    return defaults.server_error(request)
