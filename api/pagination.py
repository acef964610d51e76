"""The project's pagination (``DEFAULT_PAGINATION_CLASS``): DRF's page numbers, with a
page that is not there named ``page.not_found`` like every other 404 (``api.lookups``).

Its own module, importing no view: DRF reads the setting while it defines its generic
views, so a module that imports those views could not be the setting's home."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination

#: The code of a page past the end (``?page=99``) or not a page number.
PAGE_NOT_FOUND = "page.not_found"


class Pages(PageNumberPagination):
    def paginate_queryset(self, queryset: Any, request: Any, view: Any = None) -> Any:
        try:
            return super().paginate_queryset(queryset, request, view)
        except NotFound as exc:
            raise NotFound(str(exc.detail), code=PAGE_NOT_FOUND) from None
