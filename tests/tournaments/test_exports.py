"""A tournament on paper: the standings CSV is formula-safe, the PDFs print names as
written (never markup), the table cards carry a QR code of each table's match."""

import pytest

from scorebook.tournaments import exports, services

from .helpers import open_night, play_round, with_pairs


@pytest.fixture
def played(people):
    t = with_pairs(people, open_night(people), 4)
    first = t.entries.order_by("seed").first()
    first.name = '=HYPERLINK("http://x") <b>Nino</b>'
    first.save()
    round_ = services.round_start(tournament=t, user=people.director)
    play_round(people, round_)
    return t, round_


def test_the_standings_csv_is_formula_safe_and_says_the_criterion(played):
    t, _ = played
    text = exports.standings_csv(t)
    assert "'=HYPERLINK" in text and "\n=HYPERLINK" not in text
    rows = exports.standings_sheet(t)
    assert len(rows) == 2 + 4
    words = {"", "match points", "Buchholz", "game-point difference", "head to head", "lot"}
    assert {row[-1] for row in rows[2:]} <= words
    assert any(row[-1] for row in rows[2:])


def test_the_pdfs_build_with_a_hostile_name(played):
    t, round_ = played
    for pdf in (
        exports.standings_pdf(t),
        exports.round_pdf(t, round_),
        exports.table_cards_pdf(t, round_, lambda pk: f"https://example.org/m/{pk}"),
    ):
        assert pdf.startswith(b"%PDF")


def test_a_round_sheet_lists_each_table(played):
    t, round_ = played
    rows = exports.round_sheet(t, round_)
    assert [row[0] for row in rows[2:]] == ["1", "2"]
