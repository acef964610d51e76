"""Round-robin fixtures by the circle method (pure Python, no Django).

The entries but one sit on a circle of ``m`` (an odd number) places; the last entry sits
in the middle. In round ``r`` the middle entry meets the one at place ``r`` and the
places ``r + k`` and ``r - k`` meet each other (``k = 1 .. (m - 1) / 2``): turning the
circle one place per round pairs everyone with everyone exactly once in ``m`` rounds.
An odd count puts a phantom in the middle: whoever meets it has the bye.

Home and away: ``r + k`` is at home when ``k`` is odd. Seen from one entry, the
difference to the round number takes every non-zero value once, and it is at home
exactly when that difference is odd: half of its games on the circle. The middle entry
alternates. So nobody is at home more than once more than away (and with an odd count,
exactly as often). A double round robin plays the same rounds again, home and away
swapped.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)


@dataclass(frozen=True)
class Round(Generic[T]):
    """One round: its 1-based number, which leg (1 or 2), the pairings (home, away) and
    the entry that rests (None when the count is even)."""

    number: int
    leg: int
    pairings: tuple[tuple[T, T], ...]
    bye: T | None


def circle_rounds(entries: Sequence[T], *, legs: int = 1) -> list[Round[T]]:
    """Every round of a round robin between ``entries`` (in seeding order).

    ``legs`` is 1 (single round robin) or 2 (double: every pair meets twice, once at
    each home). Fewer than two entries play no rounds.
    """
    if legs not in (1, 2):
        raise ValueError("legs must be 1 or 2")
    if len(set(entries)) != len(entries):
        raise ValueError("entries must be distinct")
    if len(entries) < 2:
        return []
    circle: list[T] = list(entries)
    middle: T | None = None if len(circle) % 2 else circle.pop()
    m = len(circle)
    first: list[Round[T]] = []
    for r in range(m):
        pairings: list[tuple[T, T]] = []
        bye: T | None = None
        if middle is None:
            bye = circle[r]
        else:
            pair = (middle, circle[r])
            pairings.append(pair if r % 2 == 0 else (pair[1], pair[0]))
        for k in range(1, (m - 1) // 2 + 1):
            up, down = circle[(r + k) % m], circle[(r - k) % m]
            pairings.append((up, down) if k % 2 else (down, up))
        first.append(Round(r + 1, 1, tuple(pairings), bye))
    if legs == 1:
        return first
    second = [Round(r.number + m, 2, tuple((b, a) for a, b in r.pairings), r.bye) for r in first]
    return first + second
