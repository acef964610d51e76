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

import codecs
import csv
import io
import logging
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from scorebook.core.inputs import bad_char
from scorebook.core.refusals import Refusal

log = logging.getLogger(__name__)

#: The template's columns, in the order the example file writes them.
COLUMNS = ("date", "table", "match", "game", "rules", "seats", "first_dealer", "stake",
           "currency", "deal", "final", "winner", "abandoned")  # fmt: skip
#: In ``abandoned``, a match abandoned without a reason (any of these, without case); any
#: other text there is the reason the match was abandoned.
ABANDONED_NO_REASON = "yes"
ABANDONED_WORDS = frozenset({"yes", "sì", "si", "true", "x"})
#: ``deal`` or ``final`` is required too: a file holds deals, final scores or both.
REQUIRED = ("date", "game", "seats")
#: The most rows one file may hold (a 10-year club has about 20,000 deals).
MAX_ROWS = 100_000
#: An XLSX is a ZIP: the most its parts may expand to (a "zip bomb" is refused unread).
#: A workbook of MAX_ROWS rows of deals unpacks to about 60 MB.
MAX_UNZIPPED = 150 * 1024 * 1024
#: The most parts an XLSX may have (Excel writes about 10; each is a listing entry).
MAX_PARTS = 500
#: How many times its packed size a part above MAX_RATIO_ABOVE bytes may unpack to (a
#: sheet of deals packs about 12 times; a zip bomb about 1,000 times).
MAX_RATIO = 100
MAX_RATIO_ABOVE = 1024 * 1024
#: The shared strings are read whole (the sheet itself streams): their most, unpacked.
MAX_SHARED = 40 * 1024 * 1024
#: The longest cell (a play record in JSON is a few KB).
MAX_CELL = 20_000


class TemplateRefusal(Refusal):
    code = "import.refused"
    message = _("This file cannot be imported.")


class TooLarge(TemplateRefusal):
    code = "import.too_large"
    status = 413
    message = _("The file is %(size)s MB: the most an import takes is %(limit)s MB.")


class ArchiveTooLarge(TemplateRefusal):
    code = "import.archive_too_large"
    status = 413
    message = _(
        "This workbook is refused unread: %(detail)s, and the most an import unpacks is "
        "%(limit)s MB (a file made to swell when opened). Save it as CSV and try again."
    )


class Macros(TemplateRefusal):
    code = "import.macros"
    message = _(
        "This workbook holds macros (an .xlsm): the import reads no macros. Save it as an "
        "Excel Workbook (.xlsx) or as CSV and try again."
    )


class ExternalLinks(TemplateRefusal):
    code = "import.external_links"
    message = _(
        "This workbook links to other files: the import takes values only. Copy the cells, "
        "paste them as values, save and try again."
    )


class UnsafeXml(TemplateRefusal):
    code = "import.unsafe_xml"
    message = _(
        "This workbook's XML declares entities (external files or text that expands): a "
        "spreadsheet program never writes them, so the file is refused unread. Save it "
        "again from the spreadsheet program, or as CSV."
    )


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
    """The file's columns (its header, checked) and its rows below, read as they are
    iterated (once): a cell refused on the way (a control character, a formula, too
    long, too many rows) raises its refusal then. ``size_hint`` is about how many rows
    the file holds (0: not known before reading), for a progress bar."""

    columns: tuple[str, ...]
    rows: Iterable[Row]
    size_hint: int = 0


def _words(template: Any, **params: Any) -> Any:
    """``template % params`` in the language active when it is read (a refusal's detail
    may be read in English and in Italian: the preview keeps both)."""
    return lazy(lambda: str(template) % params, str)()


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


def screen(data: bytes) -> str:
    """The checks a file gets before it is kept for its preview, quick whatever its size:
    its size, what it is (``"csv"`` or ``"xlsx"``, told by its content, not its name), a
    workbook's archive (macros, links, a zip bomb), a CSV's encoding. Raises the
    refusal; the rows are read later (``read_file``)."""
    check_size(len(data))
    if data[:4] == b"PK\x03\x04":
        _check_archive(data)
        return "xlsx"
    if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        raise NotATemplate(detail=_("an old Excel .xls: save it as .xlsx or CSV"))
    if data[:5] == b"%PDF-":
        raise NotATemplate(detail="PDF")
    if data[:8] == b"\x89PNG\r\n\x1a\n" or data[:3] == b"\xff\xd8\xff":
        raise NotATemplate(detail=_("an image"))
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise NotATemplate(detail=_("UTF-16 text: save it as CSV UTF-8"))
    if data[:4096].count(b"\x00") > 8:  # an image, a binary; a stray NUL is a cell's
        raise NotATemplate(detail=_("binary data"))
    _check_utf8(data)
    return "csv"


