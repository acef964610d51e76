"""A request id on every request, answer and log line, so a 500 a player reports can be
found in the logs: the id the proxy sent (``X-Request-ID``) if it looks like one, else a
new one. The logging filter puts it on each record as ``request_id`` ("-" outside a
request)."""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Callable
from contextvars import ContextVar

from django.http import HttpRequest, HttpResponse

HEADER = "X-Request-ID"
_VALID = re.compile(r"[A-Za-z0-9._-]{8,64}")
_current: ContextVar[str] = ContextVar("request_id", default="-")


def current() -> str:
    """The id of the request being answered ("-" outside a request)."""
    return _current.get()


class RequestIdMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        given = request.headers.get(HEADER, "")
        request_id = given if _VALID.fullmatch(given) else uuid.uuid4().hex
        request.request_id = request_id  # type: ignore[attr-defined]  # read by the filter
        token = _current.set(request_id)
        try:
            response = self.get_response(request)
        finally:
            _current.reset(token)
        response[HEADER] = request_id
        return response


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        # django.request logs a 4xx/5xx after the middleware returned, with the request.
        request = getattr(record, "request", None)
        record.request_id = getattr(request, "request_id", None) or current()
        return True
