"""One shape for every refusal the API gives: ``{"errors": [{"code", "message", ...}]}``.

The engine's rejections already have it; these are the API's own (conflicts, stale edits,
permissions), with messages in the request's language.
"""

from typing import Any

from rest_framework.response import Response


def error(code: str, message: str, status: int, **extra: Any) -> Response:
    """A refusal with a stable ``code`` and a ``message`` a player can read."""
    return Response({"errors": [{"code": code, "message": str(message)}], **extra}, status=status)
