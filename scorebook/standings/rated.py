"""Who is told when a club's ratings were replayed: the registry ``refresh`` calls after
re-rating, in the refresh's transaction.

The standings cannot import the apps above them (the layers), so the members are named
here as text and imported when a club's ratings change. Each takes the club's id and the
ids of the matches re-rated from (the ones new, corrected or gone, and every one after
them in the game's order) and may ask, in the same transaction, for its own derived
records to be brought up to date. The members, all of them:

- ``scorebook.federations.rating_outbox.club_rated``: the federation's rating across its
  member clubs (stale when one of the matches seats a linked person).

A new member goes in ``AFTER_RATING`` and in this list; docs/architecture.md names them
too, and ``tests/standings/test_rated_registry.py`` checks that the three agree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.utils.module_loading import import_string

#: The dotted paths of the members, called in this order.
AFTER_RATING: tuple[str, ...] = ("scorebook.federations.rating_outbox.club_rated",)


def members() -> list[Callable[[int, Sequence[int]], None]]:
    """The registry's members, imported."""
    return [import_string(path) for path in AFTER_RATING]


def club_rated(club_id: int, match_ids: Sequence[int]) -> None:
    """Tell every member that the club's ratings were replayed from ``match_ids``."""
    if not match_ids:
        return
    for member in members():
        member(club_id, match_ids)
