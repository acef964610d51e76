"""The totals and card forms: one layout per kind of part in the engine's description
(``TableShape.parts``), each a list of sections of inputs named by engine paths."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from scorebook.rules.cards import SUITS
from scorebook.rules.table import Part
from scorebook.web.deal_forms.form import Input, Section, Table, scorers
from scorebook.web.deal_forms.words import (
    CALLED_FROM,
    DECLARATION_FIXES,
    DECLARATION_FORMS,
    DECLARATION_WHEN,
    GRID_SUITS,
    REVOKES,
    SUIT_LABELS,
    SUIT_LABELS_FR,
    card_name,
    rank_short,
)
from scorebook.web.switches import BID_LABELS, DECLARATION_TYPES


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
    last = table.scorer_choices()
    inputs.append(Input("last_trick", _("Last trick"), "choice", [("", "—"), *last]))
    if shape.trick_counts == "all_or_none" and not grid:  # the counts may be left out
        inputs.append(
            Input(
                "all_tricks",
                _("All the tricks (cappotto)"),
                "choice",
                [("", "—"), *last, *alone_choices(table, part)],
            )
        )
    if part.get("counters_alone"):
        inputs.append(
            Input(
                "counters_alone",
                _("All the points alone (stramazzone)"),
                "choice",
                [("", "—"), *table.seat_choices()],
            )
        )
    inputs += pile_extras(table, part, "choice")
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


def pile_extras(table: Table, part: Part, kind: str) -> list[Input]:
    """The piles' other choices the description lists (the first round's last trick, the
    4 taken out, the dummy's partner): selects with a blank (``choice``) or chips."""
    blank = [("", "—")] if kind == "choice" else []
    extras: list[Input] = []
    if part.get("round_one_last_trick"):
        extras.append(
            Input(
                "last_trick_round1",
                _("Last trick of the first round"),
                kind,
                [*blank, *table.scorer_choices()],
            )
        )
    if part.get("removed_four"):
        fours = [(f"4{s}", card_name(f"4{s}")) for s in SUITS]
        extras.append(
            Input(
                "removed",
                _("The 4 taken out"),
                kind,
                [*blank, *fours],
                many=part.get("removed_four") == "many",
            )
        )
    if part.get("dummy_partner"):
        extras.append(
            Input("dummy_partner", _("The dummy's partner"), kind, [*blank, *table.seat_choices()])
        )
    return extras


def alone_choices(table: Table, part: Part) -> list[tuple[str, Any]]:
    """Where one player may take every trick alone (``all_tricks_alone``), each seat."""
    if not part.get("all_tricks_alone"):
        return []
    return [
        (seat, _("%(who)s alone") % {"who": table.seat_label(seat)}) for seat in table.state.seats
    ]


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
