"""Every house-rule value of every game, as forms a match can be started with: the
properties that must hold "under every switch" (``record_final``, ``random_deal``) walk
these, one value at a time, and hypothesis combines them.

A form is ``(label, spec)``: ``("default", {})``, ``("t4.target=1", {"t4.target": 1})``,
``("profile=pen", {"profile": "pen"})``. A switch of choices gives each of its values; a
switch of integers its lowest value, its default and a larger one (the target that ends
a match at once, the usual one, a long one; the set number of deals 0, 1, 2...).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from scorebook.rules import Rejection, games
from scorebook.rules.game import Game
from scorebook.rules.houserules import Switch

Form = tuple[str, dict[str, Any]]


def switch_values(switch: Switch) -> list[Any]:
    """The values a property tries for one switch (the default first)."""
    if switch.between is None:
        return [switch.default, *(v for v in switch.choices if v != switch.default)]
    low, high = switch.between
    larger = min(high, max(low + 2, 2 * switch.default))
    return list(dict.fromkeys((switch.default, low, larger)))


def forms(key: str) -> list[Form]:
    """The game's defaults, then every other value of every switch on its own, then every
    profile."""
    game = games()[key]
    found: list[Form] = [("default", {})]
    for switch in game.switches:
        for value in switch_values(switch)[1:]:
            found.append((f"{switch.key}={value}", {switch.key: value}))
    found += [(f"profile={name}", {"profile": name}) for name in game.profiles]
    return found


def player_counts(game: Game, spec: dict[str, Any]) -> list[int]:
    """The numbers of players a match under ``spec`` can be started with (a deal table
    may cover fewer than the game's)."""
    counts = []
    for players in game.player_counts:
        try:
            game.new_match(game.rules(spec), players)
        except Rejection:
            continue
        counts.append(players)
    return counts


@st.composite
def combined_spec(draw: st.DrawFn, key: str) -> dict[str, Any]:
    """A few switch values of the game at once (each from :func:`switch_values`), on top
    of a profile now and then: the crossings of house rules one value at a time misses."""
    game = games()[key]
    spec: dict[str, Any] = {}
    if game.profiles:  # (one test after the other: mypy reads ``a and draw(...)`` wrong)
        if draw(st.booleans()):
            spec["profile"] = draw(st.sampled_from(sorted(game.profiles)))
    switches = draw(st.lists(st.sampled_from(game.switches), max_size=4, unique_by=lambda s: s.key))
    for switch in switches:
        spec[switch.key] = draw(st.sampled_from(switch_values(switch)))
    return spec
