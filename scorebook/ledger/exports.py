"""The night's settlement sheet as CSV and as a printable A4 PDF (reportlab), and the
CSV writer of every export (settlement, league tables, the API's standings tables).

Names are text in both: a cell a spreadsheet would read as a formula is neutralised
(``safe_cell``), and the PDF prints markup as the characters it is made of (reportlab's
``Paragraph`` reads its text as markup: ``<b`` broke it, ``<a href>`` made a link and
``<img src>`` embedded a file of the server's disk).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterable
from datetime import datetime
from decimal import Decimal
from typing import Any
from xml.sax.saxutils import escape

from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _

#: A spreadsheet reads a cell starting with one of these as a formula (OWASP's list for
#: CSV injection: the tab and the carriage return too).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: A negative number, or an amount with its unit ("-0.50 EUR", "-3 points"): no formula.
_AMOUNT = re.compile(r"-\d+(?:[.,]\d+)?(?: [^\W\d_]+)?")


def _number(value: Any, currency: str, localize: bool) -> str:
    """An amount as written for the reader: as stored ("0.50", for programs), or in the
    active language's digits ("0,50" in Italian; points whole)."""
    if not localize:
        return str(value)
    number = Decimal(value)
    places = 0 if not currency and number == number.to_integral_value() else 2
    return number_format(number, decimal_pos=places, use_l10n=True)


def _amount(row: dict[str, Any], key: str = "amount", localize: bool = False) -> str:
    unit = row["currency"] or _("points")
    return f"{_number(row[key], row['currency'], localize)} {unit}"


def _when(iso: str, localize: bool) -> str:
    """A stored time: for people, local with its zone ("2026-11-20 23:41 CET"); for
    programs, as stored (UTC, to the minute)."""
    if not localize:
        return iso[:16]
    moment = timezone.localtime(datetime.fromisoformat(iso))
    return f"{moment:%Y-%m-%d %H:%M} {moment:%Z}"


def sheet_rows(
    club: str,
    sheet: dict[str, Any],
    matches: list[dict[str, Any]],
    names,
    *,
    localize: bool = False,
    seat_word: Callable[[str], str] = str,
) -> list:
    """The sheet as rows: one section each for matches, nets, transfers and paid marks.
    ``localize``: amounts and times for people (the page's sheets), not programs (the
    API's). Lines that carry words (``result_words``) also say each match's result, its
    multiplier and what it moved for each player. ``seat_word``: a seat as the reader
    writes it (the pages' letters; the API's sheet keeps the codes)."""
    rows: list[list[str]] = [[_("Settlement"), club, sheet["date"]]]
    version = sheet["version"]
    rows.append([_("Version"), str(version) if version else _("provisional (night still open)")])
    rows.append([])
    words = any("result_words" in m for m in matches)
    head = [_("Match"), _("Game"), _("Table"), _("Players"), _("Winners"), _("Stake")]
    rows.append(head + ([_("Result"), _("Multiplier"), _("Moved")] if words else []))
    for m in matches:
        players = ", ".join(
            f"{seat_word(seat)}: {names.get(pid, '?')}" for seat, pid in m["seats"].items()
        )
        stake = _number(m["stake"], m["currency"], localize)
        stake = f"{stake} {m['currency']}" if m["currency"] else stake
        row = [str(m["id"]), m["game"], m["table"] or "", players, " ".join(m["winners"]), stake]
        if words:
            multiplier = m.get("multiplier") or 1
            moved = ", ".join(
                f"{name} {'+' if Decimal(amount) > 0 else ''}"
                f"{_amount({'a': amount, 'currency': currency}, 'a', localize)}"
                for name, amount, currency in m.get("moved_words", [])
            )
            row += [m.get("result_words", ""), f"x{multiplier}" if multiplier != 1 else "", moved]
        rows.append(row)
    rows.append([])
    rows.append([_("Player"), _("Net")])
    for group in sheet["groups"]:
        for net in group["nets"]:
            rows.append([net["name"], _amount({**net, **group}, "net", localize)])
    rows.append([])
    rows.append([_("Pays"), _("To"), _("Amount"), _("Paid")])
    for t in sheet["paid"]:
        rows.append(
            [
                t["payer_name"],
                t["payee_name"],
                _amount(t, localize=localize),
                _when(t["paid_at"], localize),
            ]
        )
    for t in sheet["transfers"]:
        rows.append([t["payer_name"], t["payee_name"], _amount(t, localize=localize), ""])
    return rows


def safe_cell(value: Any) -> str:
    """A cell's text, behind an apostrophe when a spreadsheet would read it as a formula
    (``=HYPERLINK(...)``, ``+1+1``, ``@SUM(...)``, ``-2+3+cmd|...``); numbers and amounts
    stay as they are. None is an empty cell, as the csv module writes it."""
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_STARTS) and not _AMOUNT.fullmatch(text):
        return "'" + text
    return text


def as_csv(rows: Iterable[Iterable[Any]], delimiter: str = ",") -> str:
    """Rows as CSV, every cell through ``safe_cell``: the one CSV writer of the exports.
    ``delimiter``: ";" where the reader's decimal separator is the comma (Italian), as
    their spreadsheet expects."""
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter).writerows(
        [safe_cell(value) for value in row] for row in rows
    )
    return out.getvalue()


def pdf_text(value: Any) -> str:
    """Text for a reportlab ``Paragraph``, which reads markup: escaped, so a name prints
    as written (``Nino <b``, ``<a href=...>``, ``<img src=...>``)."""
    return escape(str(value))


def as_pdf(title: str, rows: list[list[str]]) -> bytes:
    """An A4 page (or more) with the same sections as the CSV, as tables."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    styles = getSampleStyleSheet()
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer, pagesize=A4, title=title, leftMargin=15 * mm, rightMargin=15 * mm
    )
    story: list[Any] = [Paragraph(pdf_text(title), styles["Title"])]
    sections: list[list[list[str]]] = [[]]
    for row in rows[1:]:
        if row:
            sections[-1].append(row)
        else:
            sections.append([])
    cell = styles["BodyText"]
    for section in sections:
        if not section:
            continue
        data = [[Paragraph(pdf_text(value), cell) for value in row] for row in section]
        table = Table(data, repeatRows=1, hAlign="LEFT")
        table.setStyle(
            TableStyle(
                [
                    ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
                    ("BACKGROUND", (0, 0), (-1, 0), colors.whitesmoke),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ]
            )
        )
        story += [table, Spacer(1, 6 * mm)]
    doc.build(story)
    return buffer.getvalue()
