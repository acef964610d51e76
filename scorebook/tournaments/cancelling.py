"""Who is told when a tournament is called off: the registry ``services.results.
tournament_cancel`` calls, in its transaction, after the fees in the pot went back.

The tournaments cannot import the apps above them (the layers), so the members are named
here as text and imported when a tournament is cancelled. Each takes the tournament, the
reason and who called it off, and undoes in the same transaction what it booked or
promised on the tournament's account. The members, all of them:

- ``scorebook.federations.services.federal_tournaments.host_tournament_cancelled``: a
  federal tournament opened on the host's night gives back the federation's share of the
  fees it booked on the night (``federation:<id>``) and is called off with the reason.

A new member goes in ``AFTER_CANCEL`` and in this list; docs/architecture.md names them
too, and ``tests/tournaments/test_cancel_registry.py`` checks that the three agree.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.module_loading import import_string

#: The dotted paths of the members, called in this order.
AFTER_CANCEL: tuple[str, ...] = (
    "scorebook.federations.services.federal_tournaments.host_tournament_cancelled",
)


def members() -> list[Callable[..., Any]]:
    """The registry's members, imported."""
    return [import_string(path) for path in AFTER_CANCEL]


def cancelled(tournament: Any, reason: str, user: Any) -> None:
    """Tell every member that ``tournament`` was called off."""
    for member in members():
        member(tournament=tournament, reason=reason, user=user)
