"""An answer against its description in the live schema: the same keys at every level.

The answers built by hand (a league's table, a fixture) have a serializer that describes
them in ``/api/schema/``; this is the check that the two are one shape."""

import json
from typing import Any

from django.conf import settings
from django.utils import translation
from rest_framework.test import APIClient

#: GET /api/schema/'s answer by (language, settings): 0.6 s of CPU to generate, 40 times a run.
_ANSWERS: dict[tuple[Any, ...], bytes] = {}


def live_schema() -> dict[str, Any]:
    """The schema as GET /api/schema/ answers it, a new copy for each caller. The schema
    is made of the code, the settings and the language only: the answer is asked once per
    language and set of settings in a run (a test that changes a setting gets its own)."""
    key = (
        translation.get_language(),
        tuple((name, repr(getattr(settings, name))) for name in dir(settings) if name.isupper()),
    )
    if key not in _ANSWERS:
        response = APIClient().get("/api/schema/", {"format": "json"})
        assert response.status_code == 200
        _ANSWERS[key] = response.content
    return json.loads(_ANSWERS[key])


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    nullable = False
    while True:
        nullable = nullable or bool(node.get("nullable"))
        if "$ref" in node:
            node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
            node = {**node, "nullable": nullable or node.get("nullable", False)}
        elif "allOf" in node and len(node["allOf"]) == 1:
            node = {**node["allOf"][0], **{k: v for k, v in node.items() if k != "allOf"}}
        elif "oneOf" in node or "anyOf" in node:
            # A null branch: 3.1's {"type": "null"}, or 3.0's strict {"enum": [null]}.
            branches = node.get("oneOf") or node["anyOf"]
            shapes = [n for n in branches if n.get("type") != "null" and n.get("enum") != [None]]
            node = {**shapes[0], "nullable": True} if len(shapes) == 1 else node
            if len(shapes) != 1:
                return node
        else:
            return node


def mismatches(schema: dict[str, Any], node: dict[str, Any], answer: Any, at: str = "") -> list:
    """Where ``answer`` leaves its description: keys missing or extra, at every depth."""
    node = _resolve(schema, node)
    if answer is None:
        return [] if node.get("nullable") else [f"{at or '/'}: null, not nullable"]
    found = []
    if node.get("type") == "object" and "properties" in node:
        if not isinstance(answer, dict):
            return [f"{at}: not an object"]
        described = set(node["properties"])
        extra = set() if node.get("additionalProperties") else set(answer) - described
        missing = set(node.get("required", described)) - set(answer)
        if extra or missing:
            found.append(f"{at or '/'}: extra {extra}, missing {missing}")
        for key in described & set(answer):
            found += mismatches(schema, node["properties"][key], answer[key], f"{at}/{key}")
    elif node.get("type") == "array" and isinstance(answer, list):
        for i, item in enumerate(answer):
            found += mismatches(schema, node.get("items", {}), item, f"{at}/{i}")
    return found


def component(schema: dict[str, Any], name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def _strict(node: Any) -> Any:
    """OpenAPI 3.0's ``nullable`` as JSON Schema says it (``null`` among the types)."""
    if isinstance(node, list):
        return [_strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _strict(value) for key, value in node.items() if key != "nullable"}
    if node.get("nullable"):
        return {"anyOf": [out, {"type": "null"}]}
    return out


def validate(schema: dict[str, Any], name: str, answer: Any) -> None:
    """Raise unless ``answer`` is valid for the component ``name`` of the live schema."""
    validate_as(schema, component(schema, name), answer)


def validate_as(schema: dict[str, Any], shape: dict[str, Any], answer: Any) -> None:
    """Raise unless ``answer`` is valid for ``shape`` (a part of the live schema)."""
    import jsonschema

    root = {"components": _strict(schema["components"]), **_strict(shape)}
    jsonschema.validate(answer, root)


def answer_schema(schema: dict[str, Any], path: str, method: str, code: str) -> dict[str, Any]:
    response = schema["paths"][path][method]["responses"][code]
    return response["content"]["application/json"]["schema"]
