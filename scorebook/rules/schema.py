"""JSON Schemas of each game's deal, level by level, and of its house rules, generated
from the engine's own description of the game.

A client (a generated one, a form, a fuzzer) can know the shape of what it sends without
reading the game pages: which fields a deal at a level may carry (the fields the engine
itself reads: :meth:`Game.deal_fields` and :meth:`Game.play_fields` over the game's house
rules), who may be named (the seats and sides of the game's tables), what a card looks
like, which switches the house rules have with their values and defaults. The schema
describes shapes; the engine stays the judge: a deal that fits it may still be refused
(thirds that do not add up, a card twice, a declaration nobody held).

The output keeps to what OpenAPI 3.0 and JSON Schema share (no ``const``, no
``propertyNames``, no ``$schema``), so the API's schema can carry it as it is. Every deal
the engine accepts validates against its game's schema (a test checks it, with the games'
documented examples and their random deals).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from typing import Any

from .cards import ALL_RANKS, SUITS
from .declarations import ANOMALY_FIELDS, FIXES, FORMS, KINDS, WHEN
from .declarations import FIELDS as DECLARATION_FIELDS
from .game import Game
from .games import REGISTRY
from .houserules import Rules, Switch
from .irregularities import ANNUL_REASONS, ANNUL_STAGES, FORFEIT_REASONS, PENALTY_REASONS
from .irregularities import FIELDS as IRREGULAR_FIELDS
from .tricks import CAPTURE_FIELDS

Schema = dict[str, Any]

#: The levels a deal is entered at: totals, captured cards, the play record.
LEVELS = ("totals", "cards", "play")
#: The levels whose deal the engine reads with :meth:`Game.score_entry`.
ENTRY_LEVELS = ("totals", "cards")
#: Most tricks a deal can have (a pile counts at most this many).
MAX_TRICKS = 40
#: The largest total a deal's integers take (running totals, points, chips).
MAX_NUMBER = 10_000


def game_keys() -> list[str]:
    """Every game of the engine, in the order the catalogue lists them."""
    return sorted(REGISTRY)


# -- what the engine says about a game ----------------------------------------------------


@functools.cache
def rule_variants(key: str) -> tuple[Rules, ...]:
    """The house rules a schema has to cover: the defaults, each profile, and each
    switch's every other choice from the defaults (fields come and go with the rules)."""
    game = REGISTRY[key]
    variants = [game.rules(None)]
    variants += [game.rules({"profile": name}) for name in game.profiles]
    for switch in game.switches:
        variants += [game.rules({switch.key: value}) for value in switch.choices[1:]]
    return tuple(variants)


@functools.cache
def seats_of(key: str) -> tuple[str, ...]:
    """Every seat of the game's tables, over the player counts it is played by."""
    game = REGISTRY[key]
    rules = game.rules(None)
    return _unique(seat for n in game.player_counts for seat in game.seats(rules, n))


@functools.cache
def sides_of(key: str) -> tuple[str, ...]:
    """Who keeps a score that is not a seat (the sides: A and B, the soloist...), over the
    house rules and player counts."""
    game = REGISTRY[key]
    seats = set(seats_of(key))
    found: list[str] = []
    for rules in rule_variants(key):
        for n in game.player_counts:
            table = game.seats(rules, n)
            found += game.scorers(rules, table)
            found += game.table_shape(rules.values, table).scorers
    return _unique(name for name in found if name not in seats)


def fields_at(game: Game, level: str) -> tuple[str, ...]:
    """The top-level fields a deal at ``level`` may carry under some house rules: what
    the engine reads there, and the record fields of an irregular deal it allows."""
    variants = rule_variants(game.key)
    if level == "play":
        own = [f for rules in variants for f in game.play_fields(rules)]
        if type(game).score_play is Game.score_play:  # the template reads contested
            own.append("contested")
    else:
        own = [f for rules in variants for f in game.deal_fields(rules)]
    for field in IRREGULAR_FIELDS:
        if field == "penalties" and not game.takes_penalties:
            continue
        if field == "forfeit" and game.forfeit_points is None:
            continue
        own.append(field)
    return _unique(own)


