"""What OPTIONS answers: the view's name, description, renderers and parsers.

DRF's default also describes the fields of each write action by building the view's
serializer, which fails (a 500) for actions that take no body (``transfers/{id}/paid``)
and duplicates the OpenAPI schema, which is where the fields are documented.
"""

from __future__ import annotations

from typing import Any

from rest_framework.metadata import SimpleMetadata


class Metadata(SimpleMetadata):
    def determine_metadata(self, request: Any, view: Any) -> dict[str, Any]:
        return {
            "name": view.get_view_name(),
            "description": view.get_view_description(),
            "renders": [renderer.media_type for renderer in view.renderer_classes],
            "parses": [parser.media_type for parser in view.parser_classes],
            "schema": "/api/schema/",
        }
