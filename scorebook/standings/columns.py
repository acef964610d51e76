"""The leaderboard's columns, in one place.

Each column of a leaderboard row is one line of ``COLUMNS``; the rest is derived from it:
what a match contributes and how contributions add up (``contributions``), the stored
rows (``refresh``'s bulk writes), the columns one may sort by (``selectors``), the API's
row serializers (members' and public) and the page's headings. A new column is a line
here, a field of ``LeaderboardRow`` of the same name and its migration
(tests/standings/test_columns.py checks that the three agree).

Kinds:
- ``count``: a whole number summed over matches (from each player's result in a finished
  match when ``per_result`` says how, else counted by ``contributions``);
- ``rate``: a percentage worked out from two counts, ``of = (part, whole)``;
- ``amount``: a decimal summed (the stake units);
- ``money``: a decimal per currency;
- ``tally``: per key (an event, a contract) a pair of counts named by ``sides``.

``public``: whether anyone may read it (and sort by it) on a club's public results. Money
never is: the registry refuses a public money column.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from django.utils.translation import gettext_lazy as _

Kind = Literal["count", "rate", "amount", "money", "tally"]
#: Kinds stored as one number (a database column one sorts by directly).
SCALAR_KINDS = ("count", "rate", "amount")
#: Kinds stored as JSON, and the depth of the key one sorts by (``money:EUR``,
#: ``events:cappotto:made``).
NESTED_DEPTH = {"money": 1, "tally": 2}


@dataclass(frozen=True)
class Column:
    name: str
    kind: Kind
    label: Any = ""  # the page's heading (scalar kinds)
    public: bool = True
    per_result: Callable[[Any], int] | None = None  # count: from a ``SeatResult``
    of: tuple[str, str] | None = None  # rate: (part, whole)
    sides: Mapping[str, Any] = field(default_factory=dict)  # tally: side -> its word

    def __post_init__(self) -> None:
        if self.kind == "money" and self.public:
            raise ValueError(f"{self.name}: money is never public")
        if self.kind == "rate" and self.of is None:
            raise ValueError(f"{self.name}: a rate names its part and whole")
        if self.kind == "tally" and len(self.sides) != 2:
            raise ValueError(f"{self.name}: a tally has two sides")

    @property
    def scalar(self) -> bool:
        return self.kind in SCALAR_KINDS


# fmt: off
COLUMNS: tuple[Column, ...] = (
    Column("matches", "count", _("Matches"), per_result=lambda r: 1),
    Column("won", "count", _("Won"), per_result=lambda r: int(r.won)),
    Column("lost", "count", _("Lost"), per_result=lambda r: int(r.lost)),
    Column("win_rate", "rate", _("Win %"), of=("won", "matches")),
    Column("points_for", "count", _("Points for"), per_result=lambda r: r.points_for),
    Column("points_against", "count", _("Points against"),
           per_result=lambda r: r.points_against),
    Column("deals", "count", _("Deals")),
    Column("units", "amount", _("Units"), public=False),
    Column("money", "money", public=False),
    Column("events", "tally", sides={"made": _("made"), "suffered": _("suffered")}),
    Column("bids", "tally", sides={"made": _("bid"), "won": _("bid and won")}),
)
# fmt: on

BY_NAME = {c.name: c for c in COLUMNS}
#: The stored columns of a row, in order.
NAMES = tuple(c.name for c in COLUMNS)
#: The columns a contribution carries (a rate is worked out from its counts).
SUMMED = tuple(c for c in COLUMNS if c.kind != "rate")
#: Besides the columns, one may sort by the player's name.
PLAYER = "player"


def sortable(*, public: bool) -> tuple[str, ...]:
    """The plain column names one may sort by (members', or anyone's)."""
    return (*(c.name for c in COLUMNS if c.scalar and (c.public or not public)), PLAYER)


def nested(*, public: bool) -> dict[str, int]:
    """The JSON columns one may sort by one key of, and the key's depth."""
    return {
        c.name: NESTED_DEPTH[c.kind]
        for c in COLUMNS
        if c.kind in NESTED_DEPTH and (c.public or not public)
    }


def visible(*, public: bool) -> tuple[Column, ...]:
    """The columns a reader sees: all for members, the public ones for anyone."""
    return tuple(c for c in COLUMNS if c.public or not public)
