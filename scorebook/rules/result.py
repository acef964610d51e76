"""What scoring produces: a deal's result and a match's running state."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .errors import Problem


@dataclass(slots=True)  # not frozen: built many times per deal, frozen init is slow
class Line:
    """One line of a scorer's breakdown, e.g. ``Line("cards", 4, {"thirds": 14})``.

    Kinds in use: cards, last_trick, declaration, event, penalty, bid, chips, pot, claim,
    adjustment. ``points`` of all lines add up to the scorer's points for the deal.
    """

    kind: str
    points: int
    detail: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        out = {"kind": self.kind, "points": self.points, **dict(self.detail)}
        # A declaration's detail names what it is worth when made; the line's points are
        # what it scores (0 when void or lost), and they are what ``points`` must say.
        out["points"] = self.points
        return out


@dataclass(slots=True)  # treat as read-only; frozen would slow every deal
class DealResult:
    """The scored deal.

    ``points`` is what each scorer adds to its running total (race games). ``units`` is the
    deal's stake outcome per player for games settled per deal (Terziglio chips,
    Calabrasella, Spinado): who gains (+) or pays (-) how many units; with ``pots`` it sums
    to zero. ``facts`` are the derived numbers (thirds, tricks, last trick, ...).
    """

    game: str
    level: str
    points: Mapping[str, int]
    breakdown: Mapping[str, tuple[Line, ...]]
    event: str | None = None
    multiplier: int = 1
    ends_match: bool = False
    claim: Mapping[str, Any] | None = None
    annulled: bool = False
    same_dealer: bool = False
    units: Mapping[str, int] = field(default_factory=dict)
    pots: Mapping[str, int] = field(default_factory=dict)
    facts: Mapping[str, Any] = field(default_factory=dict)
    warnings: tuple[Problem, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "level": self.level,
            "annulled": self.annulled,
            "points": dict(self.points),
            "breakdown": {k: [line.as_dict() for line in v] for k, v in self.breakdown.items()},
            "event": self.event,
            "multiplier": self.multiplier,
            "ends_match": self.ends_match,
            "claim": dict(self.claim) if self.claim is not None else None,
            "same_dealer": self.same_dealer,
            "units": dict(self.units),
            "pots": dict(self.pots),
            "facts": _jsonable(self.facts),
            "warnings": [w.as_dict() for w in self.warnings],
        }


@dataclass(frozen=True)
class Outcome:
    """How a finished match ended and what it pays (in stake units)."""

    reason: str  # target, claim, false_claim, event, elimination, deals, ...
    winners: tuple[str, ...]
    losers: tuple[str, ...]
    multiplier: int = 1
    units: Mapping[str, int] = field(default_factory=dict)
    detail: Mapping[str, Any] = field(default_factory=dict)

    #: The keys of :meth:`as_dict` that are not ``detail``.
    FIELDS: ClassVar[tuple[str, ...]] = ("reason", "winners", "losers", "multiplier", "units")

    def as_dict(self) -> dict[str, Any]:
        return {
            "reason": self.reason,
            "winners": list(self.winners),
            "losers": list(self.losers),
            "multiplier": self.multiplier,
            "units": dict(self.units),
            **_jsonable(self.detail),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Outcome:
        """The inverse of :meth:`as_dict`: the keys that are not fields are the detail."""
        return cls(
            reason=data["reason"],
            winners=tuple(data["winners"]),
            losers=tuple(data["losers"]),
            multiplier=data["multiplier"],
            units=dict(data["units"]),
            detail={k: _copy(v) for k, v in data.items() if k not in cls.FIELDS},
        )


#: The version of :meth:`MatchState.as_dict`'s layout; :meth:`MatchState.from_dict` reads
#: only this one (an older stored state is re-derived by folding the match's deals).
STATE_FORMAT = 2


@dataclass
class MatchState:
    """The running match, derived by folding its deals in order.

    ``seats`` are in playing order; ``scorers`` are who keeps a running total (sides or
    players). ``dealer`` deals the next deal. ``extra`` carries game-specific facts between
    deals (pots, eliminated players, the minimum bid after a pass-out). The state holds
    everything the next deal needs and no earlier deal, so a match resumes from
    ``MatchState.from_dict(state.as_dict())`` without its earlier inputs.
    """

    game: str
    seats: tuple[str, ...]
    scorers: tuple[str, ...]
    dealer: str
    totals: dict[str, int]
    units: dict[str, int]
    #: Every deal entered so far, annulled ones included.
    deals_played: int = 0
    #: Of those, the annulled ones (not played: Chiamata's declared-void hands).
    deals_annulled: int = 0
    finished: bool = False
    outcome: Outcome | None = None
    #: JSON-native values only (dict, list, str, int, bool, None), so the round trip
    #: through :meth:`as_dict` gives back equal values of the same types.
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def deal_number(self) -> int:
        """1-based number of the next deal."""
        return self.deals_played + 1

    @property
    def deals_counted(self) -> int:
        """Deals played and not annulled."""
        return self.deals_played - self.deals_annulled

    def as_dict(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "game": self.game,
            "seats": list(self.seats),
            "scorers": list(self.scorers),
            "dealer": self.dealer,
            "totals": dict(self.totals),
            "units": dict(self.units),
            "deals_played": self.deals_played,
            "deals_annulled": self.deals_annulled,
            "finished": self.finished,
            "outcome": self.outcome.as_dict() if self.outcome else None,
            "extra": _jsonable(self.extra),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchState:
        """The inverse of :meth:`as_dict` (also after a JSON round trip).

        A stored state is the engine's own output, not user input: a malformed one is a
        bug or an older layout, and raises ``ValueError`` rather than a ``Rejection``.
        """
        if not isinstance(data, Mapping) or data.get("format") != STATE_FORMAT:
            raise ValueError(f"not a match state of format {STATE_FORMAT}")
        try:
            outcome = data["outcome"]
            return cls(
                game=str(data["game"]),
                seats=tuple(data["seats"]),
                scorers=tuple(data["scorers"]),
                dealer=data["dealer"],
                totals=dict(data["totals"]),
                units=dict(data["units"]),
                deals_played=int(data["deals_played"]),
                deals_annulled=int(data["deals_annulled"]),
                finished=bool(data["finished"]),
                outcome=Outcome.from_dict(outcome) if outcome is not None else None,
                extra=_copy(data["extra"]),
            )
        except (KeyError, TypeError) as error:
            raise ValueError(f"malformed match state: {error!r}") from None


def _copy(value: Any) -> Any:
    """A deep copy of JSON data, so a resumed state shares nothing with its source."""
    if isinstance(value, Mapping):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [_jsonable(v) for v in value]
        return sorted(items) if isinstance(value, (set, frozenset)) else items
    if isinstance(value, (str, int, bool, float)) or value is None:
        return value
    return str(value)
