"""Deal entry at the table: what each game asks, and the one translation from the posted
form to the engine's deal JSON.

Every input is named by the engine path it fills (``sides.A.thirds``,
``declarations[0].suit``), so each problem the engine reports lands next to the input of
the same name. Nothing here judges a deal: the engine does, on the server. The only
arithmetic is "the rest" (the one score or pile left blank is what the deck holds minus
the others), taken from the engine's own deck and trick counts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.utils.text import format_lazy
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from scorebook.core.inputs import loads as strict_json
from scorebook.core.refusals import Refusal
from scorebook.rules import MatchState, Rejection, get_game, packs
from scorebook.rules.cards import RANK_NAMES_EN, RANK_NAMES_IT, SUIT_NAMES_EN, SUIT_NAMES_IT, SUITS
from scorebook.rules.table import ITALIAN, Part, TableShape
from scorebook.rules.table import Pack as Deck
from scorebook.web.switches import BID_LABELS, DECLARATION_TYPES, SIDE_LABELS

#: The quick form (the table's way of counting, chips to tap) comes first; the detailed
#: levels of the deal format follow.
LEVELS = ("quick", "totals", "cards", "play")
#: The levels entered field by field (the engine's description lists their parts).


SUIT_LABELS = {
    "c": _("Cups"),
    "d": _("Coins"),
    "b": _("Batons"),
    "s": _("Swords"),
}
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


@dataclass
class Input:
    """One field of the form. ``name`` is the engine path it fills."""

    name: str
    label: Any
    #: number | choice | check | cards | text; on the quick form also points (whole
    #: points, the figures from a ``chips`` input that ``feeds`` it), chips (one tap:
    #: radio buttons), chipset (tap several) and shown (computed, never typed)
    kind: str = "number"
    choices: list[tuple[str, Any]] = field(default_factory=list)
    value: Any = ""
    rest: Any = None  # what the server computed for a blank field
    errors: list[str] = field(default_factory=list)
    high: int | None = None
    many: bool = False  # a choice the engine reads as a list of one
    group: Any = ""  # inputs of one group (a declaration) share a fieldset and short labels
    pack: str = "italian"  # the deck a ``cards`` input shows (PACKS)
    feeds: str = ""  # the input this one adds to (figures to points) instead of a path
    unit: str = ""  # what a ``shown`` rest counts (thirds are shown as points and figures)
    first: bool = False  # the field the cursor starts in
    #: a ``call`` input (quick form): the cards that may be called (rows) and where each
    #: may have been (columns: a player, the monte...); one tap names both
    rows: list[tuple[str, Any]] = field(default_factory=list)
    cols: list[tuple[str, Any]] = field(default_factory=list)

    @property
    def rest_text(self) -> str:
        """The computed rest in the table's words: "4 e 0" for 12 thirds."""
        if self.rest is None:
            return ""
        if self.unit == "thirds" and isinstance(self.rest, int):
            return str(
                _("%(points)d and %(figures)d")
                % {"points": self.rest // 3, "figures": self.rest % 3}
            )
        return str(self.rest)

    @property
    def id(self) -> str:
        return "f-" + re.sub(r"[^A-Za-z0-9]+", "-", self.name).strip("-")

    @property
    def selected(self) -> set[str]:
        return set(self.value) if isinstance(self.value, list) else set()

    def matrix(self) -> list[dict[str, Any]]:
        """A ``call`` input's rows: each card with one cell per place it may have been."""
        return [
            {
                "label": text,
                "cells": [
                    {
                        "value": f"{code}{CALL_SEP}{where}",
                        "name": f"{text}: {place}",
                        "on": self.value == f"{code}{CALL_SEP}{where}",
                    }
                    for where, place in self.cols
                ],
            }
            for code, text in self.rows
        ]

    def grid(self) -> list[dict[str, Any]]:
        """The pack's cards by suit for a ``cards`` input, each with its state."""
        chosen = self.selected
        pack = PACKS[self.pack]
        return [
            {
                "suit": suit,
                "label": pack.suit_label(suit),
                "cards": [
                    {
                        "code": c.code,
                        "short": pack.short(c.rank),
                        "name": pack.name(c.code),
                        "on": c.code in chosen,
                    }
                    for c in pack.cards
                    if c.suit == suit
                ],
            }
            for suit in pack.suits
        ]


@dataclass
class Section:
    title: Any
    inputs: list[Input]
    note: Any = ""
    claims: tuple[str, ...] = ()  # engine paths shown here when no input has them
    errors: list[str] = field(default_factory=list)
    open: bool = True

    @property
    def expanded(self) -> bool:
        """Open by default, or holding a problem or what was entered: a correction showed
        the deal's declarations folded away, and a refused form hid the note in red."""
        return (
            self.open
            or bool(self.errors)
            or any(inp.errors or inp.value not in ("", None, False, []) for inp in self.inputs)
        )

    def blocks(self) -> list[tuple[Any, list[Input]]]:
        """The inputs in runs of one group (a fieldset each) or of none."""
        runs: list[tuple[Any, list[Input]]] = []
        for inp in self.inputs:
            if runs and str(runs[-1][0]) == str(inp.group):
                runs[-1][1].append(inp)
            else:
                runs.append((inp.group, [inp]))
        return runs


@dataclass
class DealForm:
    """The form of one deal at one level: sections of inputs, problems in place."""

    game: str
    level: str
    sections: list[Section]
    errors: list[str] = field(default_factory=list)  # problems no field owns
    record: str = ""
    names: Mapping[str, str] = field(default_factory=dict)  # seat -> player, for the notes

    @property
    def notes(self) -> list[str]:
        """Every problem once, in the form's order: repeated beside the save button, as the
        notes in their sections may be a long scroll above it."""
        found = [*self.errors]
        for section in self.sections:
            found += section.errors
            for inp in section.inputs:
                found += inp.errors
        return list(dict.fromkeys(str(note) for note in found))

    def inputs(self) -> Iterable[Input]:
        for section in self.sections:
            yield from section.inputs


# -- who is who -------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """The match as the form needs it: seats with names, the state, the house rules."""

    game: str
    rules: Mapping[str, Any]
    state: MatchState
    names: Mapping[str, str]  # seat -> player name

    @cached_property
    def shape(self) -> TableShape:
        """The engine's description of this game's table (who scores, the form's parts)."""
        return get_game(self.game).table_shape(self.rules, self.state.seats)

    def seat_label(self, seat: str) -> str:
        name = self.names.get(seat)
        return f"{seat} · {name}" if name else seat

    def seat_choices(self, seats: Iterable[str] | None = None) -> list[tuple[str, Any]]:
        return [(s, self.seat_label(s)) for s in (seats or self.state.seats)]

    def side_label(self, side: str) -> Any:
        members = self.shape.members.get(side)
        if members:
            names = ", ".join(self.names.get(s, s) for s in members)
            return f"{side} ({names})"
        return SIDE_LABELS.get(side, side)

    def label(self, scorer: str) -> Any:
        """A scorer in words: a seat with its player, or a side with its players."""
        return self.seat_label(scorer) if scorer in self.state.seats else self.side_label(scorer)

    def dealt_in(self) -> tuple[str, ...]:
        """Who plays this deal, eldest first (a four-handed three-hander leaves the dealer out)."""
        return self.shape.dealt_in(self.state.dealer)


def scorers(table: Table) -> tuple[str, tuple[str, ...]]:
    """Whose piles the form asks for: ``("sides", ...)`` or ``("seats", ...)``."""
    return table.shape.scored_by, table.shape.scorers


# -- the form of each game ----------------------------------------------------------------


def build(table: Table, level: str) -> DealForm:
    """The empty form of the next deal of ``table`` at ``level``."""
    form = _build(table, level)
    form.names = {seat: name for seat, name in table.names.items() if name}
    return form


def _build(table: Table, level: str) -> DealForm:
    """The sections the engine's description lists for ``level``, in its order."""
    if level == "play":
        return DealForm(game=table.game, level=level, sections=[])
    sections: list[Section] = []
    if level == "quick":
        for part in table.shape.entry("totals"):
            quick = QUICK.get(part.kind)
            sections.extend(quick(table, part) if quick else PARTS[part.kind](table, part, level))
        return DealForm(game=table.game, level=level, sections=sections)
    for part in table.shape.entry(level):
        sections.extend(PARTS[part.kind](table, part, level))
    return DealForm(game=table.game, level=level, sections=sections)


def _piles(table: Table, part: Part, level: str) -> list[Section]:
    shape = table.shape
    group, who = scorers(table)
    grid = level == "cards" and shape.pack is not None
    inputs: list[Input] = []
    for scorer in who:
        label = table.side_label(scorer) if group == "sides" else table.seat_label(scorer)
        where = f"{group}.{scorer}"
        if grid:
            inputs.append(Input(f"{where}.cards", label, "cards", pack=shape.pack or ""))
        elif shape.unit == "thirds":
            inputs.append(
                Input(f"{where}.thirds", _("%(who)s: thirds") % {"who": label}, high=shape.whole)
            )
        else:
            inputs.append(Input(f"{where}.points", _("%(who)s: points") % {"who": label}))
        inputs.append(
            Input(f"{where}.tricks", _("%(who)s: tricks") % {"who": label}, high=shape.tricks)
        )
    last = [(s, table.side_label(s) if group == "sides" else table.seat_label(s)) for s in who]
    inputs.append(Input("last_trick", _("Last trick"), "choice", [("", "—"), *last]))
    if shape.trick_counts == "all_or_none" and not grid:  # the counts may be left out
        inputs.append(
            Input(
                "all_tricks",
                _("All the tricks (cappotto)"),
                "choice",
                [("", "—"), *last, *_alone_chips(table, part)],
            )
        )
    if part.get("counters_alone"):
        inputs.append(
            Input(
                "counters_alone",
                _("All the points alone (stramazzone)"),
                "choice",
                [("", "—"), *_seat_chips(table)],
            )
        )
    if part.get("round_one_last_trick"):
        inputs.append(
            Input(
                "last_trick_round1",
                _("Last trick of the first round"),
                "choice",
                [("", "—"), *last],
            )
        )
    if part.get("removed_four"):
        fours = [(f"4{s}", card_name(f"4{s}")) for s in SUITS]
        inputs.append(
            Input(
                "removed",
                _("The 4 taken out"),
                "choice",
                [("", "—"), *fours],
                many=part.get("removed_four") == "many",
            )
        )
    if part.get("dummy_partner"):
        inputs.append(
            Input(
                "dummy_partner",
                _("The dummy's partner"),
                "choice",
                [("", "—"), *table.seat_choices()],
            )
        )
    note: Any = (
        _(
            "Tap the cards each side took (the aces, 3s, 2s and figures at least); "
            "a pile left empty gets the counting cards nobody else took."
        )
        if grid
        else _("Leave one blank: it gets the rest.")
    )
    if shape.unit == "thirds" and not grid:
        # what a third is, for whoever keeps the score tonight for the first time
        note = format_lazy(
            "{} {}",
            note,
            _("Thirds: an ace is 3, a 3, a 2 or a figure is 1; the last trick is given below."),
        )
    # At the totals level the title said "Cards taken", the name of the other level's tab.
    title = _("Cards taken") if level == "cards" else _("Points and tricks")
    return [Section(title, inputs, note=note, claims=(group,))]


def _monte_discards(table: Table, part: Part, level: str) -> list[Section]:
    return [
        Section(
            _("Monte and discards"),
            [
                Input("monte", _("The monte (4 cards)"), "cards", pack=table.shape.pack or ""),
                Input(
                    "discards", _("The soloist's discards"), "cards", pack=table.shape.pack or ""
                ),
            ],
        )
    ]


def _first_to_target(table: Table, part: Part, level: str) -> list[Section]:
    sides = [("", "—"), *((s, table.side_label(s)) for s in table.shape.scorers)]
    return [
        Section(
            _("The target"),
            [Input("first_to_target", _("Reached the target first"), "choice", sides)],
            note=_("Only when both sides reach the target in this deal."),
            open=False,
        )
    ]


def _cappotto_after_win(table: Table, part: Part, level: str) -> list[Section]:
    return [
        Section(
            _("A cappotto after the win"),
            [
                Input(
                    "cappotto_after_win",
                    _("The side had reached the target before its cappotto was complete"),
                    "check",
                )
            ],
            note=_("Only for a cappotto: it then pays the ordinary stake."),
            open=False,
        )
    ]


def _annulled(table: Table, part: Part, level: str) -> list[Section]:
    return [
        Section(
            _("Deal annulled"),
            [
                Input(
                    "annulled_by",
                    _("Annulled by (a poor hand)"),
                    "choice",
                    [("", "—"), *table.seat_choices()],
                )
            ],
            open=False,
        )
    ]


def _declarations(table: Table, part: Part, level: str) -> list[Section]:
    """Declarations of the kinds the game plays; with ``anomalies``, the tournament code's
    handling of a declaration gone wrong."""
    rows, kinds, anomalies = 3, part.get("kinds", tuple(DECLARATION_TYPES)), part.get("anomalies")
    inputs: list[Input] = []
    types = [("", "—"), *((k, DECLARATION_TYPES[k]) for k in kinds)]
    suits = [("", "—"), *((s, SUIT_LABELS[s]) for s in GRID_SUITS)]
    ranks = [("", "—"), *((r, rank_short(r)) for r in ("3", "2", "A"))]
    for i in range(rows):
        where, group = f"declarations[{i}]", _("Declaration %(n)d") % {"n": i + 1}
        inputs += [
            Input(
                f"{where}.player",
                _("who"),
                "choice",
                [("", "—"), *table.seat_choices()],
                group=group,
            ),
            Input(f"{where}.type", _("what"), "choice", types, group=group),
            Input(f"{where}.suit", _("suit"), "choice", suits, group=group),
            Input(f"{where}.rank", _("rank"), "choice", ranks, group=group),
            Input(f"{where}.missing", _("suit missing (three)"), "choice", suits, group=group),
        ]
        if anomalies:  # the tournament code's handling of a declaration gone wrong
            inputs += [
                Input(f"{where}.when", _("made"), "choice", DECLARATION_WHEN, group=group),
                Input(f"{where}.form", _("said"), "choice", DECLARATION_FORMS, group=group),
                Input(f"{where}.fixed", _("put right"), "choice", DECLARATION_FIXES, group=group),
                Input(f"{where}.contested", _("contested by an opponent"), "check", group=group),
            ]
    note = _("Suit for a napoletana or decima; rank for three or four of a kind.")
    if anomalies:
        note = _(
            "Suit for a napoletana or decima; rank for three or four of a kind. A "
            "declaration made early or late, incomplete or wrong: say so, how it was put "
            "right and whether an opponent contested it; the tournament code scores it."
        )
    return [Section(_("Declarations"), inputs, note=note, claims=("declarations",), open=False)]


def _claim(table: Table, part: Part, level: str) -> list[Section]:
    sides = [("", "—"), *((s, table.side_label(s)) for s in table.shape.scorers)]
    if part.get("by") != "opponents":
        return [
            Section(
                _("Claim (chiamarsi fuori)"),
                [
                    Input("claim.side", _("Side that claimed"), "choice", sides),
                    Input("claim.after_trick", _("After trick number")),
                    Input("claim.on_lead", _("The side was on lead"), "check"),
                ],
                claims=("claim",),
                open=False,
            )
        ]
    cappotto = [
        ("", "—"),
        ("made", _("made")),
        ("failed", _("failed")),
        ("laid_down", _("made by laying the cards down, after a wrong call")),
    ]
    return [
        Section(
            _("Call-out (chiamata fuori)"),
            [
                Input("claim.side", _("Side called out"), "choice", sides),
                Input("claim.by", _("Called out by (blank: the side itself)"), "choice", sides),
                Input("claim.after_trick", _("After trick number")),
                Input("claim.on_lead", _("The side that called was on lead"), "check"),
                Input("claim.cappotto", _("Then went on for cappotto"), "choice", cappotto),
            ],
            note=_(
                "The side called out is the one said to have reached the target. Going for "
                "cappotto: enter the cards taken up to the call."
            ),
            claims=("claim",),
            open=False,
        )
    ]


def _failed_callouts(table: Table, part: Part, level: str) -> list[Section]:
    sides = [("", "—"), *((s, table.side_label(s)) for s in table.shape.scorers)]
    inputs: list[Input] = []
    for i in range(4):
        where, group = f"failed_callouts[{i}]", _("Wrong call-out %(n)d") % {"n": i + 1}
        inputs += [
            Input(f"{where}.by", _("called by"), "choice", sides, group=group),
            Input(f"{where}.after_trick", _("after trick"), group=group),
        ]
    return [
        Section(
            _("Wrong call-outs (play went on)"),
            inputs,
            note=_("Two wrong call-outs take away a side's right to a third."),
            claims=("failed_callouts",),
            open=False,
        )
    ]


def _call(table: Table, part: Part, level: str) -> list[Section]:
    if part.get("by") == "suit":
        called = [("", "—"), *((s, SUIT_LABELS[s]) for s in GRID_SUITS)]
        called_label = _("Suit of the 3 called")
    else:
        called = [("", "—"), *((c, card_name(c)) for c in part.get("cards", ()))]
        called_label = _("Card called")
    seats = [("", "—"), *table.seat_choices()]
    return [
        Section(
            _("The call"),
            [
                Input("caller", _("Caller"), "choice", seats),
                Input("called", called_label, "choice", called),
                Input("partner", _("Partner (held the called card)"), "choice", seats),
            ],
        )
    ]


#: Where a called card may have been, beside the players' hands.
CALLED_FROM = {
    "monte": _("the monte"),
    "own_hand": _("the soloist's own hand"),
    "stock": _("the stock"),
}
#: Where the called card was, when the soloist himself held it (the quick form's call names
#: him in its column instead).
OWN_HAND = "own_hand"
#: Between the card and the place in a ``call`` input's value (``3c@P2``).
CALL_SEP = "@"
REVOKES = {"bidder": _("the bidder"), "opponents": _("the opponents"), "both": _("both sides")}


def _auction(table: Table, part: Part, level: str) -> list[Section]:
    """The auction's result (who won it, with which contract where there are several);
    the form writes the bids. The rest as the description lists it."""
    players = table.dealt_in()
    contracts = part.get("contracts", ())
    # With one contract, "all passed" is said where the winner is (with several, it is a
    # contract of its own).
    passed = [] if contracts else [("pass", BID_LABELS["pass"])]
    inputs = [
        Input(
            "auction.winner",
            _("Who won the auction"),
            "choice",
            [("", "—"), *table.seat_choices(players), *passed],
        )
    ]
    if contracts:
        choices = [(b, BID_LABELS[b]) for b in contracts]
        inputs.append(Input("auction.bid", _("Contract"), "choice", [("", "—"), *choices]))
    cards = [("", "—"), *((c, card_name(c)) for c in part.get("called", ()))]
    whence = [(w, CALLED_FROM[w]) for w in part.get("called_from", ())]
    if contracts:
        inputs += [
            Input("called", _("Card called (chiamo)"), "choice", cards),
            Input(
                "called_from",
                _("Who held it"),
                "choice",
                [("", "—"), *table.seat_choices(players), *whence],
            ),
        ]
    else:
        inputs += [
            Input("called", _("Card asked for"), "choice", cards),
            Input(
                "called_from",
                _("Who held it"),
                "choice",
                [("", "—"), *table.seat_choices(players), *whence],
            ),
        ]
    if part.get("monte_shares"):
        inputs += [
            Input(
                f"monte_shares.{p}",
                _("%(who)s: monte cards chosen (scegliete)") % {"who": table.seat_label(p)},
            )
            for p in players
        ]
    if part.get("card_not_given_back"):
        inputs.append(
            Input(
                "card_not_given_back",
                _("The soloist forgot to give a card back (the hand is lost)"),
                "check",
            )
        )
    if part.get("holds_all_threes"):
        inputs.append(Input("holds_all_threes", _("The bidder held all four 3s"), "check"))
    if part.get("discards"):
        inputs.append(Input("discards", _("Cards discarded (1-4)")))
    if part.get("revoke"):
        revokes = [("", "—"), *((r, REVOKES[r]) for r in part.get("revoke"))]
        inputs.append(Input("revoke", _("Revoke (renounce) by"), "choice", revokes))
    return [Section(_("The auction"), inputs, claims=("bids", "auction"))]


def _redraws(table: Table, part: Part, level: str) -> list[Section]:
    redraws = [
        Input(f"redraws.{p}", _("%(who)s: redraws") % {"who": table.seat_label(p)})
        for p in table.state.seats
    ]
    return [Section(_("Redraws"), redraws, claims=("redraws",), open=False)]


def _twos(table: Table, part: Part, level: str) -> list[Section]:
    seats = [("", "—"), *table.seat_choices()]
    twos = [
        inp
        for i in range(part.get("rows", 3))
        for group in [_("Trick won with a 2 (%(n)d)") % {"n": i + 1}]
        for inp in (
            Input(f"twos[{i}].player", _("who"), "choice", seats, group=group),
            Input(f"twos[{i}].trick", _("trick number"), group=group),
        )
    ]
    return [Section(_("Tricks won with a 2"), twos, claims=("twos",), open=False)]


def _sets(table: Table, part: Part, level: str) -> list[Section]:
    """Declarations of three or four cards of a rank (Trappola's)."""
    seats = [("", "—"), *table.seat_choices()]
    ranks = [("", "—"), *((r, r) for r in part.get("ranks", ()))]
    declarations = [
        inp
        for i in range(part.get("rows", 2))
        for group in [_("Declaration %(n)d") % {"n": i + 1}]
        for inp in (
            Input(f"declarations[{i}].player", _("who"), "choice", seats, group=group),
            Input(f"declarations[{i}].rank", _("rank"), "choice", ranks, group=group),
            Input(f"declarations[{i}].count", _("how many (3 or 4)"), group=group),
        )
    ]
    return [Section(_("Declarations"), declarations, claims=("declarations",), open=False)]


def _runs(table: Table, part: Part, level: str) -> list[Section]:
    seats = [("", "—"), *table.seat_choices()]
    events = [
        Input("out_first", _("Went out first"), "choice", seats),
        Input("matrimony_by", _("Matrimony made by"), "choice", seats),
        Input("intrigue_by", _("Intrigue made by"), "choice", seats),
        Input("spinado_played_by", _("Spinado played by"), "choice", seats),
        Input("spinado_held_by", _("Spinado left in the hand of"), "choice", seats),
        Input("spinado_in_dead_hand", _("The Spinado was in the dead hand"), "check"),
    ]
    return [Section(_("Who did what"), events)]


def _kings_played(table: Table, part: Part, level: str) -> list[Section]:
    seats = [("", "—"), *table.seat_choices()]
    kings = [
        Input(
            f"kings_played.{k}",
            _("King played: %(card)s") % {"card": SUIT_LABELS_FR[k[-1]]},
            "choice",
            seats,
        )
        for k in part.get("kings", ())
    ]
    return [Section(_("Kings played"), kings, claims=("kings_played",))]


def _cards_left(table: Table, part: Part, level: str) -> list[Section]:
    left = [
        Input(f"cards_left.{s}", _("%(who)s: cards left") % {"who": table.seat_label(s)})
        for s in table.state.seats
    ]
    return [Section(_("Cards left in each hand"), left, claims=("cards_left",))]


def _hands_dealt(table: Table, part: Part, level: str) -> list[Section]:
    """The cards each player was dealt (the dead hand is the rest): where a deal is runs
    of cards, not tricks, there is no pile of captured cards to tap."""
    hands = [
        Input(
            f"hands.{s}",
            _("%(who)s: cards dealt") % {"who": table.seat_label(s)},
            "cards",
            pack=table.shape.pack or "",
        )
        for s in table.state.seats
    ]
    return [
        Section(
            _("Cards dealt"),
            hands,
            note=_("Tap each player's cards; the cards nobody holds are the dead hand."),
            claims=("hands", "dead_hand"),
        )
    ]


# -- the quick form: as the table counts, one tap where a choice will do ------------------

FIGURES = [("0", "0"), ("1", "1"), ("2", "2")]


def _scorer_chips(table: Table) -> list[tuple[str, Any]]:
    group, who = scorers(table)
    return [(s, table.side_label(s) if group == "sides" else table.seat_label(s)) for s in who]


def _alone_chips(table: Table, part: Part) -> list[tuple[str, Any]]:
    """Where one player may take every trick alone (``all_tricks_alone``), each seat."""
    if not part.get("all_tricks_alone"):
        return []
    return [
        (seat, _("%(who)s alone") % {"who": table.seat_label(seat)}) for seat in table.state.seats
    ]


def _seat_chips(table: Table) -> list[tuple[str, Any]]:
    return [(seat, table.seat_label(seat)) for seat in table.state.seats]


def _quick_piles(table: Table, part: Part) -> list[Section]:
    """Each scorer's card points but the last, whose are the rest (computed, shown); in
    thirds games as whole points and the figures left over ("6 e 2"). The trick counts
    only where the rules need them; else one choice: did a side take every trick?"""
    shape = table.shape
    group, who = scorers(table)
    named = dict(_scorer_chips(table))
    typed = who[:-1] if shape.whole is not None else who
    inputs: list[Input] = []
    for n, scorer in enumerate(typed):
        where = f"{group}.{scorer}"
        if shape.unit == "thirds":
            inputs += [
                Input(
                    f"{where}.thirds",
                    _("%(who)s: points") % {"who": named[scorer]},
                    "points",
                    first=n == 0,
                    high=shape.whole // 3 if shape.whole is not None else None,
                ),
                Input(
                    f"{where}.thirds~figures",
                    _("%(who)s: figures left over") % {"who": named[scorer]},
                    "chips",
                    FIGURES,
                    feeds=f"{where}.thirds",
                ),
            ]
        else:
            inputs.append(
                Input(
                    f"{where}.points", _("%(who)s: points") % {"who": named[scorer]}, first=n == 0
                )
            )
    if len(typed) < len(who):
        last = who[-1]
        key = "thirds" if shape.unit == "thirds" else "points"
        inputs.append(
            Input(
                f"{group}.{last}.{key}",
                _("%(who)s: points") % {"who": named[last]},
                "shown",
                unit=shape.unit,
            )
        )
    if shape.trick_counts == "all_or_none":
        inputs.append(
            Input(
                "all_tricks",
                _("All the tricks (cappotto)"),
                "chips",
                [("", _("nobody")), *_scorer_chips(table), *_alone_chips(table, part)],
            )
        )
    else:
        counted = who[:-1] if shape.tricks is not None else who
        inputs += [
            Input(f"{group}.{s}.tricks", _("%(who)s: tricks") % {"who": named[s]}) for s in counted
        ]
        if len(counted) < len(who):
            last_label = _("%(who)s: tricks") % {"who": named[who[-1]]}
            inputs.append(Input(f"{group}.{who[-1]}.tricks", last_label, "shown"))
    if part.get("counters_alone"):
        inputs.append(
            Input(
                "counters_alone",
                _("All the points alone (stramazzone)"),
                "chips",
                [("", _("nobody")), *_seat_chips(table)],
            )
        )
    inputs.append(Input("last_trick", _("Last trick"), "chips", _scorer_chips(table)))
    if part.get("round_one_last_trick"):
        inputs.append(
            Input(
                "last_trick_round1",
                _("Last trick of the first round"),
                "chips",
                _scorer_chips(table),
            )
        )
    if part.get("removed_four"):
        fours = [(f"4{s}", card_name(f"4{s}")) for s in SUITS]
        inputs.append(
            Input(
                "removed",
                _("The 4 taken out"),
                "chips",
                fours,
                many=part.get("removed_four") == "many",
            )
        )
    if part.get("dummy_partner"):
        inputs.append(
            Input("dummy_partner", _("The dummy's partner"), "chips", table.seat_choices())
        )
    return [Section(_("The deal"), inputs, claims=(group,))]


def _quick_declarations(table: Table, part: Part) -> list[Section]:
    """Each player's usual declarations as chips, one tap each behind "+ accuso": the
    napoletana of a suit, four 3s, 2s or aces, three of them with the suit missing, and
    the decima of a suit where the game plays it (the collatondrione). The
    tournament code's declarations gone wrong are on the detailed form."""
    if part.get("anomalies"):
        return _declarations(table, part, "totals")
    kinds = part.get("kinds", ())
    chips: list[tuple[str, Any]] = []
    if "napoletana" in kinds:
        chips += [
            (f"napoletana:{s}", _("napoletana of %(suit)s") % {"suit": SUIT_LABELS[s]})
            for s in GRID_SUITS
        ]
    if "decima" in kinds:  # shown, not played: the collatondrione in two taps
        chips += [
            (f"decima:{s}", _("decima of %(suit)s") % {"suit": SUIT_LABELS[s]}) for s in GRID_SUITS
        ]
    for rank in ("3", "2", "A"):
        if "four" in kinds:
            chips.append((f"four:{rank}", _("four %(rank)s") % {"rank": RANK_PLURALS[rank]}))
        if "three" in kinds:
            chips += [
                (
                    f"three:{rank}:{s}",
                    _("three %(rank)s, no %(suit)s")
                    % {"rank": RANK_PLURALS[rank], "suit": SUIT_LABELS[s]},
                )
                for s in GRID_SUITS
            ]
    inputs = [
        Input(
            f"accusi.{seat}",
            _("+ accuso: %(who)s") % {"who": table.seat_label(seat)},
            "chipset",
            chips,
        )
        for seat in table.state.seats
    ]
    return [Section(_("Declarations"), inputs, claims=("declarations",), open=True)]


def _quick_auction(table: Table, part: Part) -> list[Section]:
    """Who won the auction and with which contract, a tap each; the card called and who
    held it in one tap on a grid (a row per card a call names at the table, a 3 or a 2;
    a column per player dealt in and per place the description lists: the soloist's own
    column is his own hand); the rest of the auction (the monte's shares) as the detailed
    form asks it. A call says its contract where the description names one
    (``call_contract``): tapping the card is enough."""
    (full,) = _auction(table, part, "totals")
    by_name = {inp.name: inp for inp in full.inputs}
    for inp in full.inputs:
        if inp.name in ("auction.winner", "auction.bid", "called_from"):
            inp.kind = "chips"
            inp.choices = [c for c in inp.choices if c[0] != ""]
        if inp.name == "called" and len(inp.choices) > 9:
            # the cards a call names at the table: a 3 or a 2 (any other on the detailed form)
            inp.kind = "chips"
            inp.choices = [c for c in inp.choices if c[0][:1] in ("3", "2")]
    called, whence = by_name.get("called"), by_name.get("called_from")
    if called is not None and whence is not None:
        codes = [c for c, _text in called.choices if c and c[:1] in ("3", "2")]
        codes.sort(key=lambda c: (c[:1] != "3", GRID_SUITS.index(c[-1])))  # the 3s first
        rows = [(c, card_name(c)) for c in codes]
        cols = [
            (w, table.names.get(w, w) if w in table.state.seats else text)
            for w, text in whence.choices
            if w and w != OWN_HAND
        ]
        label = (
            _("Card called (chiamo) and who held it")
            if part.get("contracts")
            else _("Card asked for and who held it")
        )
        call = Input("call", label, "call", rows=rows, cols=cols)
        at = full.inputs.index(called)
        full.inputs = [
            *full.inputs[:at],
            call,
            *(i for i in full.inputs[at:] if i not in (called, whence)),
        ]
    return [full]


def _quick_call(table: Table, part: Part) -> list[Section]:
    (full,) = _call(table, part, "totals")
    for inp in full.inputs:
        if inp.name in ("caller", "partner"):
            inp.kind = "chips"
            inp.choices = [c for c in inp.choices if c[0] != ""]
    return [full]


#: The parts the quick form lays out its own way; the others as on the detailed form.
QUICK: dict[str, Callable[[Table, Part], list[Section]]] = {
    "piles": _quick_piles,
    "declarations": _quick_declarations,
    "auction": _quick_auction,
    "call": _quick_call,
}
RANK_PLURALS = {"3": _("3s"), "2": _("2s"), "A": _("aces")}


#: How each part of the engine's description is laid out (``TableShape.parts``).
PARTS: dict[str, Callable[[Table, Part, str], list[Section]]] = {
    "piles": _piles,
    "auction": _auction,
    "call": _call,
    "monte_discards": _monte_discards,
    "declarations": _declarations,
    "claim": _claim,
    "failed_callouts": _failed_callouts,
    "first_to_target": _first_to_target,
    "cappotto_after_win": _cappotto_after_win,
    "annulled": _annulled,
    "redraws": _redraws,
    "twos": _twos,
    "sets": _sets,
    "runs": _runs,
    "kings_played": _kings_played,
    "cards_left": _cards_left,
    "hands_dealt": _hands_dealt,
}


SUIT_LABELS_FR = {
    "d": _("diamonds"),
    "c": _("hearts"),
    "s": _("spades"),
    "b": _("clubs"),
}


# -- from the posted form to the engine's deal -------------------------------------------


def read(table: Table, level: str, data: Any) -> tuple[DealForm, dict[str, Any]]:
    """Fill the form from ``data`` (a QueryDict or a plain dict of lists) and build the
    deal JSON the engine will judge. A play record is the pasted JSON itself."""
    form = build(table, level)
    if level == "play":
        form.record = _first(data, "record")
        try:  # the API's checks: nesting, huge integers, control characters
            record = strict_json(form.record) if form.record.strip() else {}
        except Refusal as bad:
            form.errors.append(bad.text())
            return form, {}
        if not isinstance(record, dict):
            form.errors.append(str(_("A play record is a JSON object.")))
            return form, {}
        return form, record
    deal: dict[str, Any] = {}
    inputs = list(form.inputs())
    for inp in inputs:
        if inp.kind in ("cards", "chipset"):
            inp.value = [v for v in _all(data, inp.name) if v]
            value: Any = inp.value or None
        else:
            inp.value = _first(data, inp.name).strip()
            value = _typed(inp, inp.value)
            if inp.many and value is not None:
                value = [value]
        if inp.kind == "points":
            value = _thirds(inp.value, _first(data, f"{inp.name}~figures"))
        if inp.kind == "chipset":
            _declared(deal, inp.name, inp.value)
            continue
        if inp.kind == "call":
            _called(deal, inp.value)
            continue
        if inp.feeds or inp.kind == "shown":
            continue
        if value is not None and not inp.name.startswith("auction."):
            _put(deal, inp.name, value)
    _rest(table, form, deal)
    _bids(table, form, deal)
    if deal.get("annulled_by"):
        deal = {"annulled_by": deal["annulled_by"]}
    return form, deal


_POINTS = re.compile(r"(\d{1,3})(?:\s*(?:e|and|\+|,|\.|\s)\s*([0-2]))?")


def _thirds(typed: str, figures: str) -> Any:
    """Points as the table says them, in thirds: "6" and 2 figures tapped, or "6 e 2"
    typed, are 20. Anything else reaches the engine as typed (it says what is wrong)."""
    if typed == "":
        return None
    found = _POINTS.fullmatch(typed.strip().lower())
    if found is None:
        return typed
    extra = found.group(2) or (figures if figures in ("0", "1", "2") else "0")
    return 3 * int(found.group(1)) + int(extra)


def _called(deal: dict[str, Any], value: str) -> None:
    """A ``call`` cell (``3c@P2``) as the engine's card called and where it was."""
    card, sep, where = value.partition(CALL_SEP)
    if value:
        deal["called"] = card
    if sep:
        deal["called_from"] = where


def _declared(deal: dict[str, Any], name: str, chips: list[str]) -> None:
    """A player's declaration chips (``napoletana:c``, ``four:3``, ``three:3:d``) as the
    engine's declarations."""
    seat = name.rsplit(".", 1)[-1]
    for chip in chips:
        kind, _sep, rest = chip.partition(":")
        entry: dict[str, Any] = {"player": seat, "type": kind}
        if kind in ("napoletana", "decima"):
            entry["suit"] = rest
        else:
            rank, _sep, missing = rest.partition(":")
            entry["rank"] = rank
            if missing:
                entry["missing"] = missing
        deal.setdefault("declarations", []).append(entry)


def _first(data: Any, name: str) -> str:
    value = data.get(name, "")
    if isinstance(value, list):
        value = value[0] if value else ""
    return str(value or "")


def _all(data: Any, name: str) -> list[str]:
    getlist = getattr(data, "getlist", None)
    if getlist is not None:
        return [str(v) for v in getlist(name)]
    value = data.get(name, [])
    return [str(v) for v in (value if isinstance(value, list) else [value])]


def _typed(inp: Input, raw: str) -> Any:
    if raw == "":
        return None
    if inp.kind == "check":
        return raw in ("on", "true", "1")
    if inp.kind == "number":
        # Not a number stays text: the engine says what is wrong with it, in words.
        return int(raw) if re.fullmatch(r"-?\d{1,6}", raw) else raw
    return raw


_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _put(target: dict[str, Any], path: str, value: Any) -> None:
    """Set ``value`` at an engine path (``declarations[0].suit``) inside ``target``."""
    steps: list[str | int] = [int(index) if index else key for key, index in _STEP.findall(path)]
    node: Any = target
    for step, following in zip(steps, steps[1:], strict=False):
        empty: Any = [] if isinstance(following, int) else {}
        if isinstance(step, int):
            while len(node) <= step:
                node.append(None)
            if node[step] is None:
                node[step] = empty
            node = node[step]
        else:
            node = node.setdefault(step, empty)
    last = steps[-1]
    if isinstance(last, int):
        while len(node) <= last:
            node.append(None)
    node[last] = value


def _rest(table: Table, form: DealForm, deal: dict[str, Any]) -> None:
    """The one pile, score or trick count left blank is the rest: shown and entered."""
    shape = table.shape
    hands = deal.get("hands")
    if form.level == "cards" and shape.part("hands_dealt") and isinstance(hands, dict):
        held = {c for h in hands.values() if isinstance(h, list) for c in h}
        pack = PACKS[shape.pack or ""]
        deal["dead_hand"] = [c.code for c in pack.cards if c.code not in held]
    group, who = scorers(table)
    piles = deal.get(group)
    if shape.part("piles") is None or not isinstance(piles, dict):
        return
    by_name = {inp.name: inp for inp in form.inputs()}
    if form.level == "cards" and shape.pack is not None:
        for pile in piles.values():  # who took no trick took no card (two may be empty)
            if isinstance(pile, dict) and pile.get("tricks") == 0 and "cards" not in pile:
                pile["cards"] = []
        taken = {c for p in piles.values() if isinstance(p, dict) for c in p.get("cards", [])}
        piles_at = {f"{group}.{s}.cards" for s in who}
        extra = {  # the other cards tapped (the monte, the discards) are in no pile
            c
            for inp in form.inputs()
            if inp.kind == "cards" and inp.name not in piles_at
            for c in inp.value or ()
        }
        rest = [c for c in shape.counting if c not in taken | extra]
        blank = [s for s in who if not (isinstance(piles.get(s), dict) and piles[s].get("cards"))]
        if len(blank) == 1 and isinstance(piles.get(blank[0]), dict):
            if piles[blank[0]].get("tricks") == 0:
                rest = []  # a side that took no trick took no card
        _fill(by_name, piles, who, "cards", rest)
    elif shape.whole is not None:
        _fill_number(by_name, piles, who, shape.unit, shape.whole)
    if shape.tricks is not None:
        _fill_number(by_name, piles, who, "tricks", shape.tricks)


def _fill_number(
    by_name: Mapping[str, Input],
    piles: dict[str, Any],
    who: tuple[str, ...],
    key: str,
    whole: int,
) -> None:
    values = [piles.get(s, {}).get(key) if isinstance(piles.get(s), dict) else None for s in who]
    blank = [s for s, v in zip(who, values, strict=True) if v is None]
    known = [v for v in values if isinstance(v, int)]
    if len(blank) == 1 and len(known) == len(who) - 1 and whole - sum(known) >= 0:
        _fill(by_name, piles, who, key, whole - sum(known))


def _fill(
    by_name: Mapping[str, Input],
    piles: dict[str, Any],
    who: tuple[str, ...],
    key: str,
    value: Any,
) -> None:
    blank = [s for s in who if not (isinstance(piles.get(s), dict) and key in piles[s])]
    if len(blank) != 1 or value is None:
        return
    (scorer,) = blank
    piles.setdefault(scorer, {})[key] = value
    group = "sides" if f"sides.{scorer}.{key}" in by_name else "seats"
    inp = by_name.get(f"{group}.{scorer}.{key}")
    if inp is not None:
        inp.rest = value if key != "cards" else len(value)


def _bids(table: Table, form: DealForm, deal: dict[str, Any]) -> None:
    """The auction's result written as the engine's bids: the winner's contract, the others
    pass; where there is one contract, those before the winner pass and the winner stands."""
    auction = table.shape.part("auction")
    if auction is None:
        return
    inputs = {inp.name: inp for inp in form.inputs()}
    values = {name: inp.value for name, inp in inputs.items()}
    winner, bid = values.get("auction.winner", ""), values.get("auction.bid", "")
    players = table.dealt_in()
    if "call" in inputs and winner and deal.get("called_from") == winner:
        if OWN_HAND in auction.get("called_from", ()):  # the soloist's column: his own hand
            deal["called_from"] = OWN_HAND
    said_by_call = auction.get("call_contract")
    if not bid and said_by_call and winner in players and deal.get("called") is not None:
        bid = said_by_call  # a card called: the contract is the one that calls
        if "auction.bid" in inputs:
            inputs["auction.bid"].value = bid
    if auction.get("contracts"):
        if bid == "pass":
            deal["bids"] = [{"player": p, "bid": "pass"} for p in players]
        elif winner and bid:
            before = players[: players.index(winner)] if winner in players else ()
            after = players[players.index(winner) + 1 :] if winner in players else ()
            deal["bids"] = [
                *({"player": p, "bid": "pass"} for p in before),
                {"player": winner, "bid": bid},
                *({"player": p, "bid": "pass"} for p in after),
            ]
    elif winner == "pass":
        deal["bids"] = [{"player": p, "bid": "pass"} for p in players]
    elif winner in players:
        before = players[: players.index(winner)]
        deal["bids"] = [
            *({"player": p, "bid": "pass"} for p in before),
            {"player": winner, "bid": "stand"},
        ]


def place(form: DealForm, errors: Iterable[Mapping[str, Any]]) -> None:
    """Put each problem (``path``, ``message``: the engine's, or a refusal's ``errors()``)
    next to the input whose name is its path, else the nearest input, else its section,
    else at the top of the form."""
    inputs = list(form.inputs())
    names = [i.name for i in inputs]
    for error in errors:
        message = _with_names(str(error["message"]), error.get("params"), form.names)
        path = _local(str(error.get("path") or ""))
        target = _owner(inputs, names, path)
        if target is not None:
            said = _said_on_the_form(form, str(error.get("code") or ""), path, target)
            target.errors.append(said or _in_words(message, path, target))
            continue
        section = next(
            (s for s in form.sections if path and any(path.startswith(c) for c in s.claims)),
            None,
        )
        (section.errors if section is not None else form.errors).append(message)
        if section is not None:
            section.open = True


#: Engine problems whose words speak of the deal format ("'sides' is required", "give
#: how many each took ('monte_shares', e.g. {"P1": 3})"): on the form, what to fill in.
ON_THE_FORM = {
    "input.missing": _("Fill in «%(what)s»."),
    "terz.shares": _("With scegliete, write how many monte cards each opponent chose."),
    "terz.called_missing": _("With chiamo, say which card was called and who held it."),
}


def _with_names(message: str, params: Any, names: Mapping[str, str]) -> str:
    """The seats a problem names, with the players' names: the engine says "N ha accusato
    napoletana di denari e E ha accusato ...", where E reads as the word "e"."""
    seats = {
        value for value in (params or {}).values() if isinstance(value, str) and value in names
    }
    if not seats:
        return message
    pattern = r"(?<![\w(])(" + "|".join(re.escape(s) for s in sorted(seats)) + r")(?![\w)])"
    return re.sub(pattern, lambda m: f"{names[m.group(1)]} ({m.group(1)})", message)


def _said_on_the_form(form: DealForm, code: str, path: str, target: Input) -> str:
    words = ON_THE_FORM.get(code)
    if words is None:
        return ""
    what = target.label
    if target.name != path:  # a group ('sides'): the section that holds it
        what = next((s.title for s in form.sections if target in s.inputs), target.label)
    return str(words) % {"what": what} if "%(what)s" in str(words) else str(words)


def _in_words(message: str, path: str, target: Input) -> str:
    """The engine names a field by its JSON key ('thirds', 'tricks'); next to the field on
    a page the player reads its label instead, in their language."""
    if target.name != path:
        return message
    key = re.sub(r"\[\d+\]$", "", path.rsplit(".", 1)[-1])
    return message.replace(f"'{key}'", f"«{target.label}»")


def problems(rejection: Rejection, language: str | None) -> list[dict[str, Any]]:
    """The engine's problems as ``errors()`` entries in the user's language."""
    lang = "it" if (language or "en").startswith("it") else "en"
    return [p.as_dict(lang) for p in rejection.problems]


def _local(path: str) -> str:
    """Inside a match the engine prefixes ``deals[n].``: the form speaks of one deal."""
    return re.sub(r"^deals\[\d+\]\.?", "", path)


def _owner(inputs: list[Input], names: list[str], path: str) -> Input | None:
    if not path:
        return None
    if path in names:
        return inputs[names.index(path)]
    below = [i for i in inputs if i.name.startswith(path + ".") or i.name.startswith(path + "[")]
    if below:
        return below[0]
    above = [i for i in inputs if path.startswith(i.name + ".") or path.startswith(i.name + "[")]
    return max(above, key=lambda i: len(i.name)) if above else None


def errors_of(form: DealForm) -> dict[str, list[str]]:
    """Every input's problems by input id (the out-of-band slots the page refreshes)."""
    return {inp.id: inp.errors for inp in form.inputs()}


# -- a stored deal back into the form (corrections) ----------------------------------------


def flatten(data: Any, path: str = "") -> dict[str, Any]:
    """``{"sides": {"A": {"thirds": 14}}}`` as ``{"sides.A.thirds": 14}``; card lists stay
    whole (they fill one grid)."""
    if isinstance(data, dict):
        out: dict[str, Any] = {}
        for key, value in data.items():
            out.update(flatten(value, f"{path}.{key}" if path else str(key)))
        return out
    if isinstance(data, list) and data and all(isinstance(v, dict) for v in data):
        out = {}
        for i, value in enumerate(data):
            out.update(flatten(value, f"{path}[{i}]"))
        return out
    return {path: data}


def prefill(table: Table, level: str, deal: Mapping[str, Any]) -> dict[str, Any] | None:
    """The posted fields that would enter ``deal`` again, or None when this level's form
    cannot hold it (then the deal is shown as JSON)."""
    body = dict(deal)
    body.pop("dealer", None)
    body.pop("level", None)
    if level == "cards" and table.shape.part("hands_dealt"):
        body.pop("dead_hand", None)  # the form computes it: the cards nobody was dealt
    fields: dict[str, Any] = {}
    bids = body.pop("bids", None)
    if bids is not None:
        said = [b for b in bids if isinstance(b, dict) and b.get("bid") != "pass"]
        auction = table.shape.part("auction")
        if not said and auction is not None and not auction.get("contracts"):
            fields["auction.winner"] = "pass"
        elif not said:
            fields["auction.bid"] = "pass"
        else:
            fields["auction.winner"] = said[-1].get("player", "")
            auction = table.shape.part("auction")
            if auction is not None and auction.get("contracts"):
                fields["auction.bid"] = said[-1].get("bid", "")
    inputs = {inp.name: inp for inp in build(table, level).inputs()}
    for name, value in flatten(body).items():
        if name not in inputs:
            return None
        if inputs[name].many and isinstance(value, list) and len(value) == 1:
            value = value[0]
        if value is True:
            value = "on"
        fields[name] = value if isinstance(value, list) else str(value)
    return _leave_the_rest(table, level, fields)


def _leave_the_rest(table: Table, level: str, fields: dict[str, Any]) -> dict[str, Any]:
    """Blank the last pile's numbers and cards when they are the rest, so a correction of
    one side's score is not refused for the other side's old one."""
    group, who = scorers(table)
    _, whole = read(table, level, fields)
    for key in ("thirds", "points", "tricks", "cards"):
        name = f"{group}.{who[-1]}.{key}"
        if name in fields:
            fewer = {k: v for k, v in fields.items() if k != name}
            if read(table, level, fewer)[1] == whole:
                fields = fewer
    return fields
