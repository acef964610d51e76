"""The API answers every time in UTC, written with ``Z`` (one format for programs, whatever
the server's ``TIME_ZONE``): DRF writes a time in the active zone, so the API's requests
run with UTC active. The pages keep the club's local time."""

from __future__ import annotations

import datetime
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone


class UtcAnswers:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith("/api/"):
            return self.get_response(request)
        with timezone.override(datetime.UTC):
            return self.get_response(request)
