"""Hostile and damaged files (issue 31 item 4): an XLSX whose XML is malformed, declares
an external entity or is a "billion laughs", a zip bomb, macros, links to other files,
and digits that are not ASCII in any column. Each is refused in words (with its row and
column where it has them), never a 500; nothing is stored."""

from __future__ import annotations

import csv
import io
import json
import struct
import zipfile

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import translation

from scorebook.history import template
from scorebook.history.checks import xlsx_reader_is_defused
from scorebook.history.models import Import, PlannedMatch
from scorebook.history.plan import plan_sheet
from scorebook.history.template import (
    ArchiveTooLarge,
    ExternalLinks,
    Macros,
    NotATemplate,
    UnsafeXml,
    read_file,
)
from scorebook.matches.models import Night
from tests.api.common import api
from tests.web.test_pages import client_for


def read_all(name: str, data: bytes):
    """The sheet with every row read (a row's refusal is raised as it is read)."""
    sheet = read_file(name, data)
    return sheet.columns, list(sheet.rows)


COLUMNS = list(template.COLUMNS)
DEAL = json.dumps({"sides": {"A": {"thirds": 14}, "B": {"thirds": 18}}, "last_trick": "B"})
GOOD = {
    "date": "2016-01-12", "table": "1", "match": "1", "game": "tressette4",
    "rules": "classic_21", "seats": "N=Nino; E=Lia; S=Maria; W=Salvo", "first_dealer": "N",
    "stake": "0.50", "currency": "EUR", "deal": DEAL, "final": "", "winner": "", "abandoned": "",
}  # fmt: skip


def workbook(rows: list[list[object]]) -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    for cells in rows:
        sheet.append(cells)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


GOOD_XLSX = workbook([COLUMNS, [GOOD[c] for c in COLUMNS]])


def rezip(data: bytes, replace: dict[str, bytes] | None = None, add=None) -> bytes:
    """``data`` (a ZIP) with some parts' contents replaced and others added."""
    replace, add = replace or {}, add or {}
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as old, zipfile.ZipFile(out, "w") as new:
        for info in old.infolist():
            new.writestr(info.filename, replace.get(info.filename, old.read(info.filename)),
                         zipfile.ZIP_DEFLATED)  # fmt: skip
        for name, content in add.items():
            new.writestr(name, content, zipfile.ZIP_DEFLATED)
    return out.getvalue()


def sheet_xml(data: bytes) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return archive.read("xl/worksheets/sheet1.xml")


SHEET = "xl/worksheets/sheet1.xml"
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


@pytest.mark.parametrize(
    ("replace", "refusal"),
    [
        ({SHEET: b"<worksheet><sheetData><row><c>"}, NotATemplate),  # cut short
        ({SHEET: sheet_xml(GOOD_XLSX)[:-40]}, NotATemplate),
        ({SHEET: b"\x00\xff not xml at all"}, NotATemplate),
        ({SHEET: XXE}, UnsafeXml),
        ({SHEET: LAUGHS}, UnsafeXml),
        ({"xl/workbook.xml": XXE}, UnsafeXml),
        ({"xl/workbook.xml": b"<workbook"}, NotATemplate),
        ({"[Content_Types].xml": LAUGHS}, UnsafeXml),
    ],
    ids=[
        "cut",
        "truncated",
        "binary",
        "xxe",
        "billion-laughs",
        "xxe-workbook",
        "broken-workbook",
        "laughs-content-types",
    ],  # fmt: skip
)
def test_damaged_or_hostile_xml_is_refused_in_words(replace, refusal):
    """Before: xml.etree's ParseError escaped _xlsx_rows (a 500); with defusedxml the
    entities are refused before they expand."""
    with pytest.raises(refusal) as refused:
        read_all("f.xlsx", rezip(GOOD_XLSX, replace))
    with translation.override("it"):
        italian = refused.value.text()
    assert italian and italian != refused.value.text()


def test_the_xlsx_reader_is_defused_and_the_system_check_says_so(monkeypatch):
    assert openpyxl.DEFUSEDXML
    assert xlsx_reader_is_defused() == []
    monkeypatch.setattr(openpyxl, "DEFUSEDXML", False)
    assert [e.id for e in xlsx_reader_is_defused()] == ["history.E001"]


def test_macros_and_links_to_other_files_are_refused():
    with pytest.raises(Macros):
        read_file("f.xlsm", rezip(GOOD_XLSX, add={"xl/vbaProject.bin": b"\x00" * 64}))
    with pytest.raises(ExternalLinks):
        read_file("f.xlsx", rezip(GOOD_XLSX, add={"xl/externalLinks/externalLink1.xml": b"<x/>"}))


def test_a_zip_bomb_is_refused_unread():
    # 2 MB of one byte packs to about 2 KB: a thousand times
    bomb = rezip(GOOD_XLSX, add={"xl/media/pad.bin": b"\x00" * (2 * 1024 * 1024)})
    with pytest.raises(ArchiveTooLarge) as refused:
        read_file("f.xlsx", bomb)
    assert refused.value.status == 413 and "pad.bin" in refused.value.text()


def test_the_unpacked_total_has_a_cap(monkeypatch):
    monkeypatch.setattr(template, "MAX_UNZIPPED", 4000)
    with pytest.raises(ArchiveTooLarge):
        read_file("f.xlsx", GOOD_XLSX)


def _lie_about_size(data: bytes, name: str, size: int) -> bytes:
    """The ZIP with ``name``'s declared unpacked size replaced in both its headers."""
    raw = bytearray(data)
    encoded = name.encode()
    for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        start = 0
        while (start := raw.find(signature, start)) != -1:
            name_at = start + (30 if signature == b"PK\x03\x04" else 46)
            if raw[name_at : name_at + len(encoded)] == encoded:
                raw[start + offset : start + offset + 4] = struct.pack("<I", size)
            start += 4
    return bytes(raw)


