"""The preview reads a file as it streams (issue 31 item 4): rows are read once, a match
leaves memory as soon as it is over, and what a later row of it is checked against stays
(the same refusals as when every match was kept)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from scorebook.history.plan import fingerprint, plan_sheet
from scorebook.history.template import Row, Sheet, read_file
from scorebook.rules import get_game

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "import-example.csv"
HEADER = ["date", "table", "match", "game", "rules", "seats", "first_dealer", "stake",
          "currency", "deal", "final", "abandoned"]  # fmt: skip
SEATS = "N=Nino; E=Lia; S=Maria; W=Salvo"


def finished_match_deals() -> list[str]:
    """The deals of one Tressette in pairs to 21 played to its end (A always 18)."""
    game = get_game("tressette4")
    rules = game.rules({"profile": "classic_21"})
    state = game.new_match(rules, 4)
    deals = []
    while not state.finished:
        deal = {"sides": {"A": {"thirds": 18}, "B": {"thirds": 14}}, "last_trick": "A"}
        game.add_deal(state, deal, rules)
        deals.append(json.dumps(deal))
    return deals


def csv_of(rows: list[list[str]]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADER)
    writer.writerows(rows)
    return out.getvalue().encode()


def row(table: int, deal: str = "", final: str = "", first=True, **cells) -> list[str]:
    values = {
        "date": "2016-01-12", "table": str(table), "match": "1", "game": "tressette4",
        "rules": "classic_21" if first else "", "seats": SEATS if first else "",
        "first_dealer": "", "stake": "", "currency": "", "deal": deal, "final": final,
        "abandoned": "", **cells,
    }  # fmt: skip
    return [values[c] for c in HEADER]


def test_a_match_goes_to_the_sink_as_soon_as_it_is_over():
    deals = finished_match_deals()
    rows = [row(1, deals[0])] + [row(1, d, first=False) for d in deals[1:]]
    rows += [row(2, final="A=21; B=13")] + [row(3, d, first=i == 0) for i, d in enumerate(deals)]
    sheet = read_file("f", csv_of(rows))
    read: list[int] = []

    def counted():
        for found in sheet.rows:
            read.append(found.number)
            yield found

    when: list[tuple[int, int, int]] = []
    plan = plan_sheet(
        Sheet(sheet.columns, counted()),
        club_players=[],
        currencies=["EUR"],
        sink=lambda day, match: when.append((match["table"], len(read), len(match["deals"]))),
    )
    assert plan.ok and plan.nights == []  # the sink has them
    last_of_first = len(deals) + 1  # the header is row 1
    assert when == [
        (1, last_of_first - 1, len(deals)),  # out when its last deal was read
        (2, last_of_first, 0),
        (3, len(rows), len(deals)),
    ]


def test_a_later_row_of_a_match_that_is_over_is_refused_as_before():
    """The match is out of memory; its later rows meet the same refusals: the engine's
    'the match is over', a final score after its deals, a different describing value."""
    deals = finished_match_deals()
    rows = [row(1, deals[0])] + [row(1, d, first=False) for d in deals[1:]]
    rows += [row(2, final="A=21; B=13")]
    rows += [row(1, deals[0], first=False)]  # a deal after the end
    rows += [row(2, deals[0], first=False)]  # a deal after a final score
    rows += [row(1, final="A=21; B=3", first=False, rules="accuso_41")]
    plan = plan_sheet(read_file("f", csv_of(rows)), club_players=[], currencies=["EUR"])
    found = [(p["row"], p["column"], p["code"]) for p in plan.problems]
    end = len(deals) + 2
    assert found == [
        (end + 1, "deal", "match.finished"),
        (end + 2, "deal", "import.mixed_match"),
        (end + 3, "rules", "import.match_value_differs"),
        (end + 3, "deal", "import.not_checked"),
    ]


def test_an_abandoned_match_the_file_finishes_is_refused_once():
    deals = finished_match_deals()
    rows = [row(1, deals[0], abandoned="Forfeit")]
    rows += [row(1, d, first=False) for d in deals[1:]] + [row(1, deals[0], first=False)]
    plan = plan_sheet(read_file("f", csv_of(rows)), club_players=[], currencies=["EUR"])
    found = [(p["row"], p["column"], p["code"]) for p in plan.problems]
    assert found == [(len(deals) + 2, "deal", "match.finished"), (2, "abandoned",
                     "import.abandoned_finished")]  # fmt: skip


def test_the_nights_are_those_of_every_match_kept():
    """Without a sink the nights are built as before: the example's fingerprints are
    those of the JSON of each whole night."""
    plan = plan_sheet(read_file("f", EXAMPLE.read_bytes()), club_players=[], currencies=["EUR"])
    for night in plan.nights:
        assert night["fingerprint"] == fingerprint(night)
        assert night["count"] == len(night["matches"])
    assert [n["final_scores"] for n in plan.nights] == [0, 1]


def test_a_file_is_read_once_as_its_rows_are_asked_for():
    sheet = read_file("f", EXAMPLE.read_bytes())
    assert not isinstance(sheet.rows, list | tuple)
    first = next(iter(sheet.rows))
    assert isinstance(first, Row) and first.number == 2
    assert sheet.size_hint == EXAMPLE.read_bytes().count(b"\n") - 1
