"""What a share button sends: one short text per thing shared, in the reader's language
(the active one), e.g. "Circolo San Rocco, serata del 20/11: Nino & Salvo 31–24 Lia & Tano".

One function per thing shared (a match, a night, a night's settlement, a season's
leaderboard), here rather than in templates, so the pages, their Open Graph tags and the
tests read the same words. Money appears in one place only: ``settlement_text`` with
``for_members=True`` (the settlement page is for members); everything else is safe for a
public page and a WhatsApp group.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any
from urllib.parse import quote

from django.utils.formats import date_format, number_format
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from scorebook.clubs.models import Player
from scorebook.ledger import selectors as ledger
from scorebook.matches.models import Match, Night
from scorebook.rules import describe_games
from scorebook.standings.selectors import seats_in_order, sides_of

#: How many matches or players a text names before "and N more" (a chat message, not
#: the whole sheet).
MATCHES_NAMED = 6
PLAYERS_NAMED = 5

_GAMES = {game["key"]: game for game in describe_games()["games"]}


@dataclass(frozen=True)
class Share:
    """A text and the link it points to, with the two ways of sending them that need no
    script: a WhatsApp link (``wa.me``) and the text to copy."""

    title: str
    text: str
    url: str

    @property
    def message(self) -> str:
        return f"{self.text}\n{self.url}" if self.url else self.text

    @property
    def whatsapp(self) -> str:
        return "https://wa.me/?text=" + quote(self.message, safe="")


def game_name(key: str) -> str:
    """A game's name in the active language (the engine names each game in both)."""
    names = _GAMES.get(key, {}).get("name", {})
    return names.get((get_language() or "en")[:2]) or names.get("en") or key


def short_date(day) -> str:
    """A night's date as a chat writes it: "20/11" in Italian, "20 Nov" in English."""
    return date_format(day, pgettext("short date in a shared text", "j M"))


def names_of(club_id: int) -> dict[int, str]:
    return dict(Player.objects.filter(club_id=club_id).values_list("id", "name"))


def score_line(match: Match, names: Mapping[int, str]) -> str:
    """The running or final score in one line: "Nino & Salvo 31–24 Lia & Tano" for two
    sides, "Gino 21, Pia 15, Ugo 12" for more (the engine's totals, in its order)."""
    state = match.state or {}
    totals = state.get("totals", {})
    sides = sides_of(match)
    who: dict[str, list[str]] = {}
    for seat in seats_in_order(match):
        who.setdefault(sides.get(seat, seat), []).append(names.get(match.seats.get(seat), seat))
    scorers = state.get("scorers") or list(who)
    labels = [(" & ".join(who.get(s, [s])), int(totals.get(s, 0))) for s in scorers]
    if len(labels) == 2:
        (a, pa), (b, pb) = labels
        return f"{a} {pa}–{pb} {b}"
    return ", ".join(f"{label} {points}" for label, points in labels)


def _match_words(match: Match, names: Mapping[int, str]) -> str:
    words = f"{game_name(match.game)}: {score_line(match, names)}"
    if match.status == Match.Status.OPEN:
        words += " " + _("(still playing)")
    return words


def match_text(match: Match, names: Mapping[int, str] | None = None) -> str:
    """One match: "Circolo San Rocco, 20/11, Tressette: Nino & Salvo 31–24 Lia & Tano"."""
    night = match.night
    names = names if names is not None else names_of(night.club_id)
    return _("%(club)s, %(date)s, %(match)s") % {
        "club": night.club.name,
        "date": short_date(night.date),
        "match": _match_words(match, names),
    }


def night_text(
    night: Night,
    names: Mapping[int, str] | None = None,
    matches: Iterable[Match] | None = None,
) -> str:
    """A night's matches, scores only: "Circolo San Rocco, serata del 20/11: Tressette:
    Nino & Salvo 31–24 Lia & Tano; ..." (no stakes: the public may read it). A page that
    has read the names and the matches already passes them (no queries of its own)."""
    names = names if names is not None else names_of(night.club_id)
    matches = list(matches if matches is not None else night.matches.order_by("id"))
    parts = [_match_words(m, names) for m in matches[:MATCHES_NAMED]]
    rest = len(matches) - MATCHES_NAMED
    if rest > 0:
        parts.append(
            ngettext("and %(count)d more match", "and %(count)d more matches", rest)
            % {"count": rest}
        )
    results = "; ".join(parts) if parts else _("no matches yet")
    return _("%(club)s, night of %(date)s: %(results)s") % {
        "club": night.club.name,
        "date": short_date(night.date),
        "results": results,
    }


def _amount(amount: str, currency: str) -> str:
    number = Decimal(amount)
    if not currency:
        points = number_format(number, decimal_pos=0 if number == int(number) else 2)
        return _("%(points)s points") % {"points": points}
    return f"{number_format(number, decimal_pos=2, use_l10n=True)} {currency}"


def settlement_text(night: Night, *, for_members: bool) -> str:
    """The night's settlement. For members (the settlement page is theirs): who pays whom
    ("Circolo San Rocco, conti del 20/11: Walter paga 1,00 EUR a Nino; ..."). Anything
    meant for the public says the night's results only (``night_text``): never money."""
    if not for_members:
        return night_text(night)
    sheet = ledger.sheet(night)
    transfers = sheet["transfers"]
    if transfers:
        owed = "; ".join(
            _("%(payer)s pays %(amount)s to %(payee)s")
            % {
                "payer": t["payer_name"],
                "payee": t["payee_name"],
                "amount": _amount(t["amount"], t["currency"]),
            }
            for t in transfers
        )
    elif sheet["paid"]:
        owed = _("everything is paid")
    else:
        owed = _("nobody owes anything")
    return _("%(club)s, settlement of %(date)s: %(owed)s") % {
        "club": night.club.name,
        "date": short_date(night.date),
        "owed": owed,
    }


def standings_text(club_name: str, season_name: str, game: str, rows: Iterable[Any]) -> str:
    """A season's first players by the leaderboard's own order, matches won only (a
    column every public page shows): "Circolo San Rocco, classifica Stagione 2026: 1. Nino
    (12 partite vinte), 2. Lia (10 partite vinte), ...". ``rows`` carry ``position``,
    ``player.name`` and
    ``won``; unranked rows (below the minimum of matches) are left out."""
    ranked = [row for row in rows if getattr(row, "position", None)]
    parts = [
        ngettext(
            "%(position)d. %(name)s (%(won)d match won)",
            "%(position)d. %(name)s (%(won)d matches won)",
            r.won,
        )
        % {"position": r.position, "name": r.player.name, "won": r.won}
        for r in ranked[:PLAYERS_NAMED]
    ]
    board = ", ".join(parts) if parts else _("no results yet")
    season = f"{season_name}, {game_name(game)}" if game else season_name
    return _("%(club)s, standings %(season)s: %(board)s") % {
        "club": club_name,
        "season": season,
        "board": board,
    }
