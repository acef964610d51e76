"""The import template read from CSV and XLSX, and the preview's checks, row by row."""

import io
import json
from datetime import date
from pathlib import Path

import openpyxl
import pytest
from django.utils import translation

from scorebook.history.plan import plan_sheet
from scorebook.history.template import (
    BadCell,
    EmptyFile,
    Formula,
    MissingColumn,
    NotATemplate,
    NotUtf8,
    TooLarge,
    UnknownColumn,
    read_file,
)


def read_all(name: str, data: bytes):
    """The sheet with every row read (a row's refusal is raised as it is read)."""
    sheet = read_file(name, data)
    return sheet.columns, list(sheet.rows)


EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "import-example.csv"
HEADER = "date,table,match,game,rules,seats,first_dealer,stake,currency,deal\n"
DEAL = json.dumps({"sides": {"A": {"thirds": 14}, "B": {"thirds": 18}}, "last_trick": "B"})


def csv_row(*cells):
    out = io.StringIO()
    import csv

    csv.writer(out, lineterminator="\n").writerow(cells)
    return out.getvalue()


def plan(data: bytes, players=(), today=None):
    return plan_sheet(
        read_file("f", data), club_players=players, currencies=["EUR", "CHF"], today=today
    )


def test_the_example_file_is_clean_and_matches_names_without_case():
    found = plan(EXAMPLE.read_bytes(), players=[(7, "NINO")])
    assert found.problems == []
    assert found.players["Nino"] == 7
    assert {n for n, pk in found.players.items() if pk is None} == {
        "Salvo",
        "Maria",
        "Lia",
        "Gino",
        "Rosa",
    }
    assert [(n["date"], n["deals"]) for n in found.nights] == [("2016-01-12", 8), ("2016-01-19", 4)]
    # the second night wrote "nino": the seat takes the file's first spelling
    assert found.nights[1]["matches"][0]["seats"]["N"] == "Nino"


def test_the_same_rows_as_xlsx_read_the_same():
    import csv

    book = openpyxl.Workbook()
    sheet = book.active
    for cells in csv.reader(io.StringIO(EXAMPLE.read_text())):
        sheet.append(cells)
    out = io.BytesIO()
    book.save(out)
    from_xlsx = plan(out.getvalue())
    assert from_xlsx.problems == []
    assert from_xlsx.nights == plan(EXAMPLE.read_bytes()).nights


def test_an_xlsx_formula_is_refused_with_its_row_and_column():
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(HEADER.strip().split(","))
    sheet.append(["2016-01-12", 1, 1, "tressette4", "", "N=a; W=b; S=c; E=d", "", "=1+1", "", DEAL])
    out = io.BytesIO()
    book.save(out)
    with pytest.raises(Formula) as refused:
        read_all("f.xlsx", out.getvalue())
    assert refused.value.params == {"row": 2, "column": "H", "letter": "H"}


@pytest.mark.parametrize(
    ("data", "refusal"),
    [
        (b"%PDF-1.4 something", NotATemplate),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 100, NotATemplate),
        (b"PK\x03\x04garbage", NotATemplate),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00", NotATemplate),
        (HEADER.encode(), EmptyFile),
        (b"", EmptyFile),
        (b"date,game,seats\n", MissingColumn),
        (b"date,game,seats,deal,colour\n", UnknownColumn),
        ((HEADER + "2016-01-12,1,1,tressette4,,N=a\x00b,,,,{}\n").encode(), BadCell),
        ((HEADER + "2016-01-12,1,1,tressette4,,N=a,,,,{}\n").encode() + b"\xed\xa0\x80", NotUtf8),
        ((HEADER + "=HYPERLINK(1),1,1,tressette4,,N=a,,,,{}\n").encode(), Formula),
    ],
)
def test_what_is_not_a_template_is_refused_in_words(data, refusal):
    with pytest.raises(refusal) as refused:
        read_all("f", data)
    with translation.override("it"):
        assert refused.value.text()


def test_a_file_above_the_limit_is_refused_before_it_is_read(settings):
    settings.IMPORT_MAX_BYTES = 1000
    with pytest.raises(TooLarge):
        read_file("f", b"x" * 1001)


