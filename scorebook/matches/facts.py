"""What a match and a deal mean per seat, read from what the engine stored (its result, its
state and the game's description), and the per-seat facts stored from them at entry.

The readers (``match_results``, ``deal_facts`` and the seat helpers) are the one place
that says who won, the points for and against, who made an event and who bid what; the
standings, the ratings, the leagues and the player statistics read through them
(``scorebook.standings.selectors`` re-exports them). No game is named here: the game's
description (``deal_contest``, ``event_by_last_trick``, ``ranked_by_chips``, ...) says.

``seat_facts`` turns them into ``SeatFact`` rows (see the model), written by the services
in the transaction that stores a deal or changes a match's result, so that a full rebuild
reads plain columns instead of decoding every match's and deal's JSON.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from scorebook.rules import get_game

#: A finished match's status (``Match.Status.FINISHED``: the data migration calls these
#: readers on its historical models, which have no such class).
FINISHED = "finished"


class Seated(Protocol):
    """What the seat readers need of a match: a stored ``Match`` or a row read as one."""

    seats: Any
    state: Any


def seats_in_order(match: Seated) -> list[str]:
    """The seats in playing order, as the engine keeps them (``match.seats`` keeps the
    order the client happened to send)."""
    return list(match.state.get("seats") or match.seats)


def sides_of(match: Seated) -> dict[str, str]:
    """Seat -> the side (scorer) it plays for, for open and finished matches alike."""
    seats = seats_in_order(match)
    return _scorer_of(seats, list(match.state.get("scorers", seats)))


def _scorer_of(seats: list[str], scorers: list[str]) -> dict[str, str]:
    """Seat -> the scorer keeping its total: itself, or its side (partners sit across,
    so seats 1 and 3 are side A, seats 2 and 4 side B)."""
    if set(scorers) == set(seats):
        return {s: s for s in seats}
    return {s: scorers[i % len(scorers)] for i, s in enumerate(seats)}


def is_race(match: Any) -> bool:
    """A race to a target whose totals are game points (not a per-deal chips game)."""
    values = match.rules["values"]
    try:
        key: tuple[str, Any] = (match.game, frozenset(values.items()))
    except TypeError:  # a switch with a list or dict value
        key = (match.game, json.dumps(values, sort_keys=True, default=str))
    found = _RACE.get(key)
    if found is None:
        if len(_RACE) > 1000:
            _RACE.clear()
        game = get_game(match.game)
        found = _RACE[key] = not game.settles_per_deal(game.rules(values))
    return found


_RACE: dict[tuple[str, Any], bool] = {}  # (game, house rules) -> race (a rebuild asks often)


@dataclass(frozen=True)
class SeatResult:
    """One player's result in a finished match."""

    player_id: int
    seat: str
    side: str
    won: bool
    lost: bool
    units: int
    points_for: int
    points_against: int


def match_results(match: Any) -> list[SeatResult]:
    """Per player: won or lost (a draw is neither), the stake units, and for race games
    the points of the player's side and of the other sides. Empty for an open match."""
    outcome = match.result or {}
    if match.status != FINISHED or not outcome:
        return []
    state = match.state
    seats = seats_in_order(match)
    side = _scorer_of(seats, list(state.get("scorers", seats)))
    totals = state.get("totals", {}) if is_race(match) else {}
    units = outcome.get("units") or state.get("units", {})
    winners, losers = set(outcome.get("winners", ())), set(outcome.get("losers", ()))
    results = []
    for seat in seats:
        own = totals.get(side[seat], 0)
        results.append(
            SeatResult(
                player_id=match.seats[seat],
                seat=seat,
                side=side[seat],
                won=seat in winners,
                lost=seat in losers,
                units=int(units.get(seat, 0)),
                points_for=own,
                points_against=sum(v for k, v in totals.items() if k != side[seat]),
            )
        )
    return results


@dataclass
class DealFacts:
    """What one deal means per seat for the leaderboards and ratings."""

    event: str | None = None
    made: tuple[str, ...] = ()  # seats that made the event
    suffered: tuple[str, ...] = ()
    bid: str | None = None  # the contract, for the bidding games
    bidder: str | None = None
    bid_won: bool = False
    teams: tuple[tuple[str, ...], ...] = ()  # the sides that played it (for ratings)
    winner: int | None = None  # index in ``teams`` of the winning side; None: a draw
    extra: dict[str, Any] = field(default_factory=dict)


def _seats_of(scorer_seats: dict[str, list[str]], names: Iterable[str]) -> tuple[str, ...]:
    return tuple(seat for name in names for seat in scorer_seats.get(name, [name]))


