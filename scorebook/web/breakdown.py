"""A scored deal in words: each scorer's points and the lines that make them up."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from scorebook.web.deal_forms import Table, card_name

KINDS = {
    "cards": _("cards"),
    "last_trick": _("last trick"),
    "declaration": _("declaration"),
    "event": _("special event"),
    "penalty": _("penalty"),
    "bid": _("contract"),
    "chips": _("chips"),
    "pot": _("pot"),
    "payment": _("payment"),
    "ante": _("ante"),
    "claim": _("claim"),
    "adjustment": _("adjustment"),
    "two": _("trick won with a 2"),
    "final_twos": _("final 2s"),
    "leftover": _("leftover thirds"),
}


def _detail(line: Mapping[str, Any]) -> str:
    """The one fact a player wants beside a line (thirds, the declaration...)."""
    if line.get("kind") == "cards" and "thirds" in line:
        return str(_("%(thirds)s thirds") % {"thirds": line["thirds"]})
    if line.get("kind") == "declaration":
        what = line.get("type") or ""
        suit = line.get("suit")
        return f"{what} {card_name('3' + suit).split(' ', 1)[1] if suit else ''}".strip()
    if line.get("kind") == "event":
        return ", ".join(k for k in line if k not in ("kind", "points"))
    return ""


def describe(result: Mapping[str, Any] | None, table: Table) -> list[dict[str, Any]]:
    """One row per scorer: who, the points of the deal, and its lines in words."""
    if not result:
        return []
    rows = []
    breakdown = result.get("breakdown") or {}
    units = result.get("units") or {}
    for scorer, points in (result.get("points") or {}).items():
        label = table.label(scorer)
        rows.append(
            {
                "scorer": scorer,
                "label": label,
                "points": points,
                "units": units.get(scorer),
                "lines": [
                    {
                        "kind": KINDS.get(line.get("kind", ""), line.get("kind", "")),
                        "points": line.get("points", 0),
                        "detail": _detail(line),
                    }
                    for line in breakdown.get(scorer, [])
                ],
            }
        )
    return rows