def test_a_bad_control_character_names_row_and_column():
    data = HEADER + csv_row("2016-01-12", 1, 1, "tressette4", "", "N=a\x07", "", "", "", DEAL)
    with pytest.raises(BadCell) as refused:
        read_all("f", data.encode())
    assert refused.value.params["row"] == 2 and refused.value.params["column"] == "F"


def rows(*lines):
    return (HEADER + "".join(csv_row(*line) for line in lines)).encode()


SEATS = "N=Nino; W=Salvo; S=Maria; E=Lia"


COLUMNS = "date table match game rules seats first_dealer stake currency deal".split()
GOOD = dict(
    zip(COLUMNS, ("2016-01-12", 1, 1, "tressette4", "", SEATS, "", "", "", DEAL), strict=True)
)
SHORT = '{"sides": {"A": {"thirds": 14}, "B": {"thirds": 17}}, "last_trick": "B"}'


@pytest.mark.parametrize(
    ("column", "value", "code"),
    [
        ("date", "2099-01-01", "import.future_date"),
        ("date", "yesterday", "import.bad_date"),
        ("game", "scopa", "game.unknown"),
        ("rules", "nope", None),
        ("seats", "P1=a; P2=b", None),
        ("seats", "N=a; W=A; S=c; E=d", "import.same_player_twice"),
        ("first_dealer", "X", None),
        ("stake", "1.234", "import.bad_stake"),
        ("currency", "USD", "import.bad_currency"),
        ("table", "x", "import.bad_number"),
        ("deal", "[1]", "import.not_a_deal"),
        ("deal", SHORT, "capture.thirds_total"),
    ],
)
def test_each_refusal_names_the_row_and_column(column, value, code):
    line = {**GOOD, column: value}
    found = plan(rows(tuple(line.values())), today=date(2026, 1, 1))
    assert found.problems, found.nights
    first = found.problems[0]
    assert (first["row"], first["column"]) == (2, column)
    assert first["letter"] == "ABCDEFGHIJ"[COLUMNS.index(column)]
    if code:
        assert first["code"] == code
    assert first["message"]["en"] and first["message"]["it"]
    assert not found.ok


@pytest.mark.parametrize("value", ["", "  ", ";"])
def test_a_first_row_without_seats_says_what_is_missing(value):
    """A match's first row with its seats cell empty said "Write the seats as seat=name
    pairs separated by ';' (N=Nino; E=Salvo): " and nothing after the colon (seen on the
    import page's screenshot at 390 px, tests/e2e/test_import_page.py)."""
    found = plan(rows(tuple({**GOOD, "seats": value}.values())), today=date(2026, 1, 1))
    first = found.problems[0]
    assert (first["row"], first["column"], first["code"]) == (2, "seats", "import.bad_seats")
    assert first["message"]["en"].endswith(
        "the cell is empty, and a match's first row names its seats"
    )
    assert first["message"]["it"].endswith(
        "la cella è vuota, e la prima riga di una partita ne nomina i posti"
    )


def test_the_engine_speaks_italian_too():
    bad = '{"sides": {"A": {"thirds": 14}, "B": {"thirds": 17}}, "last_trick": "B"}'
    found = plan(rows(("2016-01-12", 1, 1, "tressette4", "", SEATS, "", "", "", bad)))
    assert "terzi" in found.problems[0]["message"]["it"]


def test_a_later_row_that_contradicts_its_match_is_refused():
    found = plan(
        rows(
            ("2016-01-12", 1, 1, "tressette4", "", SEATS, "", "", "", DEAL),
            ("2016-01-12", 1, 1, "tressette2", "", "", "", "", "", DEAL),
        )
    )
    assert [(p["row"], p["column"], p["code"]) for p in found.problems] == [
        (3, "game", "import.match_value_differs")
    ]


def test_already_imported_nights_are_marked():
    first = plan(EXAMPLE.read_bytes())
    again = plan_sheet(
        read_file("f", EXAMPLE.read_bytes()),
        club_players=[],
        currencies=["EUR"],
        imported=[first.nights[0]["fingerprint"]],
    )
    assert [n["already"] for n in again.nights] == [True, False]
