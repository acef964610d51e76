"""A service's refusal that a page did not show next to a field becomes a page saying why,
with the refusal's status (403 for a role, 409 for a conflict...): the pages' side of the
one mapping (scorebook/web/errors.py); the API maps its own in api/errors.py."""

from django.http import JsonResponse
from django.shortcuts import render

from scorebook.core.inputs import check
from scorebook.core.refusals import Refusal

#: The bodies a page's form sends (the API's parsers check its own).
FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")


class RefusalMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, Refusal) or request.path.startswith("/api/"):
            return None
        response = render(
            request, "web/refused.html", {"refusal": exception}, status=exception.status
        )
        for name, value in exception.headers().items():
            response[name] = value
        return response


class BadInputMiddleware:
    """A NUL, another control character or a lone surrogate in the path, the query string
    or a page's form is refused before any view reads it (``input.bad_character``, 400):
    a page saying so, or the API's ``errors`` shape. PostgreSQL cannot compare or store
    such text (a NUL in ``?game=`` or a correction reason was a 500), and no name, key or
    note needs one. The API's bodies get the same check from its parsers."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            check({"path": request.path_info, "query": dict(request.GET.lists())})
            if not request.path.startswith("/api/") and request.content_type in FORMS:
                check({"form": dict(request.POST.lists())})
        except Refusal as refusal:
            if request.path.startswith("/api/"):
                return JsonResponse({"errors": refusal.errors()}, status=refusal.status)
            return render(request, "web/refused.html", {"refusal": refusal}, status=400)
        return self.get_response(request)
