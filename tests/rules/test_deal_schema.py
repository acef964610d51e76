"""The deal and house-rules schemas (``scorebook.rules.schema``) describe what the engine
accepts: every documented example and every deal the engine accepts validates against its
game's schema at the level the engine scored it at; junk does not."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorebook.rules import Rejection, games, play_match, score_deal, start_match
from scorebook.rules.engine import DEAL_CONTEXT_FIELDS
from scorebook.rules.schema import (
    FIELDS,
    deal_schema,
    fields_at,
    game_keys,
    game_schemas,
    house_rules_schema,
    rule_variants,
)

DOCS = Path(__file__).resolve().parents[2] / "docs"
FENCE = re.compile(r"^```json\n(.*?)^```", re.M | re.S)
VALIDATOR = jsonschema.Draft7Validator
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))


def valid(schema: dict[str, Any], value: Any) -> bool:
    return VALIDATOR(schema).is_valid(value)


def why(schema: dict[str, Any], value: Any) -> str:
    return "; ".join(
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"[:300]
        for e in VALIDATOR(schema).iter_errors(value)
    )


def test_the_games_are_the_engines():
    assert game_keys() == sorted(games())


@pytest.mark.parametrize("key", sorted(games()))
def test_schemas_are_well_formed_and_cover_every_field(key):
    schemas = game_schemas(key)
    VALIDATOR.check_schema(schemas["house_rules"])
    for level, schema in schemas["deal"].items():
        VALIDATOR.check_schema(schema)
        text = json.dumps(schema)
        for word in ('"const"', '"propertyNames"', '"$schema"', '"nullable"'):
            assert word not in text  # the subset OpenAPI 3.0 and JSON Schema share
        assert set(schema["properties"]) == set(fields_at(games()[key], level))
    assert set(schemas["deal"]) == set(games()[key].levels)


def test_every_field_the_engine_reads_has_a_shape():
    for key, game in games().items():
        for level in game.levels:
            assert set(fields_at(game, level)) <= set(FIELDS), (key, level)


# -- the documented examples --------------------------------------------------------------


def documented() -> list[Any]:
    out = []
    for path in sorted(DOCS.rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            out.append(pytest.param(json.loads(match.group(1)), id=f"{path.name}:{line}"))
    return out


EXAMPLES = documented()


def test_the_docs_have_examples_of_every_game():
    assert {p.values[0]["game"] for p in EXAMPLES} == set(games())


@pytest.mark.parametrize("example", EXAMPLES)
def test_documented_examples_fit_their_schemas(example):
    key = example["game"]
    if example.get("rules") is not None:
        assert valid(house_rules_schema(key), example["rules"]), why(
            house_rules_schema(key), example["rules"]
        )
    if "deals" in example:
        report = play_match(example)
        pairs = list(zip(example["deals"], (r.level for r in report.results), strict=True))
    else:
        result = score_deal(example)
        deal = {k: v for k, v in example.items() if k not in DEAL_CONTEXT_FIELDS}
        pairs = [(deal, result.level)]
    for deal, level in pairs:
        schema = deal_schema(key, level)
        assert valid(schema, deal), why(schema, deal)


# -- whatever the engine accepts fits ------------------------------------------------------

CASES = [
    (key, level, variant, players)
    for key, game in sorted(games().items())
    for level in game.levels
    for variant in range(len(rule_variants(key)))
    for players in game.player_counts
]


@pytest.mark.parametrize("key", sorted(games()))
def test_random_deals_of_every_house_rule_fit_the_schema(key):
    """Two random legal deals for each house-rules variant, player count and level."""
    for case in CASES:
        if case[0] == key:
            for seed in (0, 1):
                check_engine_accepted(case, seed, ())


@SETTINGS
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_engine_accepted_deals_fit_the_schema(case, seed, data):
    """A random legal deal of any game, house rules, player count and level, with some of
    its fields dropped: whenever the engine accepts it, the schema does too."""
    dropped = data.draw(st.lists(st.text(max_size=12), max_size=2, unique=True))
    check_engine_accepted(case, seed, dropped if data.draw(st.booleans()) else ())


def check_engine_accepted(case: tuple[str, str, int, int], seed: int, dropped: Any) -> None:
    key, level, variant, players = case
    rules = rule_variants(key)[variant]
    try:
        game, rules, state = start_match(key, dict(rules.values), players)
    except Rejection:  # house rules that cannot work with this many players
        return
    deal = game.random_deal(random.Random(seed), rules, state, level)
    for index in dropped:  # drop some fields: a shorter deal the engine may accept too
        deal.pop(sorted(deal)[len(index) % len(deal)], None)
    try:
        result = game.add_deal(state, json.loads(json.dumps(deal)), rules)
    except Rejection:
        return
    schema = deal_schema(key, result.level)
    assert valid(schema, deal), why(schema, deal)


# -- junk does not ------------------------------------------------------------------------

JUNK = [
    [],
    "a deal",
    7,
    None,
    {"no_such_field": 1},
    {"dealer": "nobody"},
    {"level": "everything"},
    {"tricks": [["Zz"]]},
    {"tricks": "Ad"},
    {"hands": {"P1": ["3d", 5]}},
    {"sides": {"A": {"thirds": -1, "tricks": 1}}},
    {"seats": {"nobody": {"thirds": 3, "tricks": 1}}},
    {"declarations": {"player": "N"}},
    {"penalties": [{"against": "N", "reason": "sneezing"}]},
]


@pytest.mark.parametrize("key", sorted(games()))
@pytest.mark.parametrize("junk", JUNK, ids=repr)
def test_the_schemas_refuse_junk(key, junk):
    for level in games()[key].levels:
        assert not valid(deal_schema(key, level), junk)


def test_a_cards_pile_lists_its_cards():
    for key in games():
        schema = deal_schema(key, "cards")
        piles = schema["properties"].get("seats") or schema["properties"].get("sides")
        if piles is None:
            continue
        name = next(iter(piles["properties"]))
        assert not valid(schema, {piles_field(schema): {name: {"thirds": 3, "tricks": 1}}})
        assert valid(schema, {piles_field(schema): {name: {"cards": ["Ad"], "tricks": 1}}})


def piles_field(schema: dict[str, Any]) -> str:
    return "seats" if "seats" in schema["properties"] else "sides"


@pytest.mark.parametrize("key", sorted(games()))
def test_house_rules_schema_follows_the_switches(key):
    game = games()[key]
    schema = house_rules_schema(key)
    assert valid(schema, {})
    assert not valid(schema, {"no.such.switch": 1})
    assert not valid(schema, [])
    for switch in game.switches:
        assert schema["properties"][switch.key]["default"] == switch.default
        assert valid(schema, {switch.key: switch.default})
        game.rules({switch.key: switch.default})  # the engine agrees
        wrong = "not a value" if type(switch.default) is not str else 12345
        assert not valid(schema, {switch.key: wrong})
        with pytest.raises(Rejection):
            game.rules({switch.key: wrong})
    for profile in game.profiles:
        assert valid(schema, {"profile": profile})
    assert not valid(schema, {"profile": "no such profile"})


@SETTINGS
@given(key=st.sampled_from(sorted(games())), data=st.data())
def test_house_rules_the_engine_accepts_fit(key, data):
    game = games()[key]
    spec = {}
    for switch in data.draw(st.lists(st.sampled_from(game.switches), max_size=4)):
        if switch.between is not None:
            spec[switch.key] = data.draw(st.integers(switch.between[0] - 2, switch.between[1] + 2))
        else:
            spec[switch.key] = data.draw(st.sampled_from([*switch.choices, "x", 0, True]))
    try:
        game.rules(spec)
    except Rejection:
        accepted = False
    else:
        accepted = True
    assert valid(house_rules_schema(key), spec) == accepted


# -- whatever fits the schema gets a result or a rejection, never a crash -----------------


def values(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values of a schema of the generator's subset (what schemathesis sends the API)."""
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "anyOf" in schema:
        return st.one_of([values(s) for s in schema["anyOf"]])
    kind = schema.get("type")
    if kind == "object":
        props = schema.get("properties", {})
        required = set(schema.get("required", ()))
        if not props:
            return st.dictionaries(st.text(max_size=4), st.integers(0, 3), max_size=2)
        return st.fixed_dictionaries(
            {k: values(v) for k, v in props.items() if k in required},
            optional={k: values(v) for k, v in props.items() if k not in required},
        )
    if kind == "array":
        return st.lists(
            values(schema["items"]),
            min_size=schema.get("minItems", 0),
            max_size=schema.get("maxItems", 12),
        )
    if kind == "string":
        if "pattern" in schema:
            return st.from_regex(schema["pattern"], fullmatch=True)
        return st.text(max_size=8)
    if kind == "integer":
        return st.integers(schema.get("minimum", -(2**40)), schema.get("maximum", 2**40))
    if kind == "boolean":
        return st.booleans()
    return st.none() | st.integers(-3, 3) | st.text(max_size=3)


GAME_LEVELS = [(key, level) for key, game in sorted(games().items()) for level in game.levels]


@pytest.mark.parametrize("key,level", GAME_LEVELS)
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_whatever_fits_the_schema_is_scored_or_refused(key, level, data):
    """The engine stays the judge: a deal drawn from the schema is scored or rejected with
    problems (the API's 400), never an exception of another kind (a 500)."""
    deal = data.draw(values(deal_schema(key, level)))
    game, rules, state = start_match(key)
    try:
        game.add_deal(state, deal, rules)
    except Rejection as rejection:
        assert rejection.problems
