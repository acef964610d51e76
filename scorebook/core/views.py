from django.conf import settings
from django.db import DatabaseError, connection
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST


@require_GET
def healthz(request):
    """For load balancers and monitors: is the process up and the database reachable?"""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        return JsonResponse({"status": "error", "database": "unreachable"}, status=503)
    return JsonResponse({"status": "ok", "database": "ok"})


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
