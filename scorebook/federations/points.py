"""Federal points per placing (issue 34 item 5): the federation's published table, as a
pure function (no Django, no I/O). docs/federation.md prints the same table.

A tournament's **level** sets the points of the first place for a small field
(``FIRST_PLACE``); the **field** (the pairs entered) multiplies them by its bracket
(``FIELD_TENTHS``, in tenths); the top half of the field (rounded up) scores, the
points falling evenly from the first place to the last scoring place, rounded down, never
below 1 for a scoring place; the other half scores nothing. Pairs sharing a place (the
losers of a knockout round) each score the points of the place they share.

The properties the tests check: fewer points (or as many) for a worse place; as many or
more for a larger field and for a higher level at the same place.
"""

from __future__ import annotations

#: The levels, lowest first, and the points of the first place in a field of 2 to 7 pairs.
FIRST_PLACE: dict[str, int] = {"club": 10, "provincial": 20, "regional": 40, "national": 80}

#: (the smallest field of the bracket, its multiplier in tenths), smallest first.
FIELD_TENTHS: tuple[tuple[int, int], ...] = ((2, 10), (8, 15), (16, 20), (32, 25), (64, 30))

LEVELS: tuple[str, ...] = tuple(FIRST_PLACE)


def multiplier_tenths(field: int) -> int:
    """The field's multiplier, in tenths (10: times 1)."""
    found = FIELD_TENTHS[0][1]
    for smallest, tenths in FIELD_TENTHS:
        if field >= smallest:
            found = tenths
    return found


def scoring_places(field: int) -> int:
    """How many places score: the top half of the field, rounded up."""
    return (max(field, 0) + 1) // 2


def first_place_points(level: str, field: int) -> int:
    """The first place's points at ``level`` in a field of ``field`` pairs."""
    return FIRST_PLACE[level] * multiplier_tenths(field) // 10


def federal_points(level: str, field: int, place: int) -> int:
    """The federal points of ``place`` (1: the winners) among ``field`` pairs at a
    tournament of ``level`` (one of ``LEVELS``; a ``KeyError`` otherwise). 0 outside the
    scoring places, or for a field under 2."""
    if level not in FIRST_PLACE:
        raise KeyError(level)
    scoring = scoring_places(field)
    if field < 2 or place < 1 or place > scoring:
        return 0
    top = FIRST_PLACE[level] * multiplier_tenths(field)  # tenths of a point
    return max(1, top * (scoring - place + 1) // (scoring * 10))


def table(level: str, field: int) -> list[int]:
    """Every scoring place's points, from the first (for the published table)."""
    return [federal_points(level, field, place) for place in range(1, scoring_places(field) + 1)]
