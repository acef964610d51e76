"""The notice board: a season's leaderboard and a league table as an A4 PDF to pin up in
the club room.

Both go through the settlement sheet's PDF writer (``ledger.exports.as_pdf``), which
escapes every cell: a player or entry named ``Nino <b`` or ``<img src=...>`` prints as
written, never as reportlab markup. A notice board hangs where anyone walks past, so the
leaderboard has the public columns only (no money, no units), as the public pages.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from scorebook.ledger.exports import as_pdf
from scorebook.standings import columns
from scorebook.standings.leagues.selectors import LeagueTable, league_sheet

from .texts import game_name


def _cell(value: Any) -> str:
    if isinstance(value, float):  # the win rate, 0..100
        return number_format(value, decimal_pos=1)
    return str(value)


def leaderboard_rows(
    club_name: str, season_name: str, game: str, rows: Iterable[Any]
) -> tuple[str, list[list[str]]]:
    """The title and the sheet of a season's leaderboard: position ("–" below the club's
    minimum of matches), player, then the registry's public plain columns. ``rows`` are
    the leaderboard selector's rows with their ``position`` set, in the page's order."""
    shown = [c for c in columns.visible(public=True) if c.scalar]
    what = f"{season_name} · {game_name(game)}" if game else season_name
    title = f"{club_name} · {_('Leaderboard')} {what}"
    sheet: list[list[str]] = [[title], ["#", _("Player"), *(str(c.label) for c in shown)]]
    for row in rows:
        position = getattr(row, "position", None)
        sheet.append(
            [
                str(position) if position else "–",
                row.player.name,
                *(_cell(getattr(row, c.name)) for c in shown),
            ]
        )
    if len(sheet) == 2:
        sheet.append(["", _("No results in this season yet."), *([""] * len(shown))])
    return title, sheet


def leaderboard_pdf(club_name: str, season_name: str, game: str, rows: Iterable[Any]) -> bytes:
    title, sheet = leaderboard_rows(club_name, season_name, game, rows)
    return as_pdf(title, sheet)


def league_pdf(table: LeagueTable) -> bytes:
    """The league's table (a knockout: the placings and the bracket), the same rows as
    its CSV, under the club's and the league's names."""
    sheet = league_sheet(table)
    title = f"{table.league.club.name} · {table.league.name}"
    return as_pdf(title, sheet)
