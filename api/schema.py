"""The OpenAPI schema documents every refusal as well as every answer, and the contract
around them: bodies in JSON, the headers of retries and concurrency.

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

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.settings import spectacular_settings

from api.deal_schema import game_field
from api.refusal_codes import refusals
from scorebook.core.numbers import ID_PATTERN

#: Where an operation keeps its refusal codes between the view and the hook.
REFUSALS_KEY = "x-scorebook-refusals"

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

#: A 500: the id to quote, the one in the logs and in ``X-Request-ID``.
SERVER_ERROR_SCHEMA: dict[str, Any] = {
    "allOf": [
        {"$ref": "#/components/schemas/Error"},
        {
            "type": "object",
            "required": ["request_id"],
            "properties": {"request_id": {"type": "string"}},
        },
    ]
}
#: Refusals that carry data: a deal number already taken shows the deal ``stored`` there
#: (absent when the 409 is another conflict, a closed night); a stale If-Match, the
#: ``current`` version (its ETag in the header).
DEAL_CONFLICT_SCHEMA: dict[str, Any] = {
    "allOf": [
        {"$ref": "#/components/schemas/Error"},
        {"type": "object", "properties": {"stored": {"$ref": "#/components/schemas/Deal"}}},
    ]
}
STALE_VERSION_SCHEMA: dict[str, Any] = {
    "allOf": [
        {"$ref": "#/components/schemas/Error"},
        {
            "type": "object",
            "required": ["current"],
            "properties": {"current": {"$ref": "#/components/schemas/Deal"}},
        },
    ]
}
#: The operations whose refusals carry data: status -> component.
TYPED_REFUSALS = {
    "v1_matches_deals_create": {"409": "DealConflict"},
    "v1_deals_correct_create": {"412": "StaleVersion"},
}
#: Operations that send the deal's ETag with their 2xx answer (and a 412 with the current).
SENDS_ETAG = {"v1_deals_retrieve", "v1_matches_deals_create", "v1_deals_correct_create"}
#: POSTs that have no user to key on (keys are per user): the login, a new person's sign-up.
NO_IDEMPOTENCY = {"v1_auth_token_create", "v1_invitations_sign_up_create"}

HEADERS: dict[str, Any] = {
    "X-Request-ID": {
        "description": "The request's id, as in the logs (the proxy's if it sent one).",
        "schema": {"type": "string"},
    },
    "ETag": {
        "description": 'The deal version\'s tag, "<id>-<version>": send it as If-Match.',
        "schema": {"type": "string"},
    },
    "Idempotent-Replayed": {
        "description": "true: the stored answer to an earlier request with this key.",
        "schema": {"type": "string", "enum": ["true"]},
    },
    "Retry-After": {
        "description": "Seconds to wait before trying again.",
        "schema": {"type": "integer"},
    },
}
IDEMPOTENCY_KEY: dict[str, Any] = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": (
        "Any unique string (at most 255 characters), e.g. a UUID. A retry with the same key "
        "and body gets the first answer again (Idempotent-Replayed: true) and does nothing "
        "twice; the same key with another body is refused (422)."
    ),
    "schema": {"type": "string", "maxLength": 255},
}


class Schema(AutoSchema):
    """Request bodies are described as JSON only. The API still reads forms (the browsable
    API, curl -d), but a generated client offered three encodings sends all three, and
    nested bodies, nulls and lists do not survive a form."""

    def map_parsers(self) -> list[str]:
        return ["application/json"]

    def _map_serializer_field(
        self, field: Any, direction: Any, bypass_extensions: bool = False
    ) -> dict[str, Any]:
        """Every ``game`` field as the engine's game keys (``api/deal_schema.py``)."""
        return game_field(field, super()._map_serializer_field(field, direction, bypass_extensions))

    def map_renderers(self, attribute: str) -> list[Any]:
        """One media type per answer: a JSON path that still reads ``?format=csv`` (for
        clients written before the CSV paths) declares JSON only; its CSV has its own path."""
        found = super().map_renderers(attribute)
        plain = [r for r in found if r not in ("text/csv", "csv")]
        return plain or found

    def get_operation(self, *args: Any, **kwargs: Any) -> Any:
        """The operation, with the refusal codes its code can answer (``refusal_codes``),
        kept aside for ``document_errors`` to write into its responses."""
        operation = super().get_operation(*args, **kwargs)
        if operation is not None:
            operation[REFUSALS_KEY] = refusals(self.view, self.method)
        return operation


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


