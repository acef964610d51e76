"""What a game's table looks like to whoever keeps its score: a description, not words.

:meth:`Game.table_shape` gives a :class:`TableShape` for some house rules and seats: who
scores (sides with their member seats, or seats), who is dealt in, the pack a card grid
shows, how many tricks a deal has, the unit people count card points in and what a whole
deal holds, and the parts of the entry form at each level (:class:`Part`: the auction,
the call, the piles, declarations with their kinds...). The pages render the parts
without knowing the game; their words live in the web layer, keyed by the codes here.

What the rules force and what the table need not say is in the description too, so a form
asks only what the rules leave open (issue 32); the engine still judges every deal:

* ``TableShape.sweep``: the scorer named as taking every trick (``all_tricks``) took every
  card, so the whole of the piles and the last trick; the others nothing.
* ``Part("call", {"caller": "eldest"})``: only the first hand may call; the deal may
  leave ``caller`` out and the engine takes him.
* ``Part("runs", {"required": (...), "one_of": (...)})``: the events a deal must name
  (the others are optional: "nobody" is an answer), and those of which at most one is so
  (where the Spinado ended): one choice.
* ``Part("redraws", {"scores": False})``: how many times each player redrew changes no
  score (Trappola's): an entry may leave it out (the engine checks it when given).
* ``Part("kings_played", {"scores": False})``: the kings played change no score under
  these house rules (the engine only checks them against Matrimony and Intrigue).
* ``Part("cards_left", {"zero": "out_first", "needed": "all" | "held" | "none"})``: who
  went out holds no card; whose counts a payment reads (every player's, the Spinado
  holder's, nobody's).
* ``Part("auction", {"discards": (1, 2, 3, 4), "discards_score": False})``: how many
  cards the bidder discarded changes no score: an entry may leave it out (the engine
  checks it when given).
* ``Part("auction", {"contracts": (...), "rare_contracts": (...)})``: the contracts a
  table bids a few times a season (Terziglio's aggravated solissimo), which a form may
  keep out of the way of the others (one tap more to reach them).
* ``Part("piles", {"whole_points": (1, 0, 2)})``: the score reads each pile's whole points
  only (the figures left over change no score but the rest's, the last pile's): an entry
  may give the others' whole points and how many points the figures left over lost in
  all, one of these, the commonest first (``lost_points``).
* ``Part("piles", {"tens": (10, 20, ...)})``: each pile's card points (two digits, none
  the rest: Trappola's) are entered as tens and units: one of these tens, then the unit
  typed; the whole number may still be typed (the points outside these tens are).
* ``TableShape.tally``: what a deal adds to each scorer where its piles and its last
  trick alone say it (:class:`Tally`), so that a phone with no connection can show a
  waiting deal in the score; None where only the engine can score a deal (an auction's
  contract, a caller's partner, the chips).

A :class:`Pack` is a deck as a card grid shows it; each game lists the packs its tables
name (``Game.packs``), and ``engine.get_pack`` finds one by its name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import DECK40, RANK_NAMES_EN, RANK_NAMES_IT, SUIT_NAMES_EN, SUIT_NAMES_IT, Card

#: The levels at which a deal is entered field by field (a play record is pasted JSON).
ENTRY_LEVELS = ("totals", "cards")


@dataclass(frozen=True)
class Part:
    """One part of the entry form, by kind (``piles``, ``auction``, ``declarations``...),
    with what the page needs to lay it out (``params``) and the levels that ask it."""

    kind: str
    params: Mapping[str, Any] = field(default_factory=dict, compare=False)
    levels: tuple[str, ...] = ENTRY_LEVELS

    def get(self, key: str, default: Any = None) -> Any:
        return self.params.get(key, default)


#: The rounding codes a :class:`Tally` may name (``core.rounding``'s, section 1.4).
ROUNDINGS = ("floor_per_scorer", "remainder_to_last_trick", "round_two_thirds_up")


@dataclass(frozen=True)
class Tally:
    """What an ordinary deal adds to each scorer from its piles and its last trick alone,
    for a phone that cannot ask the engine (issue 32 item 4): each scorer's pile in
    thirds, three to the point, rounded as ``rounding`` says (``core.rounding``'s codes:
    every remainder dropped; the last trick's taker given the deal's ``points`` less the
    others'; two thirds a point), and ``last_trick`` points more to who took the last
    trick.

    Only for a deal that names nothing but the deal's fields in ``reads`` (a declaration,
    a sweep, a claim: the engine's to score), and only while no event follows from the
    piles: every pile at least ``least`` thirds (below, a stramazzo may be the deal's),
    and, with ``sweep_event``, no scorer with all the deal's points (a cappotto of the
    points). Otherwise :meth:`adds` says None: the phone says the deal is not counted
    yet, never a number the engine would not give. tests/rules/test_tally.py checks it
    against the engine, under every house rule of each game that has one."""

    rounding: str
    reads: tuple[str, ...] = ("seats", "last_trick")
    last_trick: int = 1
    points: int = 11
    least: int = 0
    sweep_event: bool = False

    def adds(self, thirds: Mapping[str, int], last_trick: str | None) -> dict[str, int] | None:
        """Each scorer's points for piles of ``thirds`` and the last trick's taker; None
        where the engine alone can say them."""
        if last_trick is None or last_trick not in thirds or self.rounding not in ROUNDINGS:
            return None
        if any(th < self.least for th in thirds.values()):
            return None
        out: dict[str, int] = {}
        for scorer, th in thirds.items():
            whole, rest = divmod(th, 3)
            if self.rounding == "round_two_thirds_up" and rest == 2:
                whole += 1
            out[scorer] = whole + (self.last_trick if scorer == last_trick else 0)
        if self.rounding == "remainder_to_last_trick":
            others = sum(p for s, p in out.items() if s != last_trick)
            out[last_trick] = self.points - others
        if self.sweep_event and any(p >= self.points for p in out.values()):
            return None
        return out


def tally(rounding: Any, reads: tuple[str, ...], **more: Any) -> Tally | None:
    """Section 1.4's count of an ordinary deal (``tricks.score_thirds``) as a
    :class:`Tally` under ``rounding`` (a ``core.rounding`` code; None for another)."""
    if rounding not in ROUNDINGS:
        return None
    return Tally(str(rounding), reads, **more)


@dataclass(frozen=True)
class TableShape:
    """A game's table, for some house rules and seats.

    ``scored_by`` is ``"sides"`` or ``"seats"``; ``scorers`` names the sides (by their
    role code: ``A``, ``soloist``, ``bidder``, ``callers``...) or the seats; ``members``
    gives a side's seats where the sides are fixed for the match. ``unit`` is what people
    count card points in (``thirds``: an ace 3, a 3, 2 or figure 1, three to the point;
    ``points``) and ``whole`` what one deal's piles hold in that unit (None: it varies).
    ``pack`` is the deck a card grid shows; ``counting`` the cards of it that score
    (what an empty pile gets as the rest). ``tricks`` is set where every deal plays the
    same number; ``trick_counts`` says whether the table must count them.
    """

    game: str
    seats: tuple[str, ...]
    scored_by: str
    scorers: tuple[str, ...]
    members: Mapping[str, tuple[str, ...]] = field(default_factory=dict, compare=False)
    dealer_sits_out: bool = False
    pack: str | None = "italian"
    counting: tuple[str, ...] = ()
    tricks: int | None = None
    #: Whether an entry may leave the trick counts out: "asked" (the rules need them),
    #: "all_or_none" (only the side that took every trick is named: ``all_tricks``),
    #: "optional" (an entry may leave every count out; nothing scores them).
    trick_counts: str = "asked"
    unit: str = "thirds"
    whole: int | None = None
    parts: tuple[Part, ...] = ()
    #: Taking every trick takes every card: ``all_tricks`` gives its scorer the whole and
    #: the last trick (the others nothing), so an entry need not write them.
    sweep: bool = False
    #: What a deal adds from its piles and last trick alone (None: the engine's to say).
    tally: Tally | None = None

    def entry(self, level: str) -> tuple[Part, ...]:
        """The parts of the form at ``level``, in the order the page shows them."""
        return tuple(p for p in self.parts if level in p.levels)

    def part(self, kind: str) -> Part | None:
        return next((p for p in self.parts if p.kind == kind), None)

    def dealt_in(self, dealer: str) -> tuple[str, ...]:
        """Who plays a deal dealt by ``dealer``, eldest first."""
        seats = self.seats
        start = seats.index(dealer)
        order = [seats[(start + k) % len(seats)] for k in range(1, len(seats) + 1)]
        if self.dealer_sits_out:
            order.remove(dealer)
        return tuple(order)

    def side_of(self, seat: str) -> str | None:
        return next((side for side, seats in self.members.items() if seat in seats), None)


@dataclass(frozen=True)
class Pack:
    """A deck as a card grid shows it: its cards suit by suit in the order players sort
    them, the suits in that order, and the names of the ranks and suits in English and
    Italian (a French pack writes diamonds, hearts, spades and clubs as d, c, s, b)."""

    cards: tuple[Card, ...]
    suits: tuple[str, ...]
    ranks_en: Mapping[str, str] = field(default_factory=lambda: RANK_NAMES_EN)
    ranks_it: Mapping[str, str] = field(default_factory=lambda: RANK_NAMES_IT)
    suits_en: Mapping[str, str] = field(default_factory=lambda: SUIT_NAMES_EN)
    suits_it: Mapping[str, str] = field(default_factory=lambda: SUIT_NAMES_IT)
    french: bool = False

    def card_name(self, code: str, *, italian: bool) -> str:
        """``Ac``: "asso di coppe" or "ace of cups"."""
        rank, suit = code[:-1], code[-1]
        if italian:
            return f"{self.ranks_it.get(rank, rank)} di {self.suits_it.get(suit, suit)}"
        return f"{self.ranks_en.get(rank, rank)} of {self.suits_en.get(suit, suit)}"


def lost_points(scorers: int, whole: int) -> tuple[int, ...]:
    """How many whole points the figures left over may lose in a deal of ``scorers`` piles
    holding ``whole`` thirds (each pile keeps 0, 1 or 2 thirds beyond its points; they add
    up to the whole's own remainder, or 3 or 6 more), the commonest first when each pile's
    figures are alike likely: with two piles none is ever lost, with three none is the
    commonest, with four one."""
    ways: dict[int, int] = {0: 1}
    for _pile in range(scorers):
        more: dict[int, int] = {}
        for total, count in ways.items():
            for figures in (0, 1, 2):
                more[total + figures] = more.get(total + figures, 0) + count
        ways = more
    base = whole % 3
    lost = {
        (total - base) // 3: count
        for total, count in ways.items()
        if total % 3 == base and total <= whole
    }
    return tuple(sorted(lost, key=lambda k: (-lost[k], k)))


#: The Italian pack of 40, its suits as players sort them: coppe, denari, bastoni, spade.
ITALIAN = Pack(tuple(DECK40), ("c", "d", "b", "s"))
