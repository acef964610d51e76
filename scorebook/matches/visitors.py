"""Who corrects a club's match from outside the club: the registry ``services.deal_correct``
asks when the caller is no director of the match's club (an outsider, or a member below
director). A member may say yes for a match that is not only the club's own: it answers
what the audit log keeps of the visit (a dict), or None.

The record cannot import the apps above it (the layers), so its members are named here as
text and imported when a correction asks. The members, all of them:

- ``scorebook.federations.selectors.corrects_as_visitor``: a director (or owner) of the
  away club of the championship fixture whose table the match is (issue 34 item 3: "a
  director of either club correcting a deal"); the home club's directors correct as the
  club's own.

A new member goes in ``CHECKS`` and in this list; ``tests/core/test_layers.py`` checks that
each member is a selector of an app above this one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.module_loading import import_string

from scorebook.core.people import User

#: The dotted paths of the members, asked in this order (the first yes counts).
CHECKS: tuple[str, ...] = ("scorebook.federations.selectors.corrects_as_visitor",)


def checks() -> list[Callable[[int, User], dict[str, Any] | None]]:
    """The registry's members, imported."""
    return [import_string(path) for path in CHECKS]


def visiting(match_id: int, user: User) -> dict[str, Any] | None:
    """What the audit log keeps of ``user`` correcting match ``match_id`` from outside its
    club, or None when no member lets them."""
    for check in checks():
        found = check(match_id, user)
        if found is not None:
            return found
    return None