def _unique(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


# -- shapes -------------------------------------------------------------------------------


def _card_pattern() -> str:
    """A card code as the engine reads it: rank then suit, either case (``Ad``, ``10b``)."""
    ranks = sorted(ALL_RANKS, key=len, reverse=True)
    long = [r for r in ranks if len(r) > 1]
    short = "".join(sorted({c for r in ranks if len(r) == 1 for c in (r.upper(), r.lower())}))
    suits = "".join(sorted({c for s in SUITS for c in (s, s.upper())}))
    return f"^(?:{'|'.join(map(re.escape, long))}|[{short}])[{suits}]$"


CARD: Schema = {
    "type": "string",
    "pattern": _card_pattern(),
    "description": "A card: rank then suit (Ad, 3c, Rs, 10b).",
}
CARDS: Schema = {"type": "array", "items": CARD}


def _integer(low: int = 0, high: int = MAX_NUMBER) -> Schema:
    return {"type": "integer", "minimum": low, "maximum": high}


def _enum(values: Iterable[Any], description: str = "") -> Schema:
    values = list(values)
    kind = {bool: "boolean", int: "integer", str: "string"}[type(values[0])]
    out: Schema = {"type": kind, "enum": values}
    if description:
        out["description"] = description
    return out


def _object(properties: dict[str, Schema], required: Iterable[str] = ()) -> Schema:
    out: Schema = {"type": "object", "properties": properties, "additionalProperties": False}
    if list(required):
        out["required"] = list(required)
    return out


def _map(keys: Iterable[str], value: Schema) -> Schema:
    """An object from a seat (or any name the engine knows) to ``value``."""
    return {
        "type": "object",
        "properties": dict.fromkeys(keys, value),
        "additionalProperties": value,
    }


class Context:
    """What a field's shape depends on: the game's seats and sides, and the level."""

    def __init__(self, game: Game, level: str) -> None:
        self.game = game
        self.level = level
        self.seats = seats_of(game.key)
        self.sides = sides_of(game.key)
        self.names = (*self.seats, *self.sides)

    def name(self, what: str = "A seat or a side") -> Schema:
        return _enum(self.names, what)

    def seat(self, what: str = "A seat") -> Schema:
        return _enum(self.seats, what)

    def capture(self) -> Schema:
        """One scorer's pile: counts (thirds or points) at the totals level, the cards
        themselves at the cards level (every pile then lists them)."""
        fields: dict[str, Schema] = {
            "thirds": {**_integer(), "description": "Card points in thirds of a point."},
            "points": {**_integer(), "description": "Card points, where the game counts them."},
            "cards": {**CARDS, "description": "The cards taken."},
            "tricks": _integer(0, MAX_TRICKS),
        }
        assert set(CAPTURE_FIELDS) <= set(fields)
        if self.level == "cards":
            del fields["thirds"]
            return _object(fields, required=("cards",))
        return _object(fields)

    def piles(self, keys: Iterable[str]) -> Schema:
        return _object(dict.fromkeys(keys, self.capture()))


def _declaration(ctx: Context) -> Schema:
    by_field: dict[str, Schema] = {
        "player": ctx.name("Who declared."),
        "type": _enum(KINDS),
        "suit": _enum(SUITS),
        "rank": {"type": "string"},
        "missing": _enum(SUITS, "The suit lacking (three of a kind)."),
        "coda": CARDS,
        "trick": _integer(0, MAX_TRICKS),
        "when": _enum(WHEN),
        "form": _enum(FORMS),
        "fixed": _enum(FIXES),
        "contested": {"type": "boolean"},
        "count": _integer(0, 4),
    }
    assert set(DECLARATION_FIELDS) | set(ANOMALY_FIELDS) <= set(by_field)
    return {"type": "array", "items": _object(by_field)}


def _penalties(ctx: Context) -> Schema:
    item = _object(
        {
            "against": ctx.name("The seat or side at fault."),
            "reason": _enum(PENALTY_REASONS),
            "trick": _integer(1, MAX_TRICKS),
        },
        required=("against", "reason"),
    )
    return {"type": "array", "items": item}


def _annulment(ctx: Context) -> Schema:
    return _object(
        {
            "reason": _enum(ANNUL_REASONS),
            "stage": _enum(ANNUL_STAGES),
            "asked_by": ctx.seat(),
            "trick": _integer(1, MAX_TRICKS),
        },
        required=("reason", "stage"),
    )


def _forfeit(ctx: Context) -> Schema:
    return _object(
        {"by": ctx.name("Who forfeits."), "reason": _enum(FORFEIT_REASONS)},
        required=("by", "reason"),
    )


def _level(ctx: Context) -> Schema:
    allowed = ("play",) if ctx.level == "play" else ENTRY_LEVELS
    return _enum(allowed, "The level; optional, the engine reads it from the fields.")


def _tricks(ctx: Context) -> Schema:
    return {"type": "array", "items": CARDS, "description": "Every trick, its cards in order."}


def _plays(ctx: Context) -> Schema:
    spin = {"type": "array", "items": CARD, "minItems": 2, "maxItems": 2}
    return {
        "type": "array",
        "items": {"anyOf": [CARD, spin]},
        "description": "The cards played in order; the Spinado with its card as a pair.",
    }


def _named_list(ctx: Context, **fields: Schema) -> Schema:
    return {"type": "array", "items": _object(fields)}


#: The shape of each field a deal may carry, by name. A field means one thing in every
#: game; where games write it differently (a number of discards or the cards themselves),
#: the shape allows each way.
FIELDS: dict[str, Callable[[Context], Schema]] = {
    "dealer": lambda c: c.seat("The seat that dealt."),
    "level": _level,
    "sides": lambda c: c.piles(c.sides or c.names),
    "seats": lambda c: c.piles(c.seats),
    "all_tricks": lambda c: c.name("Who took every trick (counts left out)."),
    "counters_alone": lambda c: c.seat(
        "Who alone took all his side's counters, his partner none (a stramazzone)."
    ),
    "last_trick": lambda c: c.name("Who took the last trick."),
    "last_trick_round1": lambda c: c.name("Who took the first round's last trick."),
    "declarations": _declaration,
    "annulled_by": lambda c: c.seat("Who asked for the annulment."),
    "hand": lambda c: {**CARDS, "description": "The hand that annuls the deal."},
    "hands": lambda c: {
        "anyOf": [_map(c.seats, CARDS), {"type": "array", "items": _map(c.seats, CARDS)}],
        "description": "Each seat's hand; a list of them, round by round, where the game "
        "deals in rounds.",
    },
    "tricks": _tricks,
    "plays": _plays,
    "claim": lambda c: _object(
        {
            "side": c.name("The side that claims (or is called out)."),
            "after_trick": _integer(0, MAX_TRICKS),
            "on_lead": c.name(),
            "by": c.name("The side that called out."),
            "cappotto": {"type": "string"},
        }
    ),
    "failed_callouts": lambda c: _named_list(
        c, by=c.name("Who called out."), after_trick=_integer(0, MAX_TRICKS)
    ),
    "first_to_target": lambda c: {"description": "Who reached the target first."},
    "cappotto_after_win": lambda c: {"description": "A cappotto made after the win."},
    "laid_down": lambda c: {"description": "The cards laid down for a cappotto."},
    "caller": lambda c: c.seat("The seat that called."),
    "called": lambda c: {"type": "string", "description": "The card called."},
    "partner": lambda c: c.seat("The called card's holder."),
    "bids": lambda c: _named_list(c, player=c.seat(), bid={"type": "string"}),
    "called_from": lambda c: {"type": "string", "description": "Where the called card was."},
    "holds_all_threes": lambda c: {"type": "boolean"},
    "discards": lambda c: {"anyOf": [_integer(0, MAX_TRICKS), CARDS, _map(c.seats, CARDS)]},
    "revoke": lambda c: {"type": "string", "description": "Who revoked."},
    "stock_exposed": lambda c: {"type": "object"},
    "out_of_turn": lambda c: {"type": "object"},
    "stock": lambda c: CARDS,
    "given": lambda c: {"type": "string", "description": "The card given."},
    "picks": lambda c: CARDS,
    "antes": lambda c: {"description": "The antes paid, as the engine works them out."},
    "out_first": lambda c: c.seat("Who went out first."),
    "cards_left": lambda c: _map(c.seats, _integer(0, MAX_TRICKS)),
    "matrimony_by": lambda c: c.seat(),
    "intrigue_by": lambda c: c.seat(),
    "spinado_played_by": lambda c: c.seat(),
    "spinado_held_by": lambda c: c.seat(),
    "spinado_in_dead_hand": lambda c: {"type": "boolean"},
    "kings_played": lambda c: {"type": "object", "additionalProperties": c.seat()},
    "dead_hand": lambda c: CARDS,
    "monte": lambda c: CARDS,
    "monte_shares": lambda c: _map(c.seats, _integer(0, MAX_TRICKS)),
    "monte_taken": lambda c: _map(c.seats, CARDS),
    "card_not_given_back": lambda c: {"type": "boolean"},
    "twos": lambda c: _named_list(c, player=c.seat(), trick=_integer(0, MAX_TRICKS)),
    "redraws": lambda c: _map(c.seats, _integer(0, MAX_TRICKS)),
    "dummy_partner": lambda c: c.seat("The dummy's partner."),
    "removed": lambda c: {"anyOf": [CARD, CARDS]},
    "penalties": _penalties,
    "annulled_for": _annulment,
    "forfeit": _forfeit,
    "contested": lambda c: _named_list(c, trick=_integer(1, MAX_TRICKS), player=c.seat()),
}


def deal_schema(key: str, level: str) -> Schema:
    """The JSON Schema of a deal of game ``key`` entered at ``level``."""
    game = REGISTRY[key]
    ctx = Context(game, level)
    properties = {field: FIELDS[field](ctx) for field in fields_at(game, level)}
    return {
        "type": "object",
        "description": f"A deal of {game.name_en} at the {level} level.",
        "properties": properties,
        "additionalProperties": False,
    }


def _switch(switch: Switch) -> Schema:
    if switch.between is not None:
        low, high = switch.between
        out = {"type": "integer", "minimum": low, "maximum": high}
    else:
        out = _enum(switch.choices)
    out["default"] = switch.default
    if switch.help:
        out["description"] = switch.help
    return out


def house_rules_schema(key: str) -> Schema:
    """The JSON Schema of game ``key``'s house rules: a profile and the switches."""
    game = REGISTRY[key]
    properties: dict[str, Schema] = {}
    if game.profiles:
        properties["profile"] = _enum(
            game.profiles, "A named set of switches; explicit switches win."
        )
    properties.update({switch.key: _switch(switch) for switch in game.switches})
    return {
        "type": "object",
        "description": f"The house rules of {game.name_en}.",
        "properties": properties,
        "additionalProperties": False,
    }


@functools.cache
def game_schemas(key: str) -> Schema:
    """A game's schemas: its house rules and its deal at each level it takes."""
    game = REGISTRY[key]
    return {
        "game": key,
        "house_rules": house_rules_schema(key),
        "deal": {level: deal_schema(key, level) for level in game.levels},
    }
