"""The form of one deal at one level: the sections the engine's description of the table
lists, laid out by the quick form or the totals and card forms."""

from __future__ import annotations

from scorebook.web.deal_forms.detailed import PARTS
from scorebook.web.deal_forms.form import DealForm, Section, Table
from scorebook.web.deal_forms.quick import QUICK


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
