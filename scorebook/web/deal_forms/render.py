"""Rendering: a form from what was read (values, rests, problems placed), and a stored
deal back into the form's fields (a correction starts from the stored deal)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorebook.web.deal_forms.check import place
from scorebook.web.deal_forms.form import DealForm, Table, scorers
from scorebook.web.deal_forms.layout import build
from scorebook.web.deal_forms.reading import Entry, read


def render(table: Table, entry: Entry) -> DealForm:
    """The form of ``entry``'s level for ``table`` (its labels with the players' names),
    holding what was read and each problem next to its input."""
    form = build(table, entry.level)
    form.record = entry.record
    form.errors = list(entry.errors)
    for inp in form.inputs():
        if inp.name in entry.values:
            inp.value = entry.values[inp.name]
        inp.rest = entry.rests.get(inp.name)
    place(form, entry.problems)
    return form


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
    inputs = {inp.name: inp for inp in build(table, level).inputs()}
    if bids is not None:
        said = [b for b in bids if isinstance(b, dict) and b.get("bid") != "pass"]
        winner = inputs.get("auction.winner")
        if not said and winner is not None and "pass" in dict(winner.choices):
            fields["auction.winner"] = "pass"  # "all passed" said where the winner is
        elif not said:
            fields["auction.bid"] = "pass"
        else:
            fields["auction.winner"] = said[-1].get("player", "")
            auction = table.shape.part("auction")
            if auction is not None and auction.get("contracts"):
                fields["auction.bid"] = said[-1].get("bid", "")
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
