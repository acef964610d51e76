from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from scorebook.core import health


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
        response = JsonResponse(
            {"errors": [{"code": "auth.locked_out", "message": message}]}, status=429
        )
    else:
        response = render(request, "web/auth/locked_out.html", {"message": message}, status=429)
    response["Retry-After"] = str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    return response


@csrf_exempt
@require_POST
def bench_insert(request):
    """The HTTP bench's baseline: a bare view doing one INSERT (routed only when
    BENCH_ENDPOINTS is set), so deal entry is measured against the same stack."""
    from scorebook.matches.models import AuditEvent

    AuditEvent.objects.create(verb="bench", object_type="bench", object_id="0")
    return JsonResponse({"ok": True}, status=201)