def ids_as_integers(result: dict[str, Any], generator: Any, request: Any, public: Any) -> Any:
    """A router's ``{id}`` is described as the ``<id:pk>`` routes' is: an integer.

    The router matches ids with a regex (``ID_PATTERN``), which drf-spectacular can only
    describe as a string of digits; a generated client then asks for ``id: str``."""
    digits = {"type": "string", "pattern": f"^{ID_PATTERN}$"}
    integer = spectacular_settings.PATH_CONVERTER_OVERRIDES["id"]  # as in settings.py
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []) if isinstance(operation, dict) else []:
                if parameter.get("in") == "path" and parameter.get("schema") == digits:
                    parameter["schema"] = dict(integer)
    return result


def _header(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/headers/{name}"}


#: Engine answers whose game-specific detail stands beside the fields every game shares
#: (a breakdown line's ``thirds``, an outcome's ``score``): open to more properties.
OPEN_COMPONENTS = ("Line", "Outcome")


def document_errors(result: dict[str, Any], generator: Any, request: Any, public: Any) -> Any:
    components = result.setdefault("components", {}).setdefault("schemas", {})
    for name in OPEN_COMPONENTS:
        if name in components:
            components[name]["additionalProperties"] = True
    components["Error"] = ERROR_SCHEMA
    components["ServerError"] = SERVER_ERROR_SCHEMA
    components["DealConflict"] = DEAL_CONFLICT_SCHEMA
    components["StaleVersion"] = STALE_VERSION_SCHEMA
    result["components"]["headers"] = HEADERS
    _strict_nullable_refs(result)
    ref = {"$ref": "#/components/schemas/Error"}
    for path, operations in result.get("paths", {}).items():
        if not path.startswith("/api/"):
            continue
        for method, operation in operations.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            refusals = READ_REFUSALS if method == "get" else WRITE_REFUSALS
            responses = operation.setdefault("responses", {})
            name = operation.get("operationId", "")
            for code, typed in TYPED_REFUSALS.get(name, {}).items():
                schema = {"$ref": f"#/components/schemas/{typed}"}
                responses[code] = {
                    "description": refusals[code],
                    "content": {"application/json": {"schema": schema}},
                }
            for code, description in refusals.items():
                responses.setdefault(
                    code,
                    {"description": description, "content": {"application/json": {"schema": ref}}},
                )
            html = {"text/html": {"schema": {"type": "string"}}}
            for code, description in SERVER_REFUSALS.items():
                responses.setdefault(code, {"description": description, "content": html})
            server = {"$ref": "#/components/schemas/ServerError"}
            responses.setdefault(
                "500",
                {
                    "description": "A fault of ours, logged: quote its request_id.",
                    "content": {"application/json": {"schema": server}},
                },
            )
            found = operation.pop(REFUSALS_KEY, {})
            # One handler may serve a read and a write (a match's deals): a read keeps the
            # statuses a read can answer with.
            found = {status: codes for status, codes in found.items() if status in refusals}
            _document_codes(found, responses, refusals)
            _document_headers(method, name, operation)
    return result


#: The codes any operation may answer with at these statuses (the contract's own).
COMMON_CODES = {
    "400": ["input.*"],
    "401": ["http.not_authenticated", "http.authentication_failed"],
    "403": ["http.permission_denied"],
    "405": ["http.method_not_allowed"],
    "406": ["http.not_acceptable"],
    "413": ["http.too_large"],
    "415": ["http.unsupported_media_type"],
    "422": ["idempotency.key_reused"],
    "429": ["http.throttled"],
    "500": ["server.error"],
    "503": ["service.unavailable"],
}


def _document_codes(
    found: dict[str, set[str]], responses: dict[str, Any], descriptions: dict[str, str]
) -> None:
    """Each refusal status lists its codes: those the operation's code can raise (its
    ``Refusal`` classes, the objects it looks up) and the contract's common ones, in the
    description and as ``x-codes``."""
    ref = {"$ref": "#/components/schemas/Error"}
    for status in found:
        responses.setdefault(
            status,
            {
                "description": descriptions.get(status, "Refused."),
                "content": {"application/json": {"schema": ref}},
            },
        )
    for status, response in responses.items():
        codes = sorted(found.get(status, set())) + COMMON_CODES.get(status, [])
        if not codes or status.startswith("2") or status in SERVER_REFUSALS:
            continue
        listed = ", ".join(f"`{code}`" for code in codes)
        response["description"] = f"{response.get('description', '')} Codes: {listed}.".strip()
        response["x-codes"] = codes


def _document_headers(method: str, name: str, operation: dict[str, Any]) -> None:
    """The headers an operation reads and sends: Idempotency-Key on every POST that has a
    user to key on, X-Request-ID on every answer of ours, ETag where the deal's tag is
    sent, Idempotent-Replayed on a POST's successes, Retry-After on 429 and 503."""
    if method == "post" and name not in NO_IDEMPOTENCY:
        parameters = operation.setdefault("parameters", [])
        parameters[:] = [p for p in parameters if p.get("name") != "Idempotency-Key"]
        parameters.append(IDEMPOTENCY_KEY)
    for code, response in operation["responses"].items():
        if code in SERVER_REFUSALS_CODES:
            continue
        headers = response.setdefault("headers", {})
        headers["X-Request-ID"] = _header("X-Request-ID")
        success = code.startswith("2")
        if name in SENDS_ETAG and (success or code == "412"):
            headers["ETag"] = _header("ETag")
        if success and method == "post" and name not in NO_IDEMPOTENCY:
            headers["Idempotent-Replayed"] = _header("Idempotent-Replayed")
        if code in ("429", "503"):
            headers["Retry-After"] = _header("Retry-After")


SERVER_REFUSALS_CODES = frozenset(SERVER_REFUSALS)


class TokenOrBearer(OpenApiAuthenticationExtension):
    """The API token, declared both ways it is accepted: ``Authorization: Token <key>``
    (an API key in a header) or ``Authorization: Bearer <key>`` (HTTP bearer), either
    one enough."""

    target_class = "api.authentication.FastTokenAuthentication"
    name = ["tokenAuth", "bearerAuth"]
    priority = 1

    def get_security_requirement(self, auto_schema: Any) -> list[dict[str, list[Any]]]:
        return [{"tokenAuth": []}, {"bearerAuth": []}]

    def get_security_definition(self, auto_schema: Any) -> list[dict[str, Any]]:
        return [
            {
                "type": "apiKey",
                "in": "header",
                "name": "Authorization",
                "description": 'The token from POST /api/v1/auth/token, as "Token <key>".',
            },
            {
                "type": "http",
                "scheme": "bearer",
                "description": 'The same token, as "Bearer <key>".',
            },
        ]


#: The null of OpenAPI 3.0 that strict validators accept: ``nullable`` counts only beside
#: a ``type``, and the enum admits nothing else.
NULL: dict[str, Any] = {"type": "object", "nullable": True, "enum": [None]}


def _strict_nullable_refs(node: Any) -> None:
    """A reference that may be null, ``{allOf: [{$ref}], nullable: true}`` as
    drf-spectacular writes it, is null to no strict 3.0 validator (``nullable`` without a
    ``type`` beside it is ignored, and the referenced object refuses null): it becomes
    ``{anyOf: [{$ref}, NULL]}``, which every reader takes as "the object or null" (a
    generated client: ``Person | None``)."""
    if isinstance(node, list):
        for item in node:
            _strict_nullable_refs(item)
        return
    if not isinstance(node, dict):
        return
    for value in node.values():
        _strict_nullable_refs(value)
    refs = node.get("allOf")
    if node.get("nullable") and "type" not in node and isinstance(refs, list) and len(refs) == 1:
        del node["nullable"], node["allOf"]
        node["anyOf"] = [refs[0], dict(NULL)]
    branches = node.get("oneOf")
    if node.get("nullable") and "type" not in node and isinstance(branches, list):
        # A nullable choice: oneOf [its enum, NullEnum]; the null is a branch already.
        del node["nullable"]
        if not any(b.get("$ref", "").endswith("/NullEnum") for b in branches):
            branches.append(dict(NULL))
