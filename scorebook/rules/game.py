"""The contract every game implements, and the fold of a deal log into a match.

A game module subclasses :class:`Game`, lists its switches and profiles, and implements
:meth:`Game.score_deal`. The default :meth:`Game.advance` is a race to a target; games
with other endings override :meth:`Game.finish` (or ``advance``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from .errors import Problems, Rejection, messages
from .houserules import Rules, Switch, resolve
from .result import DealResult, MatchState, Outcome

messages(
    {
        "match.finished": (
            "The match is already over ({reason}); no further deal can be entered.",
            "La partita è già finita ({reason}); non si possono inserire altre smazzate.",
        ),
        "deal.wrong_dealer": (
            "{dealer} cannot deal now: it is {expected}'s deal.",
            "{dealer} non può dare le carte ora: tocca a {expected}.",
        ),
        "match.bad_players": (
            "{game} is played by {allowed} players, not {value!r}.",
            "{game} si gioca in {allowed} giocatori, non {value!r}.",
        ),
        "match.unknown_seat": (
            "{value!r} is not a seat at this table; seats: {allowed}.",
            "{value!r} non è un posto a questo tavolo; posti: {allowed}.",
        ),
    }
)


class Game:
    """A game of the family. Subclasses set the class attributes and ``score_deal``."""

    key: ClassVar[str]
    name_en: ClassVar[str]
    name_it: ClassVar[str]
    switches: ClassVar[tuple[Switch, ...]] = ()
    profiles: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    #: "match": stakes follow the match result; "deal": every deal pays (chips, points).
    settlement: ClassVar[str] = "match"
    player_counts: ClassVar[tuple[int, ...]] = (4,)
    levels: ClassVar[tuple[str, ...]] = ("totals", "cards", "play")
    #: The field that makes a deal a play record (the tricks; Spinado's runs of cards).
    record_key: ClassVar[str] = "tricks"

    # -- set-up -------------------------------------------------------------------------

    def settles_per_deal(self, rules: Rules) -> bool:
        """Whether stakes change hands every deal (``DealResult.units``) or once, at the
        end of the match (``Outcome.units``): the ledger books one or the other, never both."""
        return self.settlement == "deal"

    def rules(self, spec: Any, path: str = "rules", problems: Problems | None = None) -> Rules:
        return resolve(self.key, self.switches, self.profiles, spec, path, problems)

    def seats(self, rules: Rules, players: int) -> tuple[str, ...]:
        """Seat names in playing order (the player after the dealer is eldest)."""
        return tuple(f"P{i}" for i in range(1, players + 1))

    def scorers(self, rules: Rules, seats: tuple[str, ...]) -> tuple[str, ...]:
        """Who keeps a running total: the players, unless the game has fixed sides."""
        return seats

    def default_players(self, rules: Rules) -> int:
        return self.player_counts[0]

    def new_match(
        self,
        rules: Rules,
        players: int | None = None,
        first_dealer: str | None = None,
        path: str = "",
    ) -> MatchState:
        problems = Problems()
        count = self.default_players(rules) if players is None else players
        if type(count) is not int or count not in self.player_counts:
            problems.add(
                "match.bad_players",
                f"{path}players" if path else "players",
                game=self.name_en,
                allowed=" or ".join(str(n) for n in self.player_counts),
                value=players,
            )
            problems.raise_if_any()
        seats = self.seats(rules, count)
        if first_dealer is not None and first_dealer not in seats:
            problems.add(
                "match.unknown_seat",
                f"{path}first_dealer" if path else "first_dealer",
                value=first_dealer,
                allowed=", ".join(seats),
            )
            problems.raise_if_any()
        self.check_setup(rules, count, problems)
        problems.raise_if_any()
        scorers = self.scorers(rules, seats)
        state = MatchState(
            game=self.key,
            seats=seats,
            scorers=scorers,
            dealer=first_dealer or seats[0],
            totals=dict.fromkeys(scorers, 0),
            units=dict.fromkeys(seats, 0),
        )
        self.setup(state, rules)
        return state

    def check_setup(self, rules: Rules, players: int, problems: Problems) -> None:
        """Hook: refuse house rules that cannot work with this many players."""

    def setup(self, state: MatchState, rules: Rules) -> None:
        """Hook for games that carry facts between deals (pots, the minimum bid...)."""

    # -- one deal -----------------------------------------------------------------------

    def score_deal(self, deal: Mapping[str, Any], rules: Rules, state: MatchState) -> DealResult:
        """Validate ``deal`` in the context of ``state`` and score it, or raise Rejection.

        A play record (level ``play``) is replayed card by card into the captures it
        implies, then scored like an entry; totals and cards go straight to the scorer.
        """
        if deal.get("level") == "play" or self.record_key in deal:
            return self.score_play(deal, rules, state)
        return self.score_entry(deal, rules, state)

    def score_entry(self, deal: Mapping[str, Any], rules: Rules, state: MatchState) -> DealResult:
        """Score a deal entered as totals or captured cards (levels a and b)."""
        raise NotImplementedError

    def score_play(self, deal: Mapping[str, Any], rules: Rules, state: MatchState) -> DealResult:
        """Replay a play record (level c) and score what it derives."""
        raise NotImplementedError

    def random_deal(
        self, rng: random.Random, rules: Rules, state: MatchState, level: str
    ) -> dict[str, Any]:
        """A legal entry, at ``level``, of a random deal of the real deck (tests, bench).

        It must fit ``state`` (dealer, the minimum bid...) so that a match can be built by
        calling it again after each deal.
        """
        raise NotImplementedError

    # -- the fold -----------------------------------------------------------------------

    def add_deal(self, state: MatchState, deal: Any, rules: Rules, path: str = "") -> DealResult:
        """Check the deal fits the match (not over, right dealer), score it and advance."""
        problems = Problems()
        if state.finished:
            reason = state.outcome.reason if state.outcome else "finished"
            problems.add("match.finished", path or "deal", reason=reason)
            problems.raise_if_any()
        if isinstance(deal, Mapping) and deal.get("dealer") is not None:
            if deal["dealer"] != state.dealer:
                problems.add(
                    "deal.wrong_dealer",
                    f"{path}.dealer" if path else "dealer",
                    dealer=deal["dealer"],
                    expected=state.dealer,
                )
        try:
            result = self.score_deal(
                deal if isinstance(deal, Mapping) else _not_an_object(deal, path), rules, state
            )
        except Rejection as rejection:
            problems.extend(_prefixed(rejection, path))
            problems.raise_if_any()
            raise  # pragma: no cover - problems always set here
        problems.raise_if_any()
        self.advance(state, result, rules)
        return result

    def advance(self, state: MatchState, result: DealResult, rules: Rules) -> None:
        state.deals_played += 1
        if result.annulled:
            state.deals_annulled += 1
            return
        for scorer, points in result.points.items():
            state.totals[scorer] = state.totals.get(scorer, 0) + points
        for player, units in result.units.items():
            state.units[player] = state.units.get(player, 0) + units
        outcome = self.finish(state, result, rules)
        if outcome is not None:
            state.finished = True
            state.outcome = outcome
        if not result.same_dealer:
            state.dealer = self.next_dealer(state, rules)

    def next_dealer(self, state: MatchState, rules: Rules) -> str:
        """The deal passes in the direction of play (to the dealer's eldest)."""
        out = set(state.extra.get("out", ()))
        seats = state.seats
        i = seats.index(state.dealer)
        for step in range(1, len(seats) + 1):
            candidate = seats[(i + step) % len(seats)]
            if candidate not in out:
                return candidate
        return state.dealer  # pragma: no cover - at least one seat is always in

    def finish(self, state: MatchState, result: DealResult, rules: Rules) -> Outcome | None:
        """Has the match ended after this deal? Default: never (fixed by the caller)."""
        return None

    def dealt_in(self, state: MatchState) -> tuple[str, ...]:
        """Who plays this deal, eldest first; in a three-hander played by four (Terziglio,
        Calabrasella) the dealer sits the deal out."""
        seats = state.seats
        start = seats.index(state.dealer)
        order = [seats[(start + k) % len(seats)] for k in range(1, len(seats) + 1)]
        if len(seats) == 4:
            order.remove(state.dealer)
        return tuple(order)

    def eldest(self, state: MatchState) -> str:
        seats = state.seats
        return seats[(seats.index(state.dealer) + 1) % len(seats)]

    # -- catalogue ----------------------------------------------------------------------

    def describe(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": {"en": self.name_en, "it": self.name_it},
            "players": list(self.player_counts),
            "settlement": self.settlement,
            "levels": list(self.levels),
            "switches": [s.describe() for s in self.switches],
            "profiles": {name: dict(values) for name, values in self.profiles.items()},
        }


def _not_an_object(deal: Any, path: str) -> Mapping[str, Any]:
    problems = Problems()
    problems.add("input.not_object", path or "deal", what="The deal")
    raise Rejection(problems.items)


def _prefixed(rejection: Rejection, path: str) -> Rejection:
    if not path:
        return rejection
    from dataclasses import replace

    return Rejection(
        [
            replace(p, path=f"{path}.{p.path}" if p.path and p.path != "deal" else path)
            for p in rejection.problems
        ]
    )


def split_evenly(payers: Sequence[str], payees: Sequence[str], amount: int) -> dict[str, int]:
    """Each payer pays ``amount`` to each payee: the zero-sum units of a settlement."""
    units = dict.fromkeys((*payers, *payees), 0)
    for payer in payers:
        for payee in payees:
            units[payer] -= amount
            units[payee] += amount
    return units
