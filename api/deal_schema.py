"""The deal, the house rules and the game keys in the OpenAPI schema, from the engine.

``scorebook.rules.schema`` generates each game's deal schema (per level) and house-rules
schema from the engine's own description; this drf-spectacular postprocessing hook puts
them in ``components`` (``<Game>Deal<Level>``, ``<Game>HouseRules``), with ``DealInput``
(any game's deal at any level), ``HouseRules`` (any game's), ``ResolvedHouseRules`` (what
a match stores) and ``GameKey`` (the engine's registry). Serializer fields point at them
with :data:`DEAL`, :data:`HOUSE_RULES`, :data:`RESOLVED_HOUSE_RULES`, :data:`GAME_KEY` and
:data:`GAME_KEY_OR_BLANK`. The schema describes shapes; the engine still judges each deal.
"""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scorebook.rules import games
from scorebook.rules.schema import deal_schema, game_keys, house_rules_schema

Schema = dict[str, Any]


def _ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


DEAL = _ref("DealInput")
HOUSE_RULES = _ref("HouseRules")
RESOLVED_HOUSE_RULES = _ref("ResolvedHouseRules")
GAME_KEY = _ref("GameKey")
GAME_KEY_OR_BLANK = _ref("GameKeyOrBlank")
GAME_SCHEMAS = _ref("GameSchemas")
#: A leaderboard's ``game`` filter: a game key, or empty or ``all`` for all games.
GAME_OR_ALL: Schema = {"type": "string", "enum": ["", "all", *game_keys()]}


def camel(key: str) -> str:
    """A game key as a component name's start, each word and each run of letters after a
    digit capitalised (as client generators name classes): ``traversone_pairs`` ->
    ``TraversonePairs``, a key ending ``4i`` -> ``4I``."""
    return "".join(part.capitalize() for part in re.findall(r"[A-Za-z]+|[0-9]+", key))


def deal_component(key: str, level: str) -> str:
    return f"{camel(key)}Deal{camel(level)}"


def house_rules_component(key: str) -> str:
    return f"{camel(key)}HouseRules"


def components() -> dict[str, Schema]:
    """Every component the deal and the house rules bring, by name."""
    keys = game_keys()
    out: dict[str, Schema] = {
        "GameKey": {
            "type": "string",
            "enum": keys,
            "description": "A game of the rules engine (GET /api/v1/rules/games).",
        },
        "GameKeyOrBlank": {
            "type": "string",
            "enum": ["", *keys],
            "description": "A game key; blank: all games (or any game).",
        },
    }
    deals = []
    for key in keys:
        for level in games()[key].levels:
            name = deal_component(key, level)
            out[name] = deal_schema(key, level)
            deals.append(_ref(name))
        out[house_rules_component(key)] = house_rules_schema(key)
    out["DealInput"] = {
        "anyOf": deals,
        "description": (
            "A deal in the engine's deal format (docs/deal-format.md): one of the "
            "<Game>Deal<Level> shapes, by the match's game. The shape is checked here; "
            "the rules by the engine, which refuses with 400 and every problem listed."
        ),
    }
    out["HouseRules"] = {
        "anyOf": [_ref(house_rules_component(key)) for key in keys],
        "description": (
            "House rules: an optional profile and switch values, those of the match's "
            "game (<Game>HouseRules); switches left out take the profile's or the default."
        ),
    }
    out["ResolvedHouseRules"] = {
        "type": "object",
        "required": ["game", "profile", "values"],
        "properties": {
            "game": GAME_KEY,
            "profile": {"type": "string", "nullable": True},
            "values": {
                "type": "object",
                "additionalProperties": True,
                "description": "Every switch of the game with the value it plays (the "
                "game's <Game>HouseRules, every switch given).",
            },
        },
        "description": "The house rules as played: every switch resolved.",
    }
    out["GameSchemas"] = {
        "type": "object",
        "required": ["game", "house_rules", "deal"],
        "properties": {
            "game": GAME_KEY,
            "house_rules": {
                "type": "object",
                "additionalProperties": True,
                "description": "The JSON Schema of the game's house rules.",
            },
            "deal": {
                "type": "object",
                "additionalProperties": {"type": "object", "additionalProperties": True},
                "description": "The JSON Schema of the game's deal at each level it takes.",
            },
        },
    }
    return out


def document_deals(result: dict[str, Any], generator: Any, request: Any, public: Any) -> Any:
    """drf-spectacular postprocessing hook: add the engine's components, and type every
    query parameter ``game`` left a plain string (a filter) as a game key."""
    result.setdefault("components", {}).setdefault("schemas", {}).update(components())
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []) if isinstance(operation, dict) else ():
                if parameter.get("name") == "game" and parameter.get("in") == "query":
                    if parameter.get("schema") == {"type": "string"}:
                        parameter["schema"] = GAME_KEY
    return result


def game_field(field: Any, schema: Schema) -> Schema:
    """A serializer's ``game`` string as the engine's keys (blank too where the field
    allows it: a leaderboard over all games, a league of any game)."""
    if getattr(field, "field_name", None) != "game" or schema.get("type") != "string":
        return schema
    typed = GAME_KEY_OR_BLANK if _allows_blank(field) else GAME_KEY
    extra: Schema = {k: schema[k] for k in ("readOnly", "writeOnly", "description") if k in schema}
    return {"allOf": [typed], **extra} if extra else dict(typed)


def _allows_blank(field: Any) -> bool:
    """A written field says so itself; a read-only field of a model serializer loses
    ``allow_blank`` (DRF drops it), so the model's own field says whether a stored row
    may be blank (a league of any game, a leaderboard over all games)."""
    if getattr(field, "allow_blank", False):
        return True
    model = getattr(getattr(getattr(field, "parent", None), "Meta", None), "model", None)
    if model is None or not getattr(field, "read_only", False):
        return False
    try:
        return bool(model._meta.get_field(field.source).blank)
    except FieldDoesNotExist:
        return False


@extend_schema_field(DEAL)
class DealField(serializers.JSONField):
    """A deal in the engine's format; the schema says its shape, the engine its rules."""


@extend_schema_field(HOUSE_RULES)
class HouseRulesField(serializers.JSONField):
    """House rules as asked for: a profile and switch values."""


@extend_schema_field(RESOLVED_HOUSE_RULES)
class ResolvedHouseRulesField(serializers.JSONField):
    """House rules as a match stores them: every switch resolved."""
