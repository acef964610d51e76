"""The form of one deal at one level: the sections the engine's description of the table
lists, laid out by the quick form or the totals and card forms."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from scorebook.web.deal_forms.detailed import PARTS
from scorebook.web.deal_forms.form import DealForm, Section, Table, scorers
from scorebook.web.deal_forms.quick import QUICK


def build(table: Table, level: str) -> DealForm:
    """The empty form of the next deal of ``table`` at ``level``."""
    form = _build(table, level)
    form.names = {seat: name for seat, name in table.names.items() if name}
    group, who = scorers(table)
    if group == "sides":
        form.sides = {side: str(table.side_label(side)) for side in who}
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
        return DealForm(game=table.game, level=level, sections=_fold_the_rare(sections))
    for part in table.shape.entry(level):
        sections.extend(PARTS[part.kind](table, part, level))
    return DealForm(game=table.game, level=level, sections=sections)


def _fold_the_rare(sections: list[Section]) -> list[Section]:
    """The quick form: the choices an ordinary deal leaves as they are (``Input.rare``)
    out of the way of the ones it taps, folded together under one "More" at the foot, so
    that an ordinary deal's fields, its score and the save button share one screen."""
    rare = [inp for section in sections for inp in section.inputs if inp.rare]
    if not rare:
        return sections
    for section in sections:
        section.inputs = [inp for inp in section.inputs if not inp.rare]
    kept = [section for section in sections if section.inputs]
    return [*kept, Section(_("More: rare cases"), rare, open=False)]
