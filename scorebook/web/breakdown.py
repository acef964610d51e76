"""A scored deal in words: each scorer's points and the lines that make them up."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from scorebook.rules import get_game
from scorebook.web.deal_forms import Table, suit_name

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


#: How a declaration went wrong, and what the tournament code made of it
#: (t4.decl_anomalies = code; docs/games/tournament.md).
ANOMALY = {
    ("when", "early"): _("declared early"),
    ("when", "late"): _("declared late"),
    ("form", "incomplete"): _("incomplete"),
    ("form", "wrong"): _("wrong"),
    ("contested", True): _("contested"),
    ("cured", True): _("it stands"),
    ("lost", True): _("its points are lost"),
    # A claim before the declaration was scored (reference 2.1.6): it counts nothing.
    ("not_yet_scored", True): _("not yet scored at the claim"),
}


#: The ranks a three or four of a kind is made of, counted ("three 3s", "tris di 3").
RANKS_COUNTED = {"3": _("3s"), "2": _("2s"), "A": _("aces")}


def declaration_words(line: Mapping[str, Any]) -> str:
    """A declaration as a player says it: "napoletana di denari", "tris di 3, senza
    denari" (the pages showed the engine's codes: "three", "d")."""
    kind, suit, rank = line.get("type") or "", line.get("suit"), line.get("rank")
    ranks = RANKS_COUNTED.get(str(rank), rank or "")
    if kind == "napoletana":
        said = _("napoletana of %(suit)s") % {"suit": suit_name(suit)} if suit else kind
    elif kind == "decima":
        said = _("decima of %(suit)s") % {"suit": suit_name(suit)} if suit else kind
    elif kind == "three":
        said = _("three %(ranks)s") % {"ranks": ranks}
    elif kind == "four":
        said = _("four %(ranks)s") % {"ranks": ranks}
    else:
        said = str(kind)
    if line.get("missing"):
        said = _("%(declaration)s, no %(suit)s") % {
            "declaration": said,
            "suit": suit_name(line["missing"]),
        }
    return str(said)


def _detail(line: Mapping[str, Any]) -> str:
    """The one fact a player wants beside a line (thirds, the declaration...)."""
    if line.get("kind") == "cards" and "thirds" in line:
        return str(_("%(thirds)s thirds") % {"thirds": line["thirds"]})
    if line.get("kind") == "declaration":
        said = declaration_words(line)
        went = [str(w) for (key, value), w in ANOMALY.items() if line.get(key) == value]
        return f"{said}; {', '.join(went)}" if went else said
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


def claim_words(result: Mapping[str, Any] | None, table: Table) -> str:
    """A claim or call-out in words: who called whom out, when, with how many points of
    the target, and whether it held (the deal page said only "this deal ends the match",
    which left a player guessing who won a wrong call-out and why)."""
    claim = (result or {}).get("claim")
    if not isinstance(claim, Mapping) or "total" not in claim:
        return ""
    side, by = claim.get("side", ""), claim.get("by", claim.get("side", ""))
    values = {
        "side": table.label(side),
        "by": table.label(by),
        "trick": claim.get("after_trick"),
        "total": claim["total"],
        "target": claim["target"],
    }
    if by == side:
        said = _("%(side)s claimed to be out after trick %(trick)s with %(total)s of %(target)s")
    else:
        said = _("%(by)s called %(side)s out after trick %(trick)s: %(total)s of %(target)s")
    verdict = _("the call was right") if claim.get("holds") else _("the call was wrong")
    words = f"{said % values}: {verdict}"
    cappotto = {
        "made": _("then the side called out went on and made its cappotto"),
        "failed": _("then the side called out went on for cappotto and failed"),
        "laid_down": _(
            "then the side called out made its cappotto by laying its cards down: "
            "the callers owe one more stake"
        ),
    }.get(str(claim.get("cappotto")))
    return f"{words}; {cappotto}." if cappotto else f"{words}."


def unit_heading(table: Table) -> str:
    """What a deal's numbers count: chips in Spinado and in Terziglio settled in chips
    every deal (the column said "Points" over a Spinado deal's chips), points elsewhere."""
    chips = get_game(table.game).counts_in_chips(table.rules)
    return str(_("Chips") if chips else _("Points"))


def player_label(table: Table, seat: str) -> str:
    """A seat in a sentence: the player's name with the seat ("Nino (N)"), the bare seat
    when nobody's name is known."""
    name = table.names.get(seat)
    return f"{name} ({seat})" if name else seat


def trick_words(result: Mapping[str, Any] | None, table: Table) -> list[dict[str, Any]]:
    """A play record trick by trick, who led and who took it by name (the list named only
    the seats: "N leads ... → E")."""
    play = ((result or {}).get("facts") or {}).get("play") or {}
    return [
        {
            "leader": player_label(table, trick.get("leader", "")),
            "cards": trick.get("cards", []),
            "winner": player_label(table, trick.get("winner", "")),
        }
        for trick in play.get("tricks") or []
    ]
