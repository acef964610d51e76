"""Cards, decks and card arithmetic shared by every game.

A card is written as rank + suit, e.g. ``Ad`` (ace of coins) or ``10b`` for decks that
have tens. Suits: d coins, c cups, s swords, b batons (French packs map d=diamonds,
c=hearts, s=spades, b=clubs). Italian ranks, high to low in trick power: 3 2 A R C F 7 6 5 4.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

SUITS: tuple[str, ...] = ("d", "c", "s", "b")
SUIT_NAMES_EN = {"d": "coins", "c": "cups", "s": "swords", "b": "batons"}
SUIT_NAMES_IT = {"d": "denari", "c": "coppe", "s": "spade", "b": "bastoni"}

#: Tressette ranks, strongest first (section 1.2 of the reference).
TRESSETTE_RANKS: tuple[str, ...] = ("3", "2", "A", "R", "C", "F", "7", "6", "5", "4")
#: The same order with the French-court switch J above Q (C = Cavallo/Queen, F = Fante/Jack).
TRESSETTE_RANKS_J_ABOVE_Q: tuple[str, ...] = ("3", "2", "A", "R", "F", "C", "7", "6", "5", "4")
RANK_NAMES_EN = {
    "3": "3", "2": "2", "A": "ace", "R": "king", "C": "knight", "F": "jack",
    "7": "7", "6": "6", "5": "5", "4": "4", "10": "10", "9": "9", "8": "8",
}  # fmt: skip
RANK_NAMES_IT = {
    "3": "tre", "2": "due", "A": "asso", "R": "re", "C": "cavallo", "F": "fante",
    "7": "sette", "6": "sei", "5": "cinque", "4": "quattro", "10": "dieci", "9": "nove",
    "8": "otto",
}  # fmt: skip

#: Value of each Tressette rank in thirds of a point (section 1.3).
THIRDS: dict[str, int] = {"A": 3, "3": 1, "2": 1, "R": 1, "C": 1, "F": 1}
#: The carichi (3s, 2s, aces) and figure (R, C, F).
CARICHI = frozenset({"3", "2", "A"})
FIGURE = frozenset({"R", "C", "F"})
#: The 40-card deck holds 32 thirds; the last trick adds 3: 11 points in a deal.
CARD_THIRDS_IN_DECK = 32
LAST_TRICK_THIRDS = 3
DEAL_POINTS = (CARD_THIRDS_IN_DECK + LAST_TRICK_THIRDS) // 3


@dataclass(frozen=True, slots=True)
class Card:
    rank: str
    suit: str
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.rank, self.suit)))

    def __hash__(self) -> int:  # cached: cards are hashed millions of times per replay
        return self._hash

    @property
    def code(self) -> str:
        return f"{self.rank}{self.suit}"

    def __str__(self) -> str:
        return self.code

    @property
    def thirds(self) -> int:
        return THIRDS.get(self.rank, 0)

    def name(self, lang: str) -> str:
        if lang == "it":
            return f"{RANK_NAMES_IT.get(self.rank, self.rank)} di {SUIT_NAMES_IT[self.suit]}"
        return f"{RANK_NAMES_EN.get(self.rank, self.rank)} of {SUIT_NAMES_EN[self.suit]}"


#: Every rank of every pack the games use (Italian, then the French and Spanish extras).
ALL_RANKS = ("3", "2", "A", "R", "C", "F", "7", "6", "5", "4", "10", "9", "8", "J", "Q", "K")

#: One shared Card per code (``Ad``, ``ad``, ``10b``...): parsing is a lookup, and the
#: containers' identity check makes ``card in hand`` cheap. Only real cards are kept, so
#: arbitrary input cannot grow it.
_BY_CODE: dict[str, Card] = {}
for _rank in ALL_RANKS:
    for _suit in SUITS:
        _card = Card(_rank, _suit)
        for _code in {
            f"{_rank}{_suit}",
            f"{_rank.lower()}{_suit}",
            f"{_rank}{_suit.upper()}",
            f"{_rank.lower()}{_suit.upper()}",
        }:
            _BY_CODE[_code] = _card


def thirds_of(cards: Iterable[Card]) -> int:
    return sum(c.thirds for c in cards)


def strength(card: Card, order: tuple[str, ...] = TRESSETTE_RANKS) -> int:
    """Trick-taking power within a suit: higher wins."""
    return len(order) - order.index(card.rank)


def trick_winner(cards: list[Card], order: tuple[str, ...] = TRESSETTE_RANKS) -> int:
    """Index of the card that wins a trick: highest card of the led suit, no trumps."""
    led = cards[0].suit
    best = 0
    for i, card in enumerate(cards):
        if card.suit == led and strength(card, order) > strength(cards[best], order):
            best = i
    return best


def card_list_en(cards: Iterable[Card]) -> str:
    return ", ".join(c.name("en") for c in cards)


def card_list_it(cards: Iterable[Card]) -> str:
    return ", ".join(c.name("it") for c in cards)


def make_deck(ranks: Iterable[str], suits: Iterable[str] = SUITS) -> tuple[Card, ...]:
    ranks = tuple(ranks)
    return tuple(_BY_CODE.get(f"{r}{s}") or Card(r, s) for s in suits for r in ranks)


DECK40: tuple[Card, ...] = make_deck(TRESSETTE_RANKS)


DECK40_SET: frozenset[Card] = frozenset(DECK40)
FOUR_OF_COINS = _BY_CODE["4d"]


def parse_card(code: object, deck: Collection[Card] = DECK40_SET) -> Card | None:
    """The card a code names, or None when the code is not a card of ``deck``.

    Pass a set for speed: membership is tested once per card.
    """
    card = _BY_CODE.get(code) if type(code) is str else None
    if card is None:
        if not isinstance(code, str) or not 2 <= len(code) <= 3:
            return None
        card = Card(code[:-1].upper(), code[-1].lower())
    return card if card in deck else None
