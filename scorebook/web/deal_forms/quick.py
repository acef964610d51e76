"""The quick form: as the table counts, one tap where a choice will do. Its own layout of
the parts a table enters every deal (the piles, declarations, the auction, the call); the
other parts as the totals form lays them out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scorebook.rules.table import Part
from scorebook.web.deal_forms.detailed import PARTS, alone_choices, pile_extras
from scorebook.web.deal_forms.form import LOST, OWN_HAND, PICK, Input, Section, Table, scorers
from scorebook.web.deal_forms.words import GRID_SUITS, RANK_PLURALS, SUIT_LABELS, card_name

#: A contract as its chip says it where the grid of the card called is beside it.
BID_CHIPS = {"chiamo": _("chiamo")}
#: A place the called card may have been, as the grid's column says it (a fifth of a
#: 360 px phone): "monte", "tallone".
GRID_PLACES = {
    "monte": pgettext_lazy("the call grid's column", "monte"),
    "stock": pgettext_lazy("the call grid's column", "stock"),
}

FIGURES = [("0", "0"), ("1", "1"), ("2", "2")]


def _quick_piles(table: Table, part: Part) -> list[Section]:
    """Each scorer's card points but the last, whose are the rest (computed, shown); in
    thirds games as whole points and the figures left over ("6 e 2"), or, where the
    score reads whole points only (``whole_points``), the points alone and once how many
    points the figures lost in all (``LOST``: the rest holds as many fewer); then the
    tricks (``_quick_tricks``)."""
    shape = table.shape
    group, who = scorers(table)
    named = dict(table.scorer_choices())
    typed = who[:-1] if shape.whole is not None else who
    # the score reads whole points only: no figures per player, the points they lost in all
    lost = part.get("whole_points") if shape.unit == "thirds" and len(typed) < len(who) else None
    inputs: list[Input] = []
    for n, scorer in enumerate(typed):
        where = f"{group}.{scorer}"
        if shape.unit == "thirds":
            points = Input(
                f"{where}.thirds",
                _("%(who)s: points") % {"who": named[scorer]},
                "points",
                first=n == 0,
                high=shape.whole // 3 if shape.whole is not None else None,
            )
            inputs.append(points)
            if not lost:  # the figures left over on the points' row (``Input.tail``)
                points.tail = Input(
                    f"{where}.thirds~figures",
                    _("%(who)s: figures left over") % {"who": named[scorer]},
                    "chips",
                    FIGURES,
                    feeds=f"{where}.thirds",
                    tail_of=points.name,
                )
                inputs.append(points.tail)
        else:
            inputs.append(
                Input(
                    f"{where}.points",
                    _("%(who)s: points") % {"who": named[scorer]},
                    first=n == 0,
                    tens=tuple(part.get("tens", ())),
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
                unit="whole" if lost else shape.unit,
            )
        )
        if lost and len(lost) > 1:  # the commonest chosen
            inputs.append(
                Input(
                    f"{group}{LOST}",
                    _("Points lost to the figures left over"),
                    "chips",
                    [(str(k), str(k) if k else _("none")) for k in sorted(lost)],
                    value=str(lost[0]),
                    feeds=group,
                )
            )
    inputs += _quick_tricks(table, part)
    if part.get("counters_alone"):
        inputs.append(
            Input(
                "counters_alone",
                _("All the points alone (stramazzone)"),
                "chips",
                [("", _("nobody")), *table.seat_choices()],
                rare=True,
            )
        )
    inputs.append(Input("last_trick", _("Last trick"), "chips", table.scorer_choices()))
    inputs += pile_extras(table, part, "chips")
    return [Section(_("The deal"), inputs, claims=(group,))]


def _quick_tricks(table: Table, part: Part) -> list[Input]:
    """The trick counts only where the rules need them (the last derived where the pack
    fixes the total); else one choice: did a side take every trick?"""
    shape = table.shape
    group, who = scorers(table)
    named = dict(table.scorer_choices())
    if shape.trick_counts == "all_or_none":
        return [
            Input(
                "all_tricks",
                _("All the tricks (cappotto)"),
                "chips",
                [("", _("nobody")), *table.scorer_choices(), *alone_choices(table, part)],
            )
        ]
    if shape.trick_counts == "optional":  # nobody counts them
        return []
    counted = who[:-1] if shape.tricks is not None else who
    inputs = [
        Input(f"{group}.{s}.tricks", _("%(who)s: tricks") % {"who": named[s]}) for s in counted
    ]
    if len(counted) < len(who):
        last_label = _("%(who)s: tricks") % {"who": named[who[-1]]}
        inputs.append(Input(f"{group}.{who[-1]}.tricks", last_label, "shown", unit="tricks"))
    return inputs


def _quick_declarations(table: Table, part: Part) -> list[Section]:
    """Each player's usual declarations as chips, one tap each behind "+ accuso": the
    napoletana of a suit, four 3s, 2s or aces, three of them with the suit missing, and
    the decima of a suit where the game plays it (the collatondrione). The
    tournament code's declarations gone wrong are on the detailed form."""
    if part.get("anomalies"):
        return PARTS["declarations"](table, part, "totals")
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
    (``call_contract``): tapping the card is enough. How many cards were discarded, where
    no score reads it (``discards_score``), a revoke, a tick box and the monte's shares are
    rare (``Input.rare``): folded under the form's one "More"."""
    (full,) = PARTS["auction"](table, part, "totals")
    by_name = {inp.name: inp for inp in full.inputs}
    for inp in full.inputs:
        if inp.name in ("auction.winner", "auction.bid", "called_from"):
            inp.kind = "chips"
            inp.choices = [c for c in inp.choices if c[0] != ""]
    winner, bid = by_name.get("auction.winner"), by_name.get("auction.bid")
    if winner is not None and bid is not None:
        # "all passed" where the winner is (nobody won it), as where there is one contract:
        # the contracts' row holds the contracts bid, short (a card called says chiamo)
        winner.choices += [c for c in bid.choices if c[0] == "pass"]
        bid.choices = [(c, BID_CHIPS.get(c, text)) for c, text in bid.choices if c != "pass"]
        rare = part.get("rare_contracts", ())
        bid.more = tuple(c for c, _text in bid.choices if c in rare)
        if inp.name == "called" and len(inp.choices) > 9:
            # the cards a call names at the table: a 3 or a 2 (any other on the detailed form)
            inp.kind = "chips"
            inp.choices = [c for c in inp.choices if c[0][:1] in ("3", "2")]
    counts = part.get("discards")
    if "discards" in by_name and isinstance(counts, tuple):  # how many: one tap
        by_name["discards"].kind, by_name["discards"].numbers = "chips", True
        by_name["discards"].choices = [(str(n), str(n)) for n in counts]
    if "discards" in by_name and part.get("discards_score") is False:  # none asked: folded
        by_name["discards"].rare = True
    if "revoke" in by_name:  # an irregularity, not an ordinary deal's: folded
        _as_chips(by_name["revoke"], nobody=True).rare = True
    for inp in full.inputs:  # a tick box, the monte's shares (scegliete): not every deal's
        if inp.kind == "check" or inp.name.startswith("monte_shares."):
            inp.rare = True
    called, whence = by_name.get("called"), by_name.get("called_from")
    if called is not None and whence is not None:
        codes = [c for c, _text in called.choices if c and c[:1] in ("3", "2")]
        codes.sort(key=lambda c: (c[:1] != "3", GRID_SUITS.index(c[-1])))  # the 3s first
        rows = [(c, card_name(c)) for c in codes]
        cols = [
            (w, table.names.get(w, w) if w in table.state.seats else GRID_PLACES.get(w, text))
            for w, text in whence.choices
            if w and w != OWN_HAND
        ]
        label = (
            _("Card called and who held it")
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
    """Who calls, the suit (or card) called and the partner, a tap each; where only the
    first hand may call (``caller: eldest``) he is named, not asked."""
    (full,) = PARTS["call"](table, part, "totals")
    for inp in full.inputs:
        if inp.name in ("caller", "partner") or (inp.name == "called" and len(inp.choices) < 9):
            _as_chips(inp)
    if part.get("caller") == "eldest":
        caller = next(i for i in full.inputs if i.name == "caller")
        eldest = table.dealt_in()[0]
        caller.kind, caller.choices = "shown", []
        caller.rest = _("%(who)s (first hand)") % {"who": table.seat_label(eldest)}
    return [full]


def _as_chips(inp: Input, nobody: bool = False) -> Input:
    """A select as chips, one tap each; an optional one keeps its blank as "nobody"
    (chosen until another chip is)."""
    inp.kind = "chips"
    rest = [c for c in inp.choices if c[0] != ""]
    inp.choices = [("", _("nobody")), *rest] if nobody else rest
    return inp


def _quick_runs(table: Table, part: Part) -> list[Section]:
    """Spinado's events as chips: who went out (``required``), who took the Matrimony and
    the Intrigue pots ("nobody" chosen), and the events of which one happens
    (``one_of``: where the Spinado ended) in one row, one tap."""
    (full,) = PARTS["runs"](table, part, "totals")
    required, one_of = part.get("required", ()), part.get("one_of", ())
    inputs = [
        _as_chips(inp, nobody=inp.name not in required)
        for inp in full.inputs
        if inp.name not in one_of
    ]
    where: list[tuple[str, Any]] = [("", _("nobody"))]
    rows: list[tuple[str, Any]] = []
    cols: dict[str, Any] = {}
    for inp in (i for i in full.inputs if i.name in one_of):
        if inp.kind == "check":
            where.append((f"{inp.name}{PICK}on", inp.label))
        else:
            seats = [c for c, _text in inp.choices if c]  # by name alone: a short chip
            where += [(f"{inp.name}{PICK}{s}", f"{inp.label} {table.names.get(s) or s}")
                      for s in seats]  # fmt: skip
            rows.append((inp.name, inp.label))
            cols.update((s, table.names.get(s) or s) for s in seats)
    if one_of:  # on the page: a grid, a row per event with a player, a column per player
        inputs.append(Input("runs~where", _("The Spinado"), "pick", where, rows=rows,
                            cols=list(cols.items())))  # fmt: skip
    full.inputs = inputs
    return [full]


def _quick_kings(table: Table, part: Part) -> list[Section]:
    """Who played each king, chips with "nobody" chosen; folded where no king is paid."""
    (full,) = PARTS["kings_played"](table, part, "totals")
    for inp in full.inputs:
        _as_chips(inp, nobody=True)
    full.open = part.get("scores", True)
    return [full]


def _quick_cards_left(table: Table, part: Part) -> list[Section]:
    """The counts of cards left that a payment reads: every player's but the one who went
    out (he holds none: ``zero``), the Spinado holder's alone (one field), or none."""
    needed = part.get("needed", "all")
    if needed == "none":
        return []
    if needed == "held":
        label = _("Cards left in the hand of whoever held the Spinado")
        return [Section(_("Cards left"), [Input("cards_left~held", label, feeds="cards_left")])]
    (full,) = PARTS["cards_left"](table, part, "totals")
    if part.get("zero"):
        full.note = _("Who went out holds none: leave theirs blank.")
    return [full]


def _seat_chipsets(
    table: Table, title: Any, label: Any, prefix: str, chips: list[tuple[str, Any]], claims: str
) -> list[Section]:
    """A "+" fold per player with ``chips`` to tap, the engine's ``claims`` list."""
    inputs = [
        Input(f"{prefix}.{seat}", label % {"who": table.seat_label(seat)}, "chipset", chips)
        for seat in table.state.seats
    ]
    return [Section(title, inputs, claims=(claims,), open=True)]


def _quick_twos(table: Table, part: Part) -> list[Section]:
    """Trappola's tricks won with a 2, one chip each: the trick's number, per player."""
    tricks = table.shape.tricks or 9
    chips = [(f"two:{n}", _("trick %(n)d") % {"n": n}) for n in range(1, tricks + 1)]
    label = _("+ trick won with a 2: %(who)s")
    return _seat_chipsets(table, _("Trick won with a 2"), label, "twos", chips, "twos")


def _quick_sets(table: Table, part: Part) -> list[Section]:
    """Trappola's declarations, one chip each: three or four of a rank, per player."""
    chips = [
        (f"set:{rank}:{n}", _("%(n)d × %(rank)s") % {"n": n, "rank": rank})
        for rank in part.get("ranks", ())
        for n in (3, 4)
    ]
    label = _("+ accuso: %(who)s")
    return _seat_chipsets(table, _("Declarations"), label, "sets", chips, "declarations")


#: The parts the quick form lays out its own way; the others as on the detailed form.
QUICK: dict[str, Callable[[Table, Part], list[Section]]] = {
    "piles": _quick_piles,
    "declarations": _quick_declarations,
    "auction": _quick_auction,
    "call": _quick_call,
    "runs": _quick_runs,
    "kings_played": _quick_kings,
    "cards_left": _quick_cards_left,
    "twos": _quick_twos,
    "sets": _quick_sets,
}
