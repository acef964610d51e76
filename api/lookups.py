"""Every 404 of the API names what was not found: ``match.not_found``, ``club.not_found``,
``page.not_found``... (never a catch-all), so a program can tell a deleted match from a
wrong club or a page past the end.

``found`` is ``get_object_or_404`` whose 404 carries that code; the views' own
``get_object`` (DRF's) raise a bare ``Http404``, which the exception handler names from
the view's ``basename`` (``api.errors``); unknown routes name it from the path
(``scorebook.core.views.not_found``).
"""

from __future__ import annotations

import re
from typing import Any

from django.db.models import Model, QuerySet
from django.http import Http404
from rest_framework import generics
from rest_framework.exceptions import NotFound

from api.pagination import PAGE_NOT_FOUND

__all__ = ["PAGE_NOT_FOUND", "code_of", "found", "missing", "model_code"]

#: The code of a path that names no route and no resource.
ROUTE_NOT_FOUND = "route.not_found"


def code_of(name: str) -> str:
    """``LeagueEntry``, ``league-entry`` or ``leagueentry``: ``league_entry.not_found``."""
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).replace("-", "_").lower()
    return f"{snake}.not_found"


def model_code(model: type[Model]) -> str:
    return code_of(model._meta.object_name or model.__name__)


def missing(model: type[Model]) -> NotFound:
    """The 404 for a ``model`` that is not there (or is another club's: the same)."""
    return NotFound(code=model_code(model))


def found(queryset: QuerySet[Any] | type[Model], **filters: Any) -> Any:
    """``get_object_or_404`` whose 404 says which object is missing."""
    model = queryset if isinstance(queryset, type) else queryset.model
    try:
        return generics.get_object_or_404(queryset, **filters)
    except Http404:
        raise missing(model) from None
