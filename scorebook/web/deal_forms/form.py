"""The deal form as the pages hold it: its inputs (each named by the engine path it
fills), their sections, the whole form, and the table it is for (seats with names, the
state, the house rules and the engine's description of the table)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.utils.translation import gettext_lazy as _

from scorebook.rules import MatchState, get_game
from scorebook.rules.table import TableShape
from scorebook.web.deal_forms.words import PACKS, SUIT_LABELS
from scorebook.web.seats import seat_letter
from scorebook.web.switches import SIDE_LABELS

#: The quick form (the table's way of counting, chips to tap) comes first; the detailed
#: levels of the deal format follow.
LEVELS = ("quick", "totals", "cards", "play")
#: Where the called card was, when the soloist himself held it (the quick form's call names
#: him in its column instead).
OWN_HAND = "own_hand"
#: Between the card and the place in a ``call`` input's value (``3c@P2``).
CALL_SEP = "@"
#: Between the engine path and its value in a ``pick`` chip (``spinado_held_by=P2``).
PICK = "="
#: After the scorers' group, the quick form's chips of the points the figures left over
#: lost in all (``seats~lost``), where the score reads whole points only.
LOST = "~lost"
#: After a ``call`` input's name, the switch of the rank its grid shows (``call~rank``):
#: the page's own, never read into the deal.
RANK_SWITCH = "~rank"


@dataclass
class Input:
    """One field of the form. ``name`` is the engine path it fills."""

    name: str
    label: Any
    #: number | choice | check | cards | text; on the quick form also points (whole
    #: points, the figures from a ``chips`` input that ``feeds`` it), chips (one tap:
    #: radio buttons), chipset (tap several), pick (chips whose value names the engine
    #: path they fill and its value, ``path=value``) and shown (computed or forced, never
    #: typed)
    kind: str = "number"
    choices: list[tuple[str, Any]] = field(default_factory=list)
    value: Any = ""
    rest: Any = None  # what the server computed for a blank field
    errors: list[str] = field(default_factory=list)
    high: int | None = None
    many: bool = False  # a choice the engine reads as a list of one
    numbers: bool = False  # chips whose values the engine reads as numbers (how many)
    group: Any = ""  # inputs of one group (a declaration) share a fieldset and short labels
    pack: str = "italian"  # the deck a ``cards`` input shows (PACKS)
    feeds: str = ""  # the input this one adds to (figures to points) instead of a path
    unit: str = ""  # what a ``shown`` rest counts (thirds are shown as points and figures)
    first: bool = False  # the field the cursor starts in
    #: a typed number's tens as chips (``Part("piles", {"tens": ...})``): a tap writes
    #: the tens digit and puts the cursor after it for the unit; typing it whole works too
    tens: tuple[int, ...] = ()
    #: a ``call`` input (quick form): the cards that may be called (rows) and where each
    #: may have been (columns: a player, the monte...); one tap names both
    rows: list[tuple[str, Any]] = field(default_factory=list)
    cols: list[tuple[str, Any]] = field(default_factory=list)
    #: the quick form: a choice an ordinary deal leaves as it is (a revoke, the
    #: stramazzone, a tick box), folded with the others under one "More" at the foot
    rare: bool = False
    #: the quick form: the chips that finish this field on its own row (the figures left
    #: over beside the points); ``tail_of`` names the field such chips sit beside
    tail: Input | None = None
    tail_of: str = ""
    #: the quick form: the values of a ``chips`` input a table chooses a few times a
    #: season (``Part("auction", {"rare_contracts": ...})``), on a row of their own shown
    #: by one tap on the row's last chip ("more…"), or by itself when one of them is chosen
    more: tuple[str, ...] = ()

    @property
    def rest_text(self) -> str:
        """The computed rest in the table's words: "4 e 0" for 12 thirds."""
        if self.rest is None:
            return ""
        if self.unit == "whole" and isinstance(self.rest, int):  # thirds, as whole points
            return str(self.rest // 3)
        if self.unit == "thirds" and isinstance(self.rest, int):
            return str(
                _("%(points)d and %(figures)d")
                % {"points": self.rest // 3, "figures": self.rest % 3}
            )
        return str(self.rest)

    @property
    def short(self) -> bool:
        """Chips whose words are a figure or two each (how many cards): a title beside them."""
        return bool(self.choices) and all(len(str(text)) <= 2 for _v, text in self.choices)

    @property
    def usual(self) -> list[tuple[str, Any]]:
        """The chips on the row itself: every choice but those ``more`` keeps aside."""
        return [c for c in self.choices if c[0] not in self.more]

    @property
    def unusual(self) -> list[tuple[str, Any]]:
        """The chips ``more`` keeps aside, in the description's order."""
        return [c for c in self.choices if c[0] in self.more]

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
                        "place": place,
                        "on": self.value == f"{code}{CALL_SEP}{where}",
                    }
                    for where, place in self.cols
                ],
            }
            for code, text in self.rows
        ]

    def ranked(self) -> list[dict[str, Any]]:
        """A ``call`` input's rows by the rank of their card, the rank first listed first
        (the 3s: the card a call names almost always); the page shows one rank at a time,
        a row per suit, and a switch for the others (``RANK_SWITCH``)."""
        rows = self.matrix()
        groups: dict[str, dict[str, Any]] = {}
        for (code, _text), row in zip(self.rows, rows, strict=True):
            group = groups.setdefault(code[:-1], {"rank": code[:-1], "rows": [], "on": False})
            group["rows"].append({**row, "suit": SUIT_LABELS.get(code[-1], code[-1])})
            group["on"] = group["on"] or any(cell["on"] for cell in row["cells"])
        found = list(groups.values())
        if found and not any(group["on"] for group in found):
            found[0]["on"] = True  # nothing chosen yet: the first rank shown
        return found

    def picks(self) -> dict[str, Any]:
        """A ``pick`` input with ``rows`` as the page lays it out: the chips of no player
        (``loose``: nobody, the dead hand) and a grid, a row per event with a player and
        a cell per player (each the very chip of ``choices``)."""
        names = dict(self.choices)
        gridded = {f"{r}{PICK}{c}" for r, _t in self.rows for c, _n in self.cols}
        return {
            "loose": [(v, t) for v, t in self.choices if v not in gridded],
            "grid": [
                {
                    "label": text,
                    "cells": [
                        {"value": f"{row}{PICK}{col}", "name": names[f"{row}{PICK}{col}"],
                         "on": self.value == f"{row}{PICK}{col}"}
                        for col, _n in self.cols
                        if f"{row}{PICK}{col}" in names
                    ],
                }
                for row, text in self.rows
            ],
        }  # fmt: skip

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
    #: side -> its words on the form ("the soloist", "A (Nino, Salvo)"), for the notes
    sides: Mapping[str, str] = field(default_factory=dict)
    #: what the live check finds not filled in yet or wrong with the deal as a whole:
    #: said beside the save button only (``check.IN_PLACE_LIVE``)
    pending: list[str] = field(default_factory=list)

    @property
    def notes(self) -> list[str]:
        """Every problem once, in the form's order: repeated beside the save button, as the
        notes in their sections may be a long scroll above it."""
        found = [*self.errors]
        for section in self.sections:
            found += section.errors
            for inp in section.inputs:
                found += inp.errors
        found += self.pending
        return list(dict.fromkeys(str(note) for note in found))

    @property
    def only_pending(self) -> bool:
        """The live check's notes are all beside the save button, none in red by a field."""
        placed = self.errors or any(
            section.errors or any(inp.errors for inp in section.inputs) for section in self.sections
        )
        return bool(self.pending) and not placed

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
        """'O · Walter': the seat's letter in the reader's language (issue 32 item 5: the
        form's "Mazziere" wrote W in Italian), then the player."""
        name = self.names.get(seat)
        return f"{seat_letter(seat)} · {name}" if name else seat_letter(seat)

    def seat_choices(self, seats: Iterable[str] | None = None) -> list[tuple[str, Any]]:
        return [(s, self.seat_label(s)) for s in (seats or self.state.seats)]

    def scorer_choices(self) -> list[tuple[str, Any]]:
        """Each scorer with its words: a side with its players, or a seat with its own."""
        group, who = scorers(self)
        return [(s, self.side_label(s) if group == "sides" else self.seat_label(s)) for s in who]

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
