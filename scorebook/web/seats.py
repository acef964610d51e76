"""Seats and partnerships in the reader's words.

The engine names a table's seats by stable codes (``N``, ``E``, ``S``, ``W`` round a
four-handed table; ``P1``... elsewhere) and says which seats form a side
(``Game.table_shape``: ``members``). The data keep the codes; a reader sees the compass
letters of their language (Italian: N, E, S, O) and, where sides are fixed for the match,
who partners whom: 'Nino (N) e Salvo (S) contro Ettore (E) e Walter (O)'."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext, pgettext_lazy

from scorebook.rules.table import TableShape

LETTERS = {
    "N": pgettext_lazy("seat letter: north", "N"),
    "E": pgettext_lazy("seat letter: east", "E"),
    "S": pgettext_lazy("seat letter: south", "S"),
    "W": pgettext_lazy("seat letter: west", "W"),
}


def seat_letter(seat: str) -> str:
    """The seat as its reader writes it (the code itself where it has no letter)."""
    return str(LETTERS.get(seat, seat))


def seated(seat: str, name: str | None) -> str:
    """'Walter (O)': a player with the seat's letter; the letter alone without a name."""
    return f"{name} ({seat_letter(seat)})" if name else seat_letter(seat)


def and_words(words: list[str]) -> str:
    if len(words) < 2:
        return "".join(words)
    return gettext("%(some)s and %(last)s") % {"some": ", ".join(words[:-1]), "last": words[-1]}


def pairs(shape: TableShape, names: Mapping[str, str] | None = None) -> str:
    """Who plays with whom where the sides are fixed ('' where each seat scores alone):
    each side's members with their seats, side against side."""
    sides = [m for m in shape.members.values() if m]
    if len(sides) < 2:
        return ""
    said = [
        and_words([seated(s, names.get(s)) if names else seat_letter(s) for s in members])
        for members in sides
    ]
    line = said[0]
    for other in said[1:]:
        line = gettext("%(side)s against %(other)s") % {"side": line, "other": other}
    return line
