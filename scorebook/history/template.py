"""The import template read from a file: CSV (the standard library's reader) or XLSX
(openpyxl, read-only, values as stored: a formula is refused, never evaluated).

The file becomes a :class:`Sheet`: its rows as plain strings keyed by column name, each
with its row number in the file (the header is row 1, as a spreadsheet numbers it). What
cannot be a sheet (another format, too large, not UTF-8, a formula, a control character,
an unknown column) is a :class:`TemplateRefusal` naming the row and column where it can;
the engine's judgement of the rows is ``plan``'s. docs/import.md is the template's
reference.
"""

from __future__ import annotations

import csv
import io
import zipfile
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy as _

from scorebook.core.inputs import bad_char
from scorebook.core.refusals import Refusal

#: The template's columns, in the order the example file writes them.
COLUMNS = ("date", "table", "match", "game", "rules", "seats", "first_dealer", "stake",
           "currency", "deal", "final", "abandoned")  # fmt: skip
#: In ``abandoned``, a match abandoned without a reason (any of these, without case); any
#: other text there is the reason the match was abandoned.
ABANDONED_NO_REASON = "yes"
ABANDONED_WORDS = frozenset({"yes", "sì", "si", "true", "x"})
#: ``deal`` or ``final`` is required too: a file holds deals, final scores or both.
REQUIRED = ("date", "game", "seats")
#: The most rows one file may hold (a 10-year club has about 20,000 deals).
MAX_ROWS = 100_000
#: An XLSX is a ZIP: the most its parts may expand to (a "zip bomb" is refused unread).
MAX_UNZIPPED = 200 * 1024 * 1024
#: The longest cell (a play record in JSON is a few KB).
MAX_CELL = 20_000


class TemplateRefusal(Refusal):
    code = "import.refused"
    message = _("This file cannot be imported.")


class TooLarge(TemplateRefusal):
    code = "import.too_large"
    status = 413
    message = _("The file is %(size)s MB: the most an import takes is %(limit)s MB.")


class NotATemplate(TemplateRefusal):
    code = "import.not_a_template"
    message = _(
        "This is not a CSV or XLSX file of the import template (%(detail)s): "
        "see the example file on the import page."
    )


class EmptyFile(TemplateRefusal):
    code = "import.empty"
    message = _("The file has no rows below its header.")


class TooManyRows(TemplateRefusal):
    code = "import.too_many_rows"
    message = _("The file has more than %(limit)s rows: split it into several imports.")


class NotUtf8(TemplateRefusal):
    code = "import.not_utf8"
    message = _("Row %(row)s is not UTF-8 text: save the file as CSV UTF-8 and try again.")


class UnknownColumn(TemplateRefusal):
    code = "import.unknown_column"
    message = _("Column %(letter)s, '%(column)s', is not a column of the template (%(known)s).")


class MissingColumn(TemplateRefusal):
    code = "import.missing_column"
    message = _("The file has no '%(column)s' column; the header row must name it.")


class DuplicateColumn(TemplateRefusal):
    code = "import.duplicate_column"
    message = _("The column '%(column)s' appears twice in the header row.")


class Formula(TemplateRefusal):
    code = "import.formula"
    message = _(
        "Row %(row)s, column %(column)s holds a formula: the import takes values only "
        "(copy the cells and paste them as values)."
    )


class BadCell(TemplateRefusal):
    code = "import.bad_character"
    message = _(
        "Row %(row)s, column %(column)s contains a control character or an invalid one "
        "(%(char)s): remove it and try again."
    )


class LongCell(TemplateRefusal):
    code = "import.long_cell"
    message = _("Row %(row)s, column %(column)s is longer than %(limit)s characters.")


@dataclass(frozen=True)
class Row:
    """One row of the file: its number in the file and its cells (stripped strings)."""

    number: int
    cells: dict[str, str] = field(default_factory=dict)

    def get(self, column: str) -> str:
        return self.cells.get(column, "")


@dataclass(frozen=True)
class Sheet:
    columns: tuple[str, ...]
    rows: tuple[Row, ...]


