"""Reading the request: the posted form, read once, as the engine's deal JSON and the
values it was read from (``Entry``), so that a refused save or a conflict renders the
form from what was read. The only arithmetic is "the rest" (the one score or pile left
blank is what the deck holds minus the others), from the engine's deck and trick counts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _

from scorebook.core.inputs import loads as strict_json
from scorebook.core.refusals import Refusal
from scorebook.web.deal_forms.form import (
    CALL_SEP,
    LOST,
    OWN_HAND,
    PICK,
    DealForm,
    Input,
    Table,
    scorers,
)
from scorebook.web.deal_forms.layout import build
from scorebook.web.deal_forms.words import PACKS


@dataclass
class Entry:
    """A posted form as read: each input's value as posted (and as completed: a contract
    a called card implies), the rests the server computed for the blanks, the deal JSON
    for the engine, the problems reading found, and those found after it (the engine's,
    a service's refusal: ``path``, ``message``), placed next to their inputs when the
    form is rendered (``render.render``)."""

    level: str
    deal: dict[str, Any]
    values: dict[str, Any] = field(default_factory=dict)
    rests: dict[str, Any] = field(default_factory=dict)
    record: str = ""
    errors: list[str] = field(default_factory=list)
    problems: list[Mapping[str, Any]] = field(default_factory=list)

    def fields(self) -> list[tuple[str, str]]:
        """The form's fields as they were posted (for a form that posts them again)."""
        if self.level == "play":
            return [("level", self.level), ("record", self.record)]
        out = [("level", self.level)]
        for name, value in self.values.items():
            out += [(name, str(v)) for v in (value if isinstance(value, list) else [value]) if v]
        return out


def take(table: Table, level: str, data: Any) -> Entry:
    """Read ``data`` once (see ``read``) into an ``Entry``."""
    form, deal = read(table, level, data)
    inputs = list(form.inputs())
    return Entry(
        level=level,
        deal=deal,
        values={inp.name: inp.value for inp in inputs},
        rests={inp.name: inp.rest for inp in inputs if inp.rest is not None},
        record=form.record,
        errors=list(form.errors),
    )


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
            for target, entry in chip_entries(inp.name, inp.value):
                deal.setdefault(target, []).append(entry)
            continue
        if inp.kind == "call":
            _called(deal, inp.value)
            continue
        if inp.kind == "pick":
            path, sep, picked = inp.value.partition(PICK)
            if sep:
                _put(deal, path, True if picked == "on" else picked)
            continue
        if inp.feeds or inp.kind == "shown":
            continue
        if value is not None and not inp.name.startswith("auction."):
            _put(deal, inp.name, value)
    _lost(table, form, deal)
    _forced(table, form, deal, data)
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


#: The engine paths a ``call`` input fills: the card called and where it was.
CALL_FILLS = ("called", "called_from")


def _called(deal: dict[str, Any], value: str) -> None:
    """A ``call`` cell (``3c@P2``) as the engine's card called and where it was."""
    card, sep, where = value.partition(CALL_SEP)
    if value:
        deal[CALL_FILLS[0]] = card
    if sep:
        deal[CALL_FILLS[1]] = where


def chip_entries(name: str, chips: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """A player's chips (``accusi.N``: ``napoletana:c``, ``four:3``, ``three:3:d``;
    ``sets.P1``: ``set:A:3``; ``twos.P1``: ``two:9``) as the engine's entries, each with
    the list it goes in (``declarations``, ``twos``)."""
    seat = name.rsplit(".", 1)[-1]
    out: list[tuple[str, dict[str, Any]]] = []
    for chip in chips:
        kind, _sep, rest = chip.partition(":")
        entry: dict[str, Any] = {"player": seat}
        if kind == "two":
            entry["trick"] = int(rest) if rest.isdigit() else rest
            out.append(("twos", entry))
            continue
        if kind == "set":
            rank, _sep, count = rest.partition(":")
            entry.update(rank=rank, count=int(count) if count.isdigit() else count)
            out.append(("declarations", entry))
            continue
        entry["type"] = kind
        if kind in ("napoletana", "decima"):
            entry["suit"] = rest
        else:
            rank, _sep, missing = rest.partition(":")
            entry["rank"] = rank
            if missing:
                entry["missing"] = missing
        out.append(("declarations", entry))
    return out


def chip_of(target: str, entry: Mapping[str, Any]) -> str | None:
    """The chip that enters ``entry`` of ``target`` (the inverse of ``chip_entries``), or
    None when no chip says it (a decima gone wrong: the detailed form's)."""
    keys = set(entry) - {"player"}
    if target == "twos":
        return f"two:{entry.get('trick')}" if keys == {"trick"} else None
    if keys == {"rank", "count"}:
        return f"set:{entry.get('rank')}:{entry.get('count')}"
    kind = entry.get("type")
    if keys - {"type", "suit", "rank", "missing"}:
        return None
    if kind in ("napoletana", "decima"):
        return f"{kind}:{entry.get('suit')}"
    if kind == "four":
        return f"four:{entry.get('rank')}"
    if kind == "three":
        return f"three:{entry.get('rank')}:{entry.get('missing')}"
    return None


def _forced(table: Table, form: DealForm, deal: dict[str, Any], data: Any) -> None:
    """What the rules force, as the engine's description says (``TableShape.sweep``, a
    ``cards_left`` part's ``zero``), written where the form left it blank: a cappotto's
    piles and last trick, the zero cards of who went out, the Spinado holder's count."""
    shape = table.shape
    group, who = scorers(table)
    everyone = deal.get("all_tricks")
    if shape.sweep and isinstance(everyone, str) and shape.whole is not None:
        taker = everyone if everyone in who else shape.side_of(everyone)
        piles = deal.setdefault(group, {})
        if taker in who and isinstance(piles, dict):
            by_name = {inp.name: inp for inp in form.inputs()}
            for scorer in who:
                pile = piles.setdefault(scorer, {})
                if isinstance(pile, dict) and shape.unit not in pile:
                    pile[shape.unit] = shape.whole if scorer == taker else 0
                    inp = by_name.get(f"{group}.{scorer}.{shape.unit}")
                    if inp is not None:
                        inp.rest = pile[shape.unit]
            deal.setdefault("last_trick", taker)
    left = shape.part("cards_left")
    if left is None:
        return
    zero = deal.get(str(left.get("zero", "")))
    counts = deal.get("cards_left")
    if isinstance(zero, str) and isinstance(counts, dict) and zero not in counts:
        counts[zero] = 0
    held = _first(data, "cards_left~held").strip()
    holder = deal.get("spinado_held_by")
    if held and isinstance(holder, str):
        value = int(held) if re.fullmatch(r"\d{1,6}", held) else held
        deal.setdefault("cards_left", {})[holder] = value


def _lost(table: Table, form: DealForm, deal: dict[str, Any]) -> None:
    """The points the figures left over lost in all (``LOST``, where the score reads whole
    points only: ``whole_points``) as figures of the typed piles, two each at most, three
    for each point lost: the rest, the whole less the others, then holds as many whole
    points fewer. Nothing where a pile is not a whole number of thirds yet."""
    group, who = scorers(table)
    chips = next((i for i in form.inputs() if i.name == f"{group}{LOST}"), None)
    if chips is None or not str(chips.value).isdigit():
        return
    piles = deal.get(group)
    need = 3 * int(chips.value)
    if not need or not isinstance(piles, dict):
        return
    typed = [piles.get(s) for s in who[:-1]]
    if not all(isinstance(p, dict) and type(p.get("thirds")) is int for p in typed):
        return
    for pile in (p for p in typed if isinstance(p, dict)):
        add = min(2 - pile["thirds"] % 3, need)
        pile["thirds"] += add
        need -= add


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
    if inp.kind == "number" or inp.numbers:
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
        _fill(by_name, piles, who, shape.unit, _number_rest(piles, who, shape.unit, shape.whole))
    if shape.tricks is not None:
        _fill(by_name, piles, who, "tricks", _number_rest(piles, who, "tricks", shape.tricks))


def _number_rest(piles: dict[str, Any], who: tuple[str, ...], key: str, whole: int) -> Any:
    """What the one scorer whose ``key`` is blank has: the whole minus the others'."""
    values = [piles.get(s, {}).get(key) if isinstance(piles.get(s), dict) else None for s in who]
    known = [v for v in values if isinstance(v, int)]
    if values.count(None) == 1 and len(known) == len(who) - 1 and whole - sum(known) >= 0:
        return whole - sum(known)
    return None


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
        if bid == "pass" or winner == "pass":  # the quick form says it where the winner is
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
