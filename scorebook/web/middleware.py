"""A service's refusal that a page did not show next to a field becomes a page saying why,
with the refusal's status (403 for a role, 409 for a conflict...): the pages' side of the
one mapping (scorebook/web/errors.py); the API maps its own in api/errors.py."""

from django.shortcuts import render

from scorebook.core.refusals import Refusal


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
