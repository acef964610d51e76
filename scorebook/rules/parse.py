"""Reading an entered deal: typed fields with every problem collected, never an exception.

Each reader returns the value or ``None`` after recording a problem, so a game can check
every field of an entry and reject once with the whole list.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from .cards import DECK40, Card, parse_card
from .errors import Localized, Problems, messages

messages(
    {
        "input.not_object": (
            "{what} must be a JSON object.",
            "{what} deve essere un oggetto JSON.",
        ),
        "input.missing": ("'{field}' is required.", "'{field}' è obbligatorio."),
        "input.unknown_field": (
            "'{field}' is not a field here; expected one of: {allowed}.",
            "'{field}' non è un campo previsto qui; campi previsti: {allowed}.",
        ),
        "input.not_integer": (
            "'{field}' must be a whole number, not {value!r}.",
            "'{field}' deve essere un numero intero, non {value!r}.",
        ),
        "input.out_of_range": (
            "'{field}' must be between {low} and {high}; it is {value}.",
            "'{field}' deve essere tra {low} e {high}; vale {value}.",
        ),
        "input.not_boolean": (
            "'{field}' must be true or false, not {value!r}.",
            "'{field}' deve essere true o false, non {value!r}.",
        ),
        "input.not_list": (
            "'{field}' must be a list.",
            "'{field}' deve essere una lista.",
        ),
        "input.bad_choice": (
            "{value!r} is not valid for '{field}'; expected one of: {allowed}.",
            "{value!r} non è valido per '{field}'; valori ammessi: {allowed}.",
        ),
        "card.unknown": (
            "{value!r} is not a card of this game's deck (write rank then suit, e.g. Ad, 3c).",
            "{value!r} non è una carta del mazzo di questo gioco (rango e seme, es. Ad, 3c).",
        ),
        "card.duplicate": (
            "The card {card} is entered more than once ({places}).",
            "La carta {card} è inserita più di una volta ({places}).",
        ),
    }
)


def card_name(card: Card) -> Localized:
    return Localized(en=card.name("en"), it=card.name("it"))


def obj(value: Any, path: str, problems: Problems, what: str = "The deal") -> Mapping[str, Any]:
    if type(value) is dict or isinstance(value, Mapping):  # the exact check first: cheaper
        return value
    problems.add("input.not_object", path, what=Localized(what, _what_it(what)))
    return {}


def _what_it(what: str) -> str:
    return {"The deal": "La smazzata", "The match": "La partita"}.get(what, what)


def known_fields(
    data: Mapping[str, Any], allowed: Collection[str], path: str, problems: Problems
) -> None:
    for key in data:
        if key not in allowed:  # ``allowed`` is small: a tuple scan is as fast as a set
            problems.add(
                "input.unknown_field",
                join(path, str(key)),
                field=str(key),
                allowed=", ".join(sorted(allowed)),
            )


def join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def integer(
    data: Mapping[str, Any],
    key: str,
    path: str,
    problems: Problems,
    *,
    low: int = 0,
    high: int = 10_000,
    required: bool = True,
    default: int | None = None,
) -> int | None:
    value = data.get(key)
    if type(value) is int and low <= value <= high:  # the usual case, kept fast
        return value
    where = join(path, key)
    if value is None:
        if required:
            problems.add("input.missing", where, field=key)
        return default
    if type(value) is not int:
        problems.add("input.not_integer", where, field=key, value=value)
        return None
    problems.add("input.out_of_range", where, field=key, low=low, high=high, value=value)
    return None


def boolean(
    data: Mapping[str, Any], key: str, path: str, problems: Problems, default: bool = False
) -> bool:
    if key not in data or data[key] is None:
        return default
    value = data[key]
    if not isinstance(value, bool):
        problems.add("input.not_boolean", join(path, key), field=key, value=value)
        return default
    return value


def one_of(
    data: Mapping[str, Any],
    key: str,
    allowed: Sequence[Any],
    path: str,
    problems: Problems,
    *,
    required: bool = True,
) -> Any:
    where = join(path, key)
    if key not in data or data[key] is None:
        if required:
            problems.add("input.missing", where, field=key)
        return None
    value = data[key]
    if not any(type(value) is type(a) and value == a for a in allowed):
        problems.add(
            "input.bad_choice",
            where,
            field=key,
            value=value,
            allowed=", ".join(str(a) for a in allowed),
        )
        return None
    return value


def listing(
    data: Mapping[str, Any], key: str, path: str, problems: Problems, required: bool = False
) -> list[Any] | None:
    value = data.get(key)
    if isinstance(value, list):
        return value
    if value is None:
        if required:
            problems.add("input.missing", join(path, key), field=key)
        return None
    problems.add("input.not_list", join(path, key), field=key)
    return None


def cards(
    data: Mapping[str, Any],
    key: str,
    path: str,
    problems: Problems,
    deck: Iterable[Card] = DECK40,
    required: bool = False,
) -> list[Card] | None:
    """A list of card codes; unknown codes are problems (the rest are still returned)."""
    raw = listing(data, key, path, problems, required=required)
    if raw is None:
        return None
    if isinstance(deck, (set, frozenset)):
        deck_set: Collection[Card] = deck
    elif isinstance(deck, tuple):
        deck_set = _deck_set(deck)
    else:
        deck_set = frozenset(deck)
    out: list[Card] = []
    for i, code in enumerate(raw):
        card = parse_card(code, deck_set)
        if card is None:
            problems.add("card.unknown", join(join(path, key), i), value=code)
        else:
            out.append(card)
    return out


@functools.lru_cache(maxsize=32)
def _deck_set(deck: tuple[Card, ...]) -> frozenset[Card]:
    return frozenset(deck)


def no_duplicates(piles: Mapping[str, Sequence[Card]], problems: Problems) -> bool:
    """D2: no card appears twice across the given piles (keyed by field path)."""
    seen: dict[Card, list[str]] = {}
    for where, pile in piles.items():
        for card in pile:
            seen.setdefault(card, []).append(where)
    ok = True
    for card, places in seen.items():
        if len(places) > 1:
            ok = False
            problems.add(
                "card.duplicate", places[1], card=card_name(card), places=", ".join(places)
            )
    return ok
