"""A tournament on paper: the standings as CSV and PDF, a round's sheet (the pairings by
table), and the table cards with a QR code that opens the table's match on a phone.

The CSV goes through the ledger's one formula-safe writer (``as_csv``) and every name in
a PDF through ``pdf_text``, so a name is never a formula or markup. The round sheets and
table cards print no money (they hang on the wall); the final standings add the prizes
paid and the club's share, read from the ledger, in a tournament played for money.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from scorebook.ledger.exports import as_csv, as_pdf, pdf_text

from . import boards, selectors
from .models import Round, Tournament

CENT = Decimal("0.01")


def _criterion(name: str | None) -> str:
    words = {
        "match_points": _("match points"),
        "buchholz": _("Buchholz"),
        "point_difference": _("game-point difference"),
        "head_to_head": _("head to head"),
        "lot": _("lot"),
    }
    return words.get(name or "", "")


def standings_sheet(tournament: Tournament) -> list[list[Any]]:
    """The standings as rows: a title row, the header, then one row per entry (a shared
    place marked "=", a withdrawn pair said so), with the criterion that placed it."""
    rows: list[list[Any]] = [[tournament.name]]
    rows.append(
        [
            _("Position"),
            _("Pair"),
            _("Played"),
            _("Won"),
            _("Drawn"),
            _("Lost"),
            _("Match points"),
            _("Buchholz"),
            _("Difference"),
            _("Decided by"),
        ]
    )
    for standing in selectors.standings(tournament):
        row, entry = standing.row, standing.entry
        position = "" if row.position is None else f"{row.position}{'=' if row.shared else ''}"
        name = entry.name + (f" ({_('withdrawn')})" if entry.withdrawn else "")
        rows.append(
            [
                position,
                name,
                row.played,
                row.won,
                row.drawn,
                row.lost,
                row.match_points,
                row.buchholz,
                row.difference,
                _criterion(row.decided_by),
            ]
        )
    return rows + prizes_sheet(tournament)


def prizes_sheet(tournament: Tournament) -> list[list[Any]]:
    """Who was paid what and the club's share, as the ledger booked them out of the pot
    (an empty row first: a section of its own). Nothing in a tournament without money,
    nor before the payout."""
    if not tournament.plays_for_money:
        return []
    paid, club = selectors.prizes_paid(tournament)
    if not paid and not club:
        return []
    currency = tournament.currency

    def amount(value: Any) -> str:
        return f"{value.quantize(CENT)} {currency}".strip()

    rows: list[list[Any]] = [[], [_("Position"), _("Pair"), _("Prize")]]
    rows += [[str(place), entry.name, amount(won)] for place, entry, won in paid]
    rows.append(["", _("The club's share"), amount(club)])
    return rows


def standings_csv(tournament: Tournament) -> str:
    return as_csv(standings_sheet(tournament))


def standings_pdf(tournament: Tournament) -> bytes:
    title = f"{tournament.name}: {_('standings')}"
    return as_pdf(title, [[title], *standings_sheet(tournament)[1:]])


def round_sheet(tournament: Tournament, round_: Round) -> list[list[Any]]:
    """A round's pairings by table, for the wall."""
    board = boards.round_board(tournament, round_)
    rows: list[list[Any]] = [[f"{tournament.name}: {_('round %(n)s') % {'n': round_.number}}"]]
    rows.append([_("Table"), _("Pair"), _("Pair")])
    for line in board.lines:
        if line.away is None:
            rows.append(["", line.home.name, _("bye (rests this round)")])
        else:
            table = "" if line.table_number is None else str(line.table_number)
            rows.append([table, line.home.name, line.away.name])
    return rows


def round_pdf(tournament: Tournament, round_: Round) -> bytes:
    rows = round_sheet(tournament, round_)
    return as_pdf(str(rows[0][0]), rows)


def table_cards_pdf(
    tournament: Tournament, round_: Round, match_url: Callable[[int], str]
) -> bytes:
    """One A6 card per table of the round: the table, the two pairs, and a QR code of
    ``match_url(match id)``: the table's phone opens its match and enters the deals."""
    import segno
    from reportlab.lib.pagesizes import A6
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import mm
    from reportlab.platypus import Flowable, PageBreak, Paragraph, SimpleDocTemplate, Spacer

    class QrCode(Flowable):
        """A QR code drawn as squares from segno's matrix (no image library needed)."""

        def __init__(self, text: str, size: float) -> None:
            super().__init__()
            self.matrix = [list(row) for row in segno.make(text, error="m").matrix]
            self.size = size
            self.width = self.height = size

        def draw(self) -> None:
            count = len(self.matrix) + 8  # the quiet zone: 4 modules each side
            cell = self.size / count
            canvas = self.canv
            canvas.setFillColorRGB(0, 0, 0)
            for y, row in enumerate(self.matrix):
                for x, dark in enumerate(row):
                    if dark:
                        canvas.rect(
                            (x + 4) * cell,
                            self.size - (y + 5) * cell,
                            cell,
                            cell,
                            stroke=0,
                            fill=1,
                        )

    styles = getSampleStyleSheet()
    buffer = io.BytesIO()
    title = f"{tournament.name}: {_('round %(n)s') % {'n': round_.number}}"
    doc = SimpleDocTemplate(
        buffer, pagesize=A6, title=title, leftMargin=8 * mm, rightMargin=8 * mm,
        topMargin=8 * mm, bottomMargin=8 * mm,
    )  # fmt: skip
    story: list[Any] = []
    board = boards.round_board(tournament, round_)
    for line in board.lines:
        if line.away is None:
            continue
        if story:
            story.append(PageBreak())
        story.append(Paragraph(pdf_text(title), styles["Normal"]))
        table = _("Table %(n)s") % {"n": line.table_number or "?"}
        story.append(Paragraph(pdf_text(table), styles["Title"]))
        story.append(Paragraph(pdf_text(line.home.name), styles["Heading3"]))
        story.append(Paragraph(pdf_text(_("against")), styles["Normal"]))
        story.append(Paragraph(pdf_text(line.away.name), styles["Heading3"]))
        story.append(Spacer(1, 3 * mm))
        match = line.open_match or (line.matches[-1] if line.matches else None)
        if match is not None:
            story.append(QrCode(match_url(match.pk), 50 * mm))
            words = _("Scan to enter this table's deals.")
            story.append(Paragraph(pdf_text(words), styles["Normal"]))
        else:
            words = _("The match is made when the round starts.")
            story.append(Paragraph(pdf_text(words), styles["Normal"]))
    if not story:
        story.append(Paragraph(pdf_text(title), styles["Title"]))
        story.append(Paragraph(pdf_text(_("No table plays in this round.")), styles["Normal"]))
    doc.build(story)
    return buffer.getvalue()
