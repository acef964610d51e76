"""The OpenAPI schema documents every refusal as well as every answer.

Every error the API gives has one shape (``api/errors.py``), so rather than repeating it on
each view, this drf-spectacular postprocessing hook adds the ``Error`` component and the
statuses an operation can refuse with to every operation that does not already name them:
reads may be refused as invalid (a filter), unauthenticated, forbidden, not found, not
acceptable, throttled or unavailable; writes also as a conflict, a failed precondition
(If-Match), too large, an unsupported media type, a reused Idempotency-Key or a missing
If-Match.
"""

from __future__ import annotations

from typing import Any

ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["errors"],
    "properties": {
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["code", "path", "message", "params"],
                "properties": {
                    "code": {"type": "string", "example": "input.required"},
                    "path": {"type": "string", "example": "deal.sides.A.thirds"},
                    "message": {"type": "string"},
                    "params": {"type": "object", "additionalProperties": True},
                },
            },
        },
        "request_id": {"type": "string"},
    },
    "additionalProperties": True,  # a conflict also carries the stored deal, etc.
}

READ_REFUSALS = {
    "400": "Invalid input (a filter, a page).",
    "401": "Not signed in.",
    "403": "Signed in, but the role is not enough.",
    "404": "No such object (or one of another club).",
    "405": "Method not allowed.",
    "406": "Not acceptable.",
    "429": "Too many requests; see Retry-After.",
    "503": "The database does not answer; see Retry-After.",
}
#: Answered by the web server in front of the application (gunicorn, nginx), in HTML.
SERVER_REFUSALS = {
    "414": "The request line (the URL and its query) is too long.",
    "431": "The request headers are too large.",
}
WRITE_REFUSALS = {
    **READ_REFUSALS,
    "409": "Conflict: the deal number is taken, or the name already exists.",
    "412": "If-Match does not match the current version.",
    "413": "The body is too large.",
    "415": "Unsupported media type.",
    "422": "The Idempotency-Key was used with another request.",
    "428": "If-Match is required.",
}


def document_errors(result: dict[str, Any], generator: Any, request: Any, public: Any) -> Any:
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components["Error"] = ERROR_SCHEMA
    ref = {"$ref": "#/components/schemas/Error"}
    for path, operations in result.get("paths", {}).items():
        if not path.startswith("/api/"):
            continue
        for method, operation in operations.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            refusals = READ_REFUSALS if method == "get" else WRITE_REFUSALS
            responses = operation.setdefault("responses", {})
            for code, description in refusals.items():
                responses.setdefault(
                    code,
                    {"description": description, "content": {"application/json": {"schema": ref}}},
                )
            html = {"text/html": {"schema": {"type": "string"}}}
            for code, description in SERVER_REFUSALS.items():
                responses.setdefault(code, {"description": description, "content": html})
    return result
