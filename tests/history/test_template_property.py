"""A property of the template's reader and the preview (issue 31): whatever the bytes (the
example file cut, its bits flipped, bytes put in, cells of hostile values, a workbook's
parts damaged), reading them and checking every row raises nothing but a refusal; a
problem of a row names its row and a column of the template."""

from __future__ import annotations

import csv
import io
import zipfile

import openpyxl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deploy.checks.fuzz_files import EXAMPLE, SHEET, as_xlsx, example_rows, rezip
from scorebook.core.refusals import Refusal
from scorebook.history.plan import plan_sheet
from scorebook.history.template import COLUMNS, read_file
from scorebook.rules import Rejection

ROWS = example_rows()
XLSX = as_xlsx(ROWS)
HOSTILE_CELLS = st.sampled_from(
    [
        "²",
        "٣",
        "３",
        "1²",
        "A=٢١; B=13",
        "=1+1",
        "\x00",
        "\x07",
        "\ud800",
        "9" * 4400,
        "",
        "[" * 2000,
        '{"sides": 1}',
        "N=a; N=b",
        "2016-02-30",
        "-1",
        "0.001",
        "x" * 21_000,
        '{"t4.target": "٣١"}',
        "P1=a",
        "yes",
        "sì",
    ]  # fmt: skip
) | st.text(max_size=40)


def check(data: bytes) -> None:
    """Read and check ``data``: a refusal, or a plan whose problems name rows."""
    try:
        sheet = read_file("f", data)
        plan = plan_sheet(sheet, club_players=[(1, "Nino")], currencies=["EUR", "CHF"])
    except (Refusal, Rejection):
        return
    for problem in plan.problems:
        assert isinstance(problem["row"], int) and problem["row"] >= 2
        assert problem["column"] in COLUMNS, problem
        assert problem["message"]["en"] and problem["message"]["it"]


@st.composite
def mutated(draw, original: bytes) -> bytes:
    data = bytearray(original)
    for _ in range(draw(st.integers(1, 4))):
        how = draw(st.sampled_from(["cut", "flip", "insert", "delete"]))
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        if how == "cut":
            del data[at:]
        elif how == "flip" and data:
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif how == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif data:
            del data[at : at + draw(st.integers(1, 16))]
    return bytes(data)


FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(mutated(EXAMPLE))
def test_a_damaged_csv_is_read_or_refused(data):
    check(data)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(XLSX))
def test_a_damaged_workbook_is_read_or_refused(data):
    check(data)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(zipfile.ZipFile(io.BytesIO(XLSX)).read(SHEET)))
def test_a_damaged_sheet_inside_a_sound_archive_is_read_or_refused(xml):
    check(rezip(XLSX, {SHEET: xml}))


@FAST
@given(
    st.integers(1, len(ROWS) - 1),
    st.integers(0, len(ROWS[0]) - 1),
    HOSTILE_CELLS,
    st.sampled_from(["csv", "xlsx"]),
)
def test_a_hostile_value_in_any_cell_is_read_or_refused(row, column, value, kind):
    rows = [list(r) for r in ROWS]
    rows[row][column] = value
    if kind == "csv":
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerows(rows)
        data = out.getvalue().encode("utf-8", "surrogatepass")
    else:
        try:
            data = as_xlsx(rows)
        except (ValueError, openpyxl.utils.exceptions.IllegalCharacterError):
            return  # openpyxl will not write it: no workbook can hold it
    check(data)
