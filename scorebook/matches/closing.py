"""What keeps a night open: the registry ``services.night_close`` asks before it closes.

The record cannot import the apps above it (the layers), so its members are named here as
text and imported when a night closes. Each takes the night and says, in words, what must
be done before it closes (nothing: an empty list); the close is refused
(``night.not_ready``) with every member's words. The members, all of them:

- ``scorebook.tournaments.selectors.night_close_waits_for``: a tournament on the night
  neither finished nor cancelled (its fees would stay in the pot, its matches unplayed).
- ``scorebook.federations.selectors.night_close_waits_for``: a championship fixture
  played on the night with tables still open (closing would abandon them, and an
  abandoned table is no result the championship can count).

A new member goes in ``CHECKS`` and in this list; docs/architecture.md names them too, and
``tests/matches/test_night_close_registry.py`` checks that the three agree, and
``tests/core/test_layers.py`` that each member is a selector of an app above this one.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.module_loading import import_string

from .models import Night

#: The dotted paths of the checks, in the order their words are said.
CHECKS: tuple[str, ...] = (
    "scorebook.tournaments.selectors.night_close_waits_for",
    "scorebook.federations.selectors.night_close_waits_for",
)


def checks() -> list[Callable[[Night], list[str]]]:
    """The registry's members, imported."""
    return [import_string(path) for path in CHECKS]


def waiting(night: Night) -> list[str]:
    """What must be done before ``night`` closes, in words (nothing: it may close)."""
    return [words for check in checks() for words in check(night)]