def test_a_part_that_unpacks_past_its_declared_size_is_a_damaged_file():
    """The reader stops at the declared size and the CRC fails: a lie is no bomb."""
    lying = _lie_about_size(GOOD_XLSX, SHEET, 100)
    with pytest.raises(NotATemplate):
        read_all("f.xlsx", lying)


def test_a_sheet_compressed_with_a_method_the_reader_lacks_is_a_damaged_file():
    raw = bytearray(GOOD_XLSX)
    start = raw.find(b"PK\x01\x02")
    while raw[start + 46 : start + 46 + len(SHEET)] != SHEET.encode():
        start = raw.find(b"PK\x01\x02", start + 4)
    raw[start + 10 : start + 12] = struct.pack("<H", 99)  # AES, which zipfile cannot read
    with pytest.raises(NotATemplate):
        read_all("f.xlsx", bytes(raw))


# -- digits that are not ASCII ----------------------------------------------------------

SQUARE, ARABIC, WIDE = "²", "٣", "３"


def csv_of(row: dict[str, str]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerow([row[c] for c in COLUMNS])
    return out.getvalue().encode()


def problems(data: bytes) -> list[tuple[int, str, str]]:
    found = plan_sheet(read_file("f", data), club_players=[], currencies=["EUR", "CHF"])
    return [(p["row"], p["column"], p["code"]) for p in found.problems]


@pytest.mark.parametrize(
    ("column", "value", "code"),
    [
        ("table", SQUARE, "import.bad_number"),  # int('²') raised: a 500 before
        ("table", "1" + SQUARE, "import.bad_number"),
        ("table", ARABIC, "import.bad_number"),  # int('٣') is 3: accepted before
        ("table", WIDE, "import.bad_number"),
        ("match", SQUARE, "import.bad_number"),
        ("match", ARABIC, "import.bad_number"),
        ("date", "２０１６-01-12", "import.bad_date"),  # strptime read it as 2016
        ("date", "2016-01-1" + ARABIC, "import.bad_date"),
        ("stake", "0." + ARABIC, "import.bad_stake"),  # Decimal('٣') is 3
        ("stake", WIDE, "import.bad_stake"),
        ("final", "A=2" + SQUARE + "; B=13", "import.bad_final"),  # int('2²'): a 500
        ("final", "A=٢١; B=13", "import.bad_final"),
        ("final", "A=２１; B=13", "import.bad_final"),
    ],
)
def test_a_digit_that_is_not_ascii_is_refused_with_row_and_column(column, value, code):
    row = {**GOOD, column: value}
    if column == "final":
        row["deal"] = ""
    assert problems(csv_of(row)) == [(2, column, code)]


@pytest.mark.parametrize("digit", [SQUARE, ARABIC, WIDE, "𝟑"])
@pytest.mark.parametrize("column", COLUMNS)
def test_every_column_with_such_digits_answers_in_words(column, digit):
    """In any column, alone or beside ASCII digits: a problem with its row and column or
    (in a name or a reason, where any letter is text) nothing; never an exception."""
    for value in (digit, "1" + digit, digit * 3):
        row = {**GOOD, column: value}
        if column == "final":
            row["deal"] = ""
        for found in problems(csv_of(row)):
            assert found[0] == 2 and found[1] in COLUMNS


# -- through the page and the API: words, nothing stored ----------------------------------


HOSTILE = {
    "xxe.xlsx": rezip(GOOD_XLSX, {SHEET: XXE}),
    "broken.xlsx": rezip(GOOD_XLSX, {SHEET: b"<worksheet><sheetData><row><c>"}),
    "bomb.xlsx": rezip(GOOD_XLSX, add={"xl/media/pad.bin": b"\x00" * (2 * 1024 * 1024)}),
    "macros.xlsm": rezip(GOOD_XLSX, add={"xl/vbaProject.bin": b"\x00" * 64}),
    "square.csv": csv_of({**GOOD, "table": SQUARE}),
}


@pytest.mark.usefixtures("eager_tasks")
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_files_through_the_api_and_the_page(
    people, name, django_capture_on_commit_callbacks
):
    """Refused at once (a zip bomb, macros: 4xx) or by the check (the task: the import
    refused, with words); never a 500, nothing of the club's record stored."""
    director = api(people, "director")
    with django_capture_on_commit_callbacks(execute=True):
        answer = director.post(
            "/api/v1/imports",
            {"club": people.club.pk, "file": SimpleUploadedFile(name, HOSTILE[name])},
            format="multipart",
        )
    assert answer.status_code in (202, 400, 413), answer.content
    if answer.status_code == 202:
        body = director.get(f"/api/v1/imports/{answer.json()['id']}").json()
        assert body["status"] == "refused"
        errors = body["problems"]
    else:
        errors = answer.json()["errors"]
    assert errors[0]["code"].startswith("import.") and errors[0]["message"]
    client = client_for(people, "director")
    with django_capture_on_commit_callbacks(execute=True):
        page = client.post(
            f"/c/{people.club.slug}/import",
            {"file": SimpleUploadedFile(name, HOSTILE[name])},
            HTTP_ACCEPT_LANGUAGE="it",
        )
    assert page.status_code in (302, 400, 413)
    if page.status_code == 302:
        shown = client.get(page["Location"], HTTP_ACCEPT_LANGUAGE="it")
        assert shown.status_code == 200 and "Righe da correggere" in shown.content.decode()
    assert set(Import.objects.values_list("status", flat=True)) <= {"refused"}
    assert not PlannedMatch.objects.exists() and not Night.objects.exists()
    assert not Import.objects.exclude(upload=None).exists()
