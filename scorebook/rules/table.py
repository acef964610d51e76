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
* ``Part("kings_played", {"scores": False})``: the kings played change no score under
  these house rules (the engine only checks them against Matrimony and Intrigue).
* ``Part("cards_left", {"zero": "out_first", "needed": "all" | "held" | "none"})``: who
  went out holds no card; whose counts a payment reads (every player's, the Spinado
  holder's, nobody's).
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
    #: "optional" (an entry in thirds may leave every count out; nothing scores them).
    trick_counts: str = "asked"
    unit: str = "thirds"
    whole: int | None = None
    parts: tuple[Part, ...] = ()
    #: Taking every trick takes every card: ``all_tricks`` gives its scorer the whole and
    #: the last trick (the others nothing), so an entry need not write them.
    sweep: bool = False

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


#: The Italian pack of 40, its suits as players sort them: coppe, denari, bastoni, spade.
ITALIAN = Pack(tuple(DECK40), ("c", "d", "b", "s"))
