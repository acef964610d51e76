"""The deal form's words: suits, ranks and cards in the user's language, the packs a
card grid shows, and the labels of the choices the parts share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from scorebook.rules import packs
from scorebook.rules.cards import RANK_NAMES_EN, RANK_NAMES_IT, SUIT_NAMES_EN, SUIT_NAMES_IT
from scorebook.rules.table import ITALIAN
from scorebook.rules.table import Pack as Deck

SUIT_LABELS = {
    "c": _("Cups"),
    "d": _("Coins"),
    "b": _("Batons"),
    "s": _("Swords"),
}
#: The French pack's suits (Spinado): the codes the engine writes them with.
SUIT_LABELS_FR = {"d": _("diamonds"), "c": _("hearts"), "s": _("spades"), "b": _("clubs")}
#: The Italian pack's suits in the order players sort them: coppe, denari, bastoni, spade.
GRID_SUITS = ITALIAN.suits
DECLARATION_WHEN = [("", _("in time")), ("early", _("early")), ("late", _("late"))]
DECLARATION_FORMS = [("", _("right")), ("incomplete", _("incomplete")), ("wrong", _("wrong"))]
DECLARATION_FIXES = [
    ("", "—"),
    ("by_declarer", _("by the declarer, during trick 1")),
    ("found_in_play", _("shown by the play of trick 1")),
    ("asked_by_opponent", _("at an opponent's question")),
    ("asked_by_partner", _("at the partner's question")),
    ("after_first_trick", _("after trick 1")),
    ("never", _("never")),
]


def card_name(code: str) -> str:
    """A card in the user's language: ``Ac`` is "asso di coppe" or "ace of cups"."""
    rank, suit = code[:-1], code[-1]
    if get_language() == "it":
        return f"{RANK_NAMES_IT.get(rank, rank)} di {SUIT_NAMES_IT.get(suit, suit)}"
    return f"{RANK_NAMES_EN.get(rank, rank)} of {SUIT_NAMES_EN.get(suit, suit)}"


def suit_name(suit: str) -> str:
    """A suit in a sentence, in the user's language: "denari", "coins"."""
    names = SUIT_NAMES_IT if get_language() == "it" else SUIT_NAMES_EN
    return names.get(suit, suit)


def rank_short(rank: str) -> str:
    """What a grid button shows: the rank as printed on Italian cards."""
    names = RANK_NAMES_IT if get_language() == "it" else RANK_NAMES_EN
    return rank if rank.isdigit() else names[rank].capitalize()


#: What a grid button shows for a court card or an ace: short enough for a fifth of a
#: 360 px phone (the full name is the button's accessible name).
GRID_RANKS_IT = {"A": "Asso", "R": "Re", "C": "Cav.", "F": "Fante"}
GRID_RANKS_EN = {"A": "Ace", "R": "King", "C": "Kn.", "F": "Jack"}


def rank_on_grid(rank: str) -> str:
    if rank.isdigit():
        return rank
    return (GRID_RANKS_IT if get_language() == "it" else GRID_RANKS_EN).get(rank, rank)


@dataclass(frozen=True)
class Pack:
    """A deck as a grid shows it: the engine's pack (its cards in order, by suit, and their
    names) with the page's words for the suits and the short ranks."""

    deck: Deck

    @property
    def cards(self) -> tuple[Any, ...]:
        return self.deck.cards

    @property
    def suits(self) -> tuple[str, ...]:
        return self.deck.suits

    def suit_label(self, suit: str) -> Any:
        return SUIT_LABELS_FR[suit] if self.deck.french else SUIT_LABELS[suit]

    def short(self, rank: str) -> str:
        return rank if self.deck.french else rank_on_grid(rank)

    def name(self, code: str) -> str:
        return self.deck.card_name(code, italian=get_language() == "it")


#: The packs a grid can show, by the name a table gives (``TableShape.pack``): the
#: engine's (the Italian 40, Trappola's 36, Spinado's French 47 or 50).
PACKS = {name: Pack(deck) for name, deck in packs().items()}


#: Three or four of a rank, as a declaration chip says it.
RANK_PLURALS = {"3": _("3s"), "2": _("2s"), "A": _("aces")}


#: Where a called card may have been, beside the players' hands.
CALLED_FROM = {
    "monte": _("the monte"),
    "own_hand": _("the soloist's own hand"),
    "stock": _("the stock"),
}

REVOKES = {"bidder": _("the bidder"), "opponents": _("the opponents"), "both": _("both sides")}
