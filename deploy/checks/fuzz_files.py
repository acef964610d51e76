"""The import's file fuzzer (issue 31): hostile and damaged CSV and XLSX files, sent by
`make fuzz-pages` through the upload page and by `make fuzz` through the API.

The files are made from the template's example (docs/import-example.csv) and from a
workbook of it: truncated at many points, bits flipped, the wrong encodings (UTF-16 with
and without a BOM, Latin-1, a UTF-8 BOM), a huge cell, thousands of columns, formulas,
digits that are not ASCII (``²``, ``٣``, ``３``) in every column, zip bombs (a part that
unpacks a thousand times its size, too many parts, a lying declared size), macros, links
to other files, malformed XML, an external entity (XXE), a "billion laughs", and sizes
around the import's limit. The same seed gives the same files.

``run_files`` sends each one, follows its check to its end and reads every answer: the
caller counts a 5xx as a failure (and gunicorn's access log is read at the end as well),
and checks that nothing of the club's record was stored by a refused file.
"""

from __future__ import annotations

import csv
import io
import random
import struct
import time
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "docs" / "import-example.csv").read_bytes()
SHEET = "xl/worksheets/sheet1.xml"
DIGITS = ("²", "٣", "３", "𝟑")
XXE = (
    b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
    b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    b'<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&e;</t></is></c></row>'
    b"</sheetData></worksheet>"
)
LAUGHS = (
    b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">'
    + b"".join(
        b'<!ENTITY %s "%s">' % (bytes([98 + i]), (b"&" + bytes([97 + i]) + b";") * 10)
        for i in range(8)
    )
    + b']><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    b'<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&i;</t></is></c></row>'
    b"</sheetData></worksheet>"
)


def example_rows() -> list[list[str]]:
    return list(csv.reader(io.StringIO(EXAMPLE.decode())))


def as_csv(rows: list[list[str]]) -> bytes:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue().encode()


def as_xlsx(rows: list[list[Any]]) -> bytes:
    import openpyxl

    book = openpyxl.Workbook()
    for cells in rows:
        book.active.append(cells)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def rezip(data: bytes, replace=None, add=None, method=zipfile.ZIP_DEFLATED) -> bytes:
    replace, add = replace or {}, add or {}
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as old, zipfile.ZipFile(out, "w") as new:
        for info in old.infolist():
            new.writestr(info.filename, replace.get(info.filename, old.read(info.filename)), method)
        for name, content in add.items():
            new.writestr(name, content, method)
    return out.getvalue()


def lie_about_size(data: bytes, name: str, size: int) -> bytes:
    raw, encoded = bytearray(data), name.encode()
    for signature, offset, at in ((b"PK\x03\x04", 22, 30), (b"PK\x01\x02", 24, 46)):
        start = 0
        while (start := raw.find(signature, start)) != -1:
            if raw[start + at : start + at + len(encoded)] == encoded:
                raw[start + offset : start + offset + 4] = struct.pack("<I", size)
            start += 4
    return bytes(raw)