def read_file(name: str, data: bytes) -> Sheet:
    """The sheet in ``data``: its header read and checked now, its rows as they are
    iterated (a file is never held twice: the rows stream from ``data``)."""
    kind = screen(data)
    table = _xlsx_rows(data) if kind == "xlsx" else _csv_rows(data)
    return _sheet(table, size_hint=next(table))


def check_size(size: int | None) -> None:
    """Refuse a file of ``size`` bytes above the import's limit (``IMPORT_MAX_BYTES``):
    the upload's size is checked before its bytes are read (the page, the API)."""
    if size is not None and size > max_bytes():
        raise TooLarge(size=_mb(size), limit=_mb(max_bytes()))


def _mb(size: int) -> float | int:
    """``size`` bytes in MB, to a tenth (a whole number without ``.0``): a number in the
    refusal's params, as its words write it."""
    mb = round(size / (1024 * 1024), 1)
    return int(mb) if mb.is_integer() else mb


def _check_utf8(data: bytes) -> None:
    """UTF-8 throughout (a BOM allowed), checked a piece at a time: the first bad byte's
    line is the row the refusal names."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    step = 1 << 16
    for start in range(0, len(data), step):
        piece = data[start : start + step]
        try:
            decoder.decode(piece, final=start + step >= len(data))
        except UnicodeDecodeError as bad:
            where = start + max(bad.start, 0)
            raise NotUtf8(row=data[:where].count(b"\n") + 1) from None
    try:
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        raise NotUtf8(row=data.count(b"\n") + 1) from None


def _csv_rows(data: bytes) -> Iterator[Any]:
    """First about how many rows there are, then each record as (its number, its
    cells), decoded as it is read."""
    first = data[: data.find(b"\n") if b"\n" in data else len(data)]
    delimiter = ";" if first.count(b";") > first.count(b",") else ","
    yield data.count(b"\n")
    text = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig", newline="")
    reader = csv.reader(text, delimiter=delimiter, strict=True)
    # The record's number in the file: csv counts the lines it read (a cell may span
    # several); a spreadsheet numbers records, which is what the director sees.
    number = 0
    try:
        for cells in reader:
            number += 1
            if number > MAX_ROWS + 1:
                raise TooManyRows(limit=MAX_ROWS)
            yield number, cells
    except csv.Error as error:
        raise NotATemplate(detail=str(error)[:120]) from None


def _xlsx_rows(data: bytes) -> Iterator[Any]:
    """First about how many rows there are (the sheet's declared size), then each row
    as (its number, its values), streamed by openpyxl's read-only reader."""
    import openpyxl

    if not openpyxl.DEFUSEDXML:  # the system check history.E001 says so at start-up too
        raise RuntimeError("openpyxl does not parse through defusedxml")
    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    except Exception as error:  # noqa: BLE001 - hostile bytes: whatever the reader raises
        raise _damaged(error) from None
    try:
        try:
            sheet = book.worksheets[0] if book.worksheets else None
            hint = (sheet.max_row or 0) if sheet is not None else 0
        except Exception as error:  # noqa: BLE001 - a damaged dimension, say
            raise _damaged(error) from None
        yield min(int(hint), MAX_ROWS + 1)
        cells_of = sheet.iter_rows() if sheet is not None else iter(())
        number = 0
        while True:
            try:
                cells = next(cells_of, None)
            except Exception as error:  # noqa: BLE001 - a damaged sheet, read as it streams
                raise _damaged(error) from None
            if cells is None:
                break
            number += 1
            if number > MAX_ROWS + 1:
                raise TooManyRows(limit=MAX_ROWS)
            values = []
            for index, cell in enumerate(cells):
                if getattr(cell, "data_type", None) == "f":
                    raise Formula(**_cell(number, index))
                values.append(getattr(cell, "value", None))
            yield number, values
    finally:
        book.close()


def _check_archive(data: bytes) -> None:
    """An XLSX is a ZIP of XML parts: refused before any part is read when it is not a
    workbook, holds macros or links to other files, or would unpack too large (a "zip
    bomb": the sizes each part declares are what the reader will unpack at most, since
    ``zipfile`` stops there and checks the CRC)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            parts = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError, OSError):
        raise NotATemplate(detail=_("a damaged ZIP")) from None
    if len(parts) > MAX_PARTS:
        raise ArchiveTooLarge(
            detail=_words(_("%(n)s parts"), n=len(parts)), limit=_mb(MAX_UNZIPPED)
        )
    names = {part.filename.lower() for part in parts}
    if "xl/workbook.xml" not in names:
        raise NotATemplate(detail=_("a ZIP that is not an Excel workbook"))
    if any(name.endswith("vbaproject.bin") for name in names):
        raise Macros()
    if any(name.startswith("xl/externallinks/") for name in names):
        raise ExternalLinks()
    total = 0
    for part in parts:
        total += part.file_size
        packed = max(part.compress_size, 1)
        if part.file_size > MAX_RATIO_ABOVE and part.file_size / packed > MAX_RATIO:
            raise ArchiveTooLarge(
                detail=_words(
                    _("%(part)s unpacks %(ratio)s times its packed size"),
                    part=part.filename[:60],
                    ratio=part.file_size // packed,
                ),
                limit=_mb(MAX_UNZIPPED),
            )
        if part.filename.lower() == "xl/sharedstrings.xml" and part.file_size > MAX_SHARED:
            raise ArchiveTooLarge(
                detail=_words(
                    _("its shared strings unpack to %(size)s MB"), size=_mb(part.file_size)
                ),
                limit=_mb(MAX_UNZIPPED),
            )
    if total > MAX_UNZIPPED:
        raise ArchiveTooLarge(
            detail=_words(_("it unpacks to %(size)s MB"), size=_mb(total)), limit=_mb(MAX_UNZIPPED)
        )


def _damaged(error: Exception) -> TemplateRefusal:
    """What the XLSX reader raised, as a refusal in words: XML that declares entities
    (an external entity, a "billion laughs") is refused by defusedxml before it expands;
    any other error of a hostile or broken workbook is a damaged file, never a 500."""
    from defusedxml import DefusedXmlException

    log.info("XLSX refused: %s: %s", type(error).__name__, str(error)[:200])
    if isinstance(error, TemplateRefusal):
        return error
    chain: list[BaseException] = []  # openpyxl wraps what its XML parser raised
    found: BaseException | None = error
    while found is not None and len(chain) < 10:
        chain.append(found)
        found = found.__cause__ or found.__context__
    if any(isinstance(e, DefusedXmlException) for e in chain):
        return UnsafeXml()
    if any(isinstance(e, SyntaxError) for e in chain):  # xml.etree's ParseError is one
        return NotATemplate(detail=_("damaged XML in the workbook"))
    return NotATemplate(
        detail=_words(_("a damaged workbook (%(error)s)"), error=type(error).__name__)
    )


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


def _sheet(table: Iterator[Any], size_hint: int) -> Sheet:
    """The header (the first row that is not blank) checked now; the rows below it
    checked as they are read. Blank rows are skipped."""
    header: tuple[int, list[Any]] | None = None
    for number, cells in table:
        if any(_text(c) for c in cells):
            header = (number, cells)
            break
    if header is None:
        raise EmptyFile()
    header_number, cells = header
    names: list[str] = []
    for index, cell in enumerate(cells):
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
    return Sheet(tuple(n for n in names if n), _rows(table, names), max(size_hint - 1, 0))


def _rows(table: Iterator[Any], names: list[str]) -> Iterator[Row]:
    found = 0
    for number, cells in table:
        values: dict[str, str] = {}
        blank = True
        for index, cell in enumerate(cells):
            text = _text(cell)
            if not text:
                continue
            blank = False
            _check_cell(text, number, index)
            name = names[index] if index < len(names) else ""
            if name:
                values[name] = text
        if not blank:
            found += 1
            yield Row(number, values)
    if not found:
        raise EmptyFile()


def _check_cell(text: str, row: int, index: int) -> None:
    found = bad_char(text)
    if found:
        raise BadCell(**_cell(row, index), char=found)
    if len(text) > MAX_CELL:
        raise LongCell(**_cell(row, index), limit=MAX_CELL)
    if text.startswith("="):
        raise Formula(**_cell(row, index))


def _cell(row: int, index: int) -> dict[str, Any]:
    """A cell refused as the file is read: its path and params (its column is its
    letter: the header may not be read yet)."""
    return {"path": f"{row}:{letter(index)}", "row": row, "column": letter(index),
            "letter": letter(index)}  # fmt: skip
