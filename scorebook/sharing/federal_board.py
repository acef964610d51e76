"""The federation ranking on paper (issue 34 item 5): CSV and an A4 PDF for the notice
board, through the ledger's formula-safe CSV writer and escaping PDF writer. The rows
name persons by federation number and username, never a club's player names, and carry
no money; below the points, the rating across the member clubs, game by game."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _

from scorebook.ledger.exports import as_csv, as_pdf
from scorebook.sharing.texts import game_name


def ranking_sheet(
    federation_name: str, day: Any, rows: Iterable[Any], rating_games: Iterable[Any] = ()
) -> list[list[str]]:
    """A title row, the header, then one row per person (position, number, username,
    points, tournaments, best result); then, per game rated across the member clubs
    (``ratings.by_game``), a blank row, the game's heading, its header and one row per
    person (position, number, username, rating, matches, clubs)."""
    title = f"{federation_name} · {_('Ranking')} · {day.isoformat()}"
    sheet = [
        [title],
        ["#", _("Number"), _("Person"), _("Points"), _("Tournaments"), _("Best result")],
    ]
    for row in rows:
        sheet.append(
            [
                str(row.position),
                "" if row.number is None else str(row.number),
                row.user.username,
                str(row.points),
                str(len(row.results)),
                str(row.best),
            ]
        )
    if len(sheet) == 2:
        sheet.append(["", "", _("No federal points in the last twelve months."), "", "", ""])
    for game, rated in rating_games:
        sheet.append([""] * 6)
        sheet.append([f"{_('Rating across the clubs')} · {game_name(game)}", "", "", "", "", ""])
        sheet.append(["#", _("Number"), _("Person"), _("Rating"), _("Matches"), _("Clubs")])
        for row in rated:
            sheet.append(
                [
                    str(row.position),
                    "" if row.number is None else str(row.number),
                    row.user.username,
                    f"{row.rating:.1f}",
                    str(row.matches),
                    str(row.clubs),
                ]
            )
    return sheet


def ranking_csv(
    federation_name: str,
    day: Any,
    rows: Iterable[Any],
    delimiter: str = ",",
    rating_games: Iterable[Any] = (),
) -> str:
    return as_csv(ranking_sheet(federation_name, day, rows, rating_games), delimiter=delimiter)


def ranking_pdf(
    federation_name: str, day: Any, rows: Iterable[Any], rating_games: Iterable[Any] = ()
) -> bytes:
    sheet = ranking_sheet(federation_name, day, rows, rating_games)
    return as_pdf(sheet[0][0], sheet)