def files(seed: int = 31, limit_bytes: int = 10 * 1024 * 1024) -> Iterator[tuple[str, bytes]]:
    """(a name saying what it is, the file's bytes), the same for the same seed."""
    rng = random.Random(seed)
    rows = example_rows()
    header = rows[0]
    good_xlsx = as_xlsx(rows)
    yield "example.csv", EXAMPLE
    yield "example.xlsx", good_xlsx
    # truncations and flipped bits, both kinds
    for kind, data in (("csv", EXAMPLE), ("xlsx", good_xlsx)):
        for cut in sorted(rng.sample(range(1, len(data)), 12)):
            yield f"cut-{cut}.{kind}", data[:cut]
        for flips in (1, 3, 20):
            for _ in range(4):
                raw = bytearray(data)
                for _ in range(flips):
                    raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
                yield f"flipped-{flips}.{kind}", bytes(raw)
    # encodings
    text = EXAMPLE.decode()
    yield "utf16-bom.csv", text.encode("utf-16")
    yield "utf16le.csv", text.encode("utf-16-le")
    yield "utf8-bom.csv", b"\xef\xbb\xbf" + EXAMPLE
    yield "latin1.csv", text.replace("Nino", "Niñò").encode("latin-1")
    yield "cp1252-semicolons.csv", text.replace(",", ";").replace("Lia", "Lìa").encode("cp1252")
    yield "lone-surrogate.csv", EXAMPLE + b"2016-01-12,1,1,tressette4,,N=\xed\xa0\x80,,,,{}\n"
    # sizes and shapes
    yield "huge-cell.csv", as_csv([header, ["2016-01-12", "1", "1", "x" * 25_000]])
    yield "huge-field.csv", as_csv([header, ["2016-01-12", "1", "1", "x" * 200_000]])
    yield "many-columns.csv", as_csv([header + [""] * 5000, ["2016-01-12"] * 5000])
    yield "many-named-columns.csv", as_csv([header + [f"c{i}" for i in range(3000)]])
    yield "header-only.csv", as_csv([header])
    yield "empty.csv", b""
    yield "blank-lines.csv", b"\n\n\n" + EXAMPLE
    yield "nul.csv", EXAMPLE.replace(b"Nino", b"Ni\x00no", 1)
    yield "deep-json.csv", as_csv([header, rows[1][:9] + ["[" * 3000 + "]" * 3000, ""]])
    yield "long-number.csv", as_csv([header, rows[1][:9] + ['{"sides": ' + "9" * 5000 + "}", ""]])
    padding = b"\n" * (limit_bytes - len(EXAMPLE))
    yield "at-the-limit.csv", EXAMPLE + padding
    yield "one-byte-over.csv", EXAMPLE + padding + b"\n"
    yield "two-mb-over.csv", EXAMPLE + padding + b"\n" * (2 * 1024 * 1024)
    # formulas
    formula = [list(r) for r in rows]
    formula[1][7] = "=1+1"
    yield "formula.csv", as_csv(formula)
    yield "formula.xlsx", as_xlsx(formula)
    yield "hyperlink.csv", as_csv([header, ['=HYPERLINK("http://x")'] + rows[1][1:]])
    # digits that are not ASCII, in every column, as CSV and XLSX
    for index, column in enumerate(header):
        for digit in DIGITS:
            changed = [list(r) for r in rows]
            changed[1][index] = rng.choice([digit, "1" + digit, digit * 3, f"A={digit}; B=1"])
            yield f"digit-{column}-{ord(digit):x}.csv", as_csv(changed)
        changed = [list(r) for r in rows]
        changed[1][index] = "٣"
        yield f"digit-{column}.xlsx", as_xlsx(changed)
    # hostile workbooks
    sheet = zipfile.ZipFile(io.BytesIO(good_xlsx)).read(SHEET)
    yield "xxe.xlsx", rezip(good_xlsx, {SHEET: XXE})
    yield "xxe-workbook.xlsx", rezip(good_xlsx, {"xl/workbook.xml": XXE})
    yield "billion-laughs.xlsx", rezip(good_xlsx, {SHEET: LAUGHS})
    yield "laughs-content-types.xlsx", rezip(good_xlsx, {"[Content_Types].xml": LAUGHS})
    yield "malformed-sheet.xlsx", rezip(good_xlsx, {SHEET: b"<worksheet><sheetData><row><c>"})
    yield "truncated-sheet.xlsx", rezip(good_xlsx, {SHEET: sheet[: len(sheet) // 2]})
    yield (
        "binary-sheet.xlsx",
        rezip(good_xlsx, {SHEET: bytes(rng.randrange(256) for _ in range(500))}),
    )
    yield "malformed-workbook.xlsx", rezip(good_xlsx, {"xl/workbook.xml": b"<workbook"})
    yield "no-workbook.xlsx", good_xlsx.replace(b"xl/workbook.xml", b"xl/workbook.xmx")
    yield "bomb.xlsx", rezip(good_xlsx, add={"xl/media/pad.bin": b"\x00" * (8 * 1024 * 1024)})
    yield "bomb-sheet.xlsx", rezip(good_xlsx, {SHEET: sheet + b" " * (8 * 1024 * 1024)})
    yield "many-parts.xlsx", rezip(good_xlsx, add={f"xl/p{i}.xml": b"<x/>" for i in range(600)})
    yield "lying-size.xlsx", lie_about_size(good_xlsx, SHEET, 64)
    yield "stored.xlsx", rezip(good_xlsx, method=zipfile.ZIP_STORED)
    yield (
        "macros.xlsm",
        rezip(good_xlsx, add={"xl/vbaProject.bin": b"\xd0\xcf\x11\xe0" + b"\x00" * 60}),
    )
    yield (
        "external-link.xlsx",
        rezip(good_xlsx, add={"xl/externalLinks/externalLink1.xml": b"<x/>"}),
    )
    empty = b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    yield "empty-sheet.xlsx", rezip(good_xlsx, {SHEET: empty + b"<sheetData/></worksheet>"})
    # not a spreadsheet at all
    yield "old.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(200)
    yield "doc.pdf", b"%PDF-1.7\n" + bytes(100)
    yield "image.png", b"\x89PNG\r\n\x1a\n" + bytes(100)
    yield "random.bin", bytes(rng.randrange(256) for _ in range(4096))
    yield "zip-of-nothing.zip", rezip(as_xlsx([["a"]]))[:30]


def run_files(
    send: Callable[[str, bytes], Any],
    follow: Callable[[Any], Any],
    stored: Callable[[], dict[str, int]],
    *,
    seconds: float = 300,
    seed: int = 31,
    limit_bytes: int = 10 * 1024 * 1024,
) -> dict[str, Any]:
    """Send every file (``send(name, data)`` answers the upload; ``follow(answer)`` the
    check's outcome once it is done), and count: the statuses, the checks' outcomes,
    the 5xx, and anything of the club's record (``stored()``, row counts) that changed
    while files were refused. A valid file's preview is never accepted: nothing of the
    club's record may change at all."""
    statuses: Counter[int] = Counter()
    outcomes: Counter[str] = Counter()
    failures: list[str] = []
    before = stored()
    deadline = time.monotonic() + seconds
    sent = 0
    for name, data in files(seed, limit_bytes):
        if time.monotonic() > deadline:
            break
        answer = send(name, data)
        sent += 1
        status = getattr(answer, "status_code", 0)
        statuses[status] += 1
        if status >= 500 or status == 0:
            failures.append(f"{status} on the upload of {name}")
            continue
        outcome, final_status = follow(answer)
        outcomes[outcome] += 1
        if final_status >= 500:
            failures.append(f"{final_status} on the check of {name}")
    after = stored()
    changed = {t: after[t] - before[t] for t in after if after[t] != before.get(t)}
    return {"sent": sent, "statuses": statuses, "outcomes": outcomes, "failures": failures,
            "stored": changed}  # fmt: skip


def club_record_counter():
    """Row counts of the club's record: every table of the project's apps but the
    import's own (a refused file leaves its import, refused, with its problems) and the
    audit log. After django.setup()."""
    from deploy.checks.fuzz_pages import row_counter

    count = row_counter()

    def record() -> dict[str, int]:
        return {t: n for t, n in count().items() if not t.startswith("history_")}

    return record


def leftovers() -> list[str]:
    """What a refused file must not have left: its upload, planned matches."""
    from scorebook.history.models import Import, PlannedMatch

    found = []
    refused = Import.objects.filter(status=Import.Status.REFUSED)
    if refused.exclude(upload=None).exists():
        found.append("a refused import kept its file")
    if PlannedMatch.objects.filter(batch__in=refused).exists():
        found.append("a refused import kept planned matches")
    if Import.objects.filter(status=Import.Status.CHECKING).exists():
        found.append("a check never ended")
    return found