def letter(index: int) -> str:
    """A spreadsheet's name of the column at ``index`` (0 is A, 26 is AA)."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(65 + rest) + name
    return name


def max_bytes() -> int:
    return int(getattr(settings, "IMPORT_MAX_BYTES", 10 * 1024 * 1024))


def read_file(name: str, data: bytes) -> Sheet:
    """The sheet in ``data`` (CSV or XLSX, told by its content, not its name)."""
    limit = max_bytes()
    if len(data) > limit:
        raise TooLarge(size=_mb(len(data)), limit=_mb(limit))
    if data[:4] == b"PK\x03\x04":
        table = _xlsx_rows(data)
    elif data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        raise NotATemplate(detail=_("an old Excel .xls: save it as .xlsx or CSV"))
    elif data[:5] == b"%PDF-":
        raise NotATemplate(detail="PDF")
    elif data[:8] == b"\x89PNG\r\n\x1a\n" or data[:3] == b"\xff\xd8\xff":
        raise NotATemplate(detail=_("an image"))
    else:
        table = _csv_rows(data)
    return _sheet(table)


def _mb(size: int) -> str:
    return f"{size / (1024 * 1024):.1f}".rstrip("0").rstrip(".")


def _csv_rows(data: bytes) -> list[tuple[int, list[Any]]]:
    if data[:4096].count(b"\x00") > 8:  # an image, a binary; a stray NUL is a cell's
        raise NotATemplate(detail=_("binary data"))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as bad:
        raise NotUtf8(row=data[: bad.start].count(b"\n") + 1) from None
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") > first.count(",") else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    rows: list[tuple[int, list[Any]]] = []
    try:
        for cells in reader:
            if len(rows) > MAX_ROWS:
                raise TooManyRows(limit=MAX_ROWS)
            rows.append((reader.line_num, cells))
    except csv.Error as error:
        raise NotATemplate(detail=str(error)[:120]) from None
    # The record's number in the file: csv counts the lines it read (a cell may span
    # several); a spreadsheet numbers records, which is what the director sees.
    return [(index + 1, cells) for index, (_line, cells) in enumerate(rows)]


def _xlsx_rows(data: bytes) -> list[tuple[int, list[Any]]]:
    import openpyxl
    from openpyxl.utils.exceptions import InvalidFileException

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            if sum(info.file_size for info in archive.infolist()) > MAX_UNZIPPED:
                raise TooLarge(size=">200", limit=_mb(max_bytes()))
            if "xl/workbook.xml" not in archive.namelist():
                raise NotATemplate(detail=_("a ZIP that is not an Excel workbook"))
    except zipfile.BadZipFile:
        raise NotATemplate(detail=_("a damaged ZIP")) from None
    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    except (InvalidFileException, zipfile.BadZipFile, KeyError, OSError, ValueError) as error:
        raise NotATemplate(detail=type(error).__name__) from None
    try:
        sheet = book.worksheets[0]
        rows: list[tuple[int, list[Any]]] = []
        for number, cells in enumerate(sheet.iter_rows(), start=1):
            if number > MAX_ROWS + 1:
                raise TooManyRows(limit=MAX_ROWS)
            values = []
            for index, cell in enumerate(cells):
                if getattr(cell, "data_type", None) == "f":
                    raise Formula(row=number, column=letter(index))
                values.append(getattr(cell, "value", None))
            rows.append((number, values))
    finally:
        book.close()
    return rows


def _text(value: Any) -> str:
    """A cell as text: a date as ISO, a whole number without ``.0``."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == datetime.min.time() else str(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else str(Decimal(repr(value)))
    return str(value).strip()


def _sheet(table: list[tuple[int, list[Any]]]) -> Sheet:
    table = [(n, cells) for n, cells in table if any(_text(c) for c in cells)]
    if not table:
        raise EmptyFile()
    header_number, header = table[0]
    names: list[str] = []
    for index, cell in enumerate(header):
        name = _text(cell).lower().replace(" ", "_")
        _check_cell(name, header_number, index)
        if not name:
            names.append("")
            continue
        if name not in COLUMNS:
            raise UnknownColumn(
                path=letter(index), letter=letter(index), column=name[:40], known=", ".join(COLUMNS)
            )
        if name in names:
            raise DuplicateColumn(path=letter(index), column=name)
        names.append(name)
    for column in REQUIRED:
        if column not in names:
            raise MissingColumn(path=column, column=column)
    if "deal" not in names and "final" not in names:
        raise MissingColumn(path="deal", column="deal")
    rows = []
    for number, cells in table[1:]:
        values: dict[str, str] = {}
        for index, cell in enumerate(cells):
            text = _text(cell)
            name = names[index] if index < len(names) else ""
            if not text:
                continue
            _check_cell(text, number, index)
            if name:
                values[name] = text
        rows.append(Row(number, values))
    if not rows:
        raise EmptyFile()
    return Sheet(tuple(n for n in names if n), tuple(rows))


def _check_cell(text: str, row: int, index: int) -> None:
    found = bad_char(text)
    if found:
        raise BadCell(path=f"{row}:{letter(index)}", row=row, column=letter(index), char=found)
    if len(text) > MAX_CELL:
        raise LongCell(path=f"{row}:{letter(index)}", row=row, column=letter(index), limit=MAX_CELL)
    if text.startswith("="):
        raise Formula(path=f"{row}:{letter(index)}", row=row, column=letter(index))
