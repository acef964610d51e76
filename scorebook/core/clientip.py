"""The client's address: one rule for the login lockout (django-axes) and the throttles (DRF).

DRF's ``NUM_PROXIES`` (set from ``TRUSTED_PROXY_COUNT``) already implements it: with 0
proxies the socket address, with N the N-th address from the end of X-Forwarded-For, which
the outermost trusted proxy wrote. Axes calls this so both count the same person.
"""

from django.http import HttpRequest
from rest_framework.throttling import BaseThrottle


def client_address(request: HttpRequest) -> str | None:
    # DRF reads only META from the request, which a Django request has as well.
    return BaseThrottle().get_ident(request)  # type: ignore[arg-type]