def deal_facts(match: Any, result: dict[str, Any]) -> DealFacts:
    """Who made or suffered the deal's event and who bid what, read from the deal's stored
    result. The maker of an event is the side the engine names (Tressette's event side,
    the winning side of a Terziglio contract, Rovescino's taker of every point), else the
    side that scored most in the deal."""
    seats = seats_in_order(match)
    side = _scorer_of(seats, list(match.state.get("scorers", seats)))
    members: dict[str, list[str]] = {}
    for seat, name in side.items():
        members.setdefault(name, []).append(seat)
    facts = result.get("facts") or {}
    out = DealFacts()
    game = get_game(match.game)
    if game.deal_contest == "bid":
        bidder = facts.get("soloist") or facts.get("bidder")
        if bidder:
            won = bool(facts.get("soloist_won", facts.get("won", False)))
            out.bid = facts.get("bid") or match.game
            out.bidder = bidder
            out.bid_won = won
            opponents = tuple(facts.get("opponents") or ())
            out.teams = ((bidder,), opponents)
            out.winner = 0 if won else 1
    elif game.deal_contest == "sides":
        sides = facts.get("members") or {}
        callers, others = tuple(sides.get("callers", ())), tuple(sides.get("others", ()))
        points = facts.get("side_points") or {}
        if callers and others:
            out.teams = (callers, others)
            a, b = points.get("callers", 0), points.get("others", 0)
            out.winner = None if a == b else (0 if a > b else 1)
    event = result.get("event")
    if event and not result.get("annulled"):
        out.event = event
        if facts.get("event_side"):
            made = _seats_of(members, [facts["event_side"]])
        elif out.teams and out.winner is not None:
            made = out.teams[out.winner]
        elif game.event_by_last_trick and facts.get("last_trick"):
            made = _seats_of(members, [facts["last_trick"]])
        else:
            points = result.get("points") or {}
            best = max(points.values(), default=0)
            made = _seats_of(members, [k for k, v in points.items() if v == best])
        out.made = tuple(s for s in seats if s in made)
        out.suffered = tuple(s for s in seats if s not in made)
    return out


# -- the facts stored at entry -------------------------------------------------------------


def result_facts(match: Any) -> list[dict[str, Any]]:
    """The match-level facts of a finished match, one dict per seat in playing order
    (empty while it is open): won, lost, the points of the player's side and of the
    others, the stake units, and the score a free-for-all rating ranks by."""
    results = match_results(match)
    if not results:
        return []
    chips = (match.state or {}).get("units", {}) if get_game(match.game).ranked_by_chips else None
    return [
        {
            "player_id": r.player_id,
            "seat": r.seat,
            "position": position,
            "side": r.side,
            "won": r.won,
            "lost": r.lost,
            "points_for": r.points_for,
            "points_against": r.points_against,
            "units": r.units,
            "score": float(chips.get(r.seat, 0) if chips is not None else r.units),
        }
        for position, r in enumerate(results)
    ]


def deal_seat_facts(match: Any, result: dict[str, Any]) -> list[dict[str, Any]]:
    """The deal-level facts of one deal version, one dict per seat in playing order, or
    none when the deal means nothing beyond its count (no event, no bid, no contest of
    its own): the event each seat made or suffered, the contract its bidder bid and
    whether it was won, and for a deal rated on its own the seat's team (0, 1) and place
    in it, and the winning team (None: a draw)."""
    facts = deal_facts(match, result)
    contest = bool(facts.teams) and not result.get("annulled")
    if not (facts.event or (facts.bid and facts.bidder) or contest):
        return []
    bidding = get_game(match.game).deal_contest == "bid"
    team_of: dict[str, tuple[int, int]] = {}
    if contest:
        for index, members in enumerate(facts.teams):
            for place, seat in enumerate(members):
                team_of[seat] = (index, place)
    out = []
    for position, seat in enumerate(seats_in_order(match)):
        slot: tuple[int | None, int | None] = team_of.get(seat, (None, None))
        bidder = bool(facts.bid and facts.bidder == seat)
        out.append(
            {
                "player_id": match.seats[seat],
                "seat": seat,
                "position": position,
                "event": facts.event if seat in facts.made or seat in facts.suffered else "",
                "made": seat in facts.made,
                "bid": (facts.bid or "") if bidder else "",
                "bid_won": bidder and facts.bid_won,
                "team": slot[0],
                "team_place": slot[1],
                "winner": facts.winner if contest else None,
                "contract": (facts.bid or "") if contest and bidding else "",
            }
        )
    return out
