"""Deal entry at the table: what each game asks, and the one translation from the posted
form to the engine's deal JSON.

Every input is named by the engine path it fills (``sides.A.thirds``,
``declarations[0].suit``), so each problem the engine reports lands next to the input of
the same name. Nothing here judges a deal: the engine does, on the server. By job:

* ``form``: the form's inputs, sections and the table it is for;
* ``words``: suits, ranks, cards and packs in the user's language;
* ``detailed``: the totals and card forms, one layout per kind of part of the engine's
  description of the table (``PARTS``); ``quick``: the quick form's own layouts;
  ``layout``: the form of a level from those;
* ``reading``: the posted form read once (``take``: an ``Entry``; ``read``);
* ``check``: the engine's problems placed next to their inputs;
* ``render``: a form from what was read, and a stored deal back into fields.
"""

from __future__ import annotations

from scorebook.web.deal_forms.check import place, problems
from scorebook.web.deal_forms.form import (
    CALL_SEP,
    LEVELS,
    LOST,
    OWN_HAND,
    PICK,
    RANK_SWITCH,
    DealForm,
    Input,
    Section,
    Table,
    scorers,
)
from scorebook.web.deal_forms.layout import build
from scorebook.web.deal_forms.reading import Entry, chip_entries, chip_of, read, take
from scorebook.web.deal_forms.render import flatten, prefill, render
from scorebook.web.deal_forms.words import card_name, suit_name

__all__ = [
    "CALL_SEP",
    "LEVELS",
    "LOST",
    "OWN_HAND",
    "PICK",
    "RANK_SWITCH",
    "DealForm",
    "Entry",
    "Input",
    "Section",
    "Table",
    "build",
    "card_name",
    "chip_entries",
    "chip_of",
    "flatten",
    "place",
    "prefill",
    "problems",
    "read",
    "render",
    "scorers",
    "suit_name",
    "take",
]
