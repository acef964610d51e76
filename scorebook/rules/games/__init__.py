"""One module per game family; each defines ``GAMES``, a tuple of :class:`Game` objects."""

from __future__ import annotations

import importlib
import pkgutil

from ..game import Game


def _discover() -> dict[str, Game]:
    found: dict[str, Game] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for game in getattr(module, "GAMES", ()):
            if game.key in found:
                raise ValueError(f"game key {game.key!r} defined twice")
            found[game.key] = game
    return found


REGISTRY: dict[str, Game] = _discover()
