"""A match as the pages show it: who plays for which side, the running score, the chart
and each deal's breakdown in words. Reads the stored derived state (always recomputable
from the deals); no rules here: the engine's results are only put into words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from scorebook.matches.models import Match
from scorebook.rules import describe_games, get_game
from scorebook.standings.selectors import seats_in_order, sides_of
from scorebook.web.breakdown import declaration_words
from scorebook.web.charts import Series, line_chart
from scorebook.web.switches import profile_label

_CATALOGUE = {game["key"]: game for game in describe_games()["games"]}


def catalogue() -> dict[str, dict[str, Any]]:
    """The engine's games (name, player counts, switches, profiles) by key."""
    return _CATALOGUE


def game_name(key: str) -> str:
    """A game's name in the active language (the engine names each game in both)."""
    names = _CATALOGUE.get(key, {}).get("name", {})
    return names.get((get_language() or "en")[:2]) or names.get("en") or key


@dataclass
class Side:
    scorer: str
    label: str
    points: int
    leading: bool = False
    won: bool = False


def scorer_labels(match: Match, names: dict[int, str]) -> dict[str, str]:
    """Scorer key (a side or a seat) -> the names of the players it stands for; a side's
    players in the order the engine's description of the table gives its members, the
    order of the deal form (issue 32 item 5: the form said "Ettore & Walter", the match
    page "Walter & Ettore")."""
    sides = sides_of(match)
    seats = seats_in_order(match)
    members = side_members(match)
    labels: dict[str, list[str]] = {}
    for seat in sorted(seats, key=lambda s: members.get(s, len(seats))):
        player = names.get(match.seats.get(seat), seat)
        labels.setdefault(sides.get(seat, seat), []).append(player)
    return {scorer: " & ".join(who) for scorer, who in labels.items()}


def side_members(match: Match) -> dict[str, int]:
    """Seat -> its place within its side, as the engine describes the table (``members``
    of ``Game.table_shape``); empty where every seat scores alone."""
    rules = (match.rules or {}).get("values", {})
    shape = get_game(match.game).table_shape(rules, tuple(seats_in_order(match)))
    return {seat: i for side in shape.members.values() for i, seat in enumerate(side or ())}


def scoreboard(match: Match, names: dict[int, str]) -> list[Side]:
    """The running total of each side or player, the leader marked (none on a tie); at
    the end the winners instead (the page still said "leading" over a finished match)."""
    state = match.state or {}
    totals = state.get("totals", {})
    labels = scorer_labels(match, names)
    board = [
        Side(scorer, labels.get(scorer, scorer), int(totals.get(scorer, 0)))
        for scorer in state.get("scorers", list(totals))
    ]
    winners = (match.result or {}).get("winners") if match.status == "finished" else None
    if winners:  # a finished match names its winners (not always the most points)
        sides = sides_of(match)
        won = {sides.get(seat, seat) for seat in winners}
        for side in board:
            side.won = side.scorer in won
    elif board:
        top = max(side.points for side in board)
        leaders = [side for side in board if side.points == top]
        if len(leaders) == 1 and any(side.points != top for side in board):
            leaders[0].leading = True
    return board


def dealer_name(match: Match, names: dict[int, str]) -> str:
    seat = (match.state or {}).get("dealer")
    return names.get(match.seats.get(seat), seat or "")


def chart(match: Match, results: list[dict[str, Any]], names: dict[int, str]) -> SafeString:
    """The running score deal by deal as an SVG line chart (the target as a dashed line)."""
    labels = scorer_labels(match, names)
    scorers = (match.state or {}).get("scorers") or list(labels)
    running = dict.fromkeys(scorers, 0)
    points: dict[str, list[tuple[float, float]]] = {s: [(0, 0)] for s in scorers}
    for number, result in enumerate(results, start=1):
        for scorer in scorers:
            running[scorer] += int((result.get("points") or {}).get(scorer, 0))
            points[scorer].append((number, running[scorer]))
    target = _target(match)
    return line_chart(
        [Series(labels.get(s, s), points[s]) for s in scorers],
        title=_("Running score"),
        reference=target,
        reference_label=_("target %(points)s") % {"points": target} if target else "",
        step=True,
    )


def rules_words(match: Match) -> str:
    """What the table plays to, in a few words: the profile's ("41 con l'accuso"), else
    the target ("a 31 punti"), else nothing (the match page did not say it at all)."""
    profile = (match.rules or {}).get("profile")
    if profile:
        return profile_label(match.game, profile)
    target = _target(match)
    return _("to %(points)s points") % {"points": target} if target else ""


def _target(match: Match) -> int | None:
    values = (match.rules or {}).get("values", {})
    for key, value in values.items():
        if key.endswith(".target") and isinstance(value, int) and value > 0:
            return value
    return None


# -- a deal's breakdown in words ------------------------------------------------------------

KINDS = {
    "cards": gettext_lazy("card points"),
    "last_trick": gettext_lazy("last trick"),
    "declaration": gettext_lazy("declaration"),
    "declarations": gettext_lazy("declarations"),
    "chips": gettext_lazy("chips"),
    "cappotto": gettext_lazy("cappotto"),
    "claim": gettext_lazy("claim"),
    "penalty": gettext_lazy("penalty"),
    "revoke": gettext_lazy("revoke"),
    "bonus": gettext_lazy("bonus"),
}

WORDS = {
    "cappotto": gettext_lazy("cappotto (all the tricks)"),
    "stramazzo": gettext_lazy("stramazzo"),
    "annulled": gettext_lazy("annulled"),
    "napoletana": gettext_lazy("napoletana"),
}


def _words(code: Any) -> str:
    if code is None:
        return ""
    text = str(code)
    return str(WORDS.get(text) or KINDS.get(text) or text.replace("_", " "))


def breakdown(result: dict[str, Any], labels: dict[str, str]) -> list[dict[str, Any]]:
    """Per side or player: the points of the deal and where they come from, in words."""
    if result.get("annulled"):
        return []
    lines = []
    for scorer, items in (result.get("breakdown") or {}).items():
        parts = []
        for item in items:
            detail = _words(item.get("kind"))
            if item.get("kind") == "declaration":  # "tris di 3, senza denari", not "three, d"
                extra = [declaration_words(item)]
            else:
                extra = [
                    _words(item[key])
                    for key in ("type", "suit", "bid", "event")
                    if item.get(key) not in (None, "")
                ]
            if extra:
                detail += f" ({', '.join(extra)})"
            parts.append({"what": detail, "points": item.get("points", 0)})
        lines.append(
            {
                "who": labels.get(scorer, scorer),
                "points": (result.get("points") or {}).get(scorer, 0),
                "parts": parts,
            }
        )
    return lines


def deal_summary(result: dict[str, Any]) -> list[str]:
    """What made the deal special: annulled, an event, a multiplier, a claim."""
    notes = []
    if result.get("annulled"):
        notes.append(_("annulled: dealt again"))
    if result.get("event"):
        notes.append(_words(result["event"]))
    if (result.get("multiplier") or 1) != 1:
        notes.append(_("× %(times)s") % {"times": result["multiplier"]})
    if result.get("claim"):
        notes.append(_("claim: %(claim)s") % {"claim": _words(result["claim"])})
    if result.get("ends_match"):
        notes.append(_("ends the match"))
    return notes
