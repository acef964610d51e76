"""A tournament on paper: the standings CSV is formula-safe, the PDFs print names as
written (never markup), the table cards carry a QR code of each table's match."""

from decimal import Decimal

import pytest
from django.utils import translation

from scorebook.tournaments import exports, selectors
from scorebook.tournaments.services.results import tournament_finish
from scorebook.tournaments.services.rounds import round_start

from .helpers import open_night, play_round, with_pairs


@pytest.fixture
def played(people):
    t = with_pairs(people, open_night(people), 4)
    first = t.entries.order_by("seed").first()
    first.name = '=HYPERLINK("http://x") <b>Nino</b>'
    first.save()
    round_ = round_start(tournament=t, user=people.director)
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


def _prizes_section(rows):
    """The rows after the standings (an empty row starts the prizes' section)."""
    if [] not in rows:
        return []
    return rows[rows.index([]) + 1 :]


def test_the_final_standings_list_the_prizes_paid_and_the_clubs_share(people):
    t = with_pairs(
        people, open_night(people), 4, rounds=1, entry_fee="10", currency="EUR",
        prizes=["60", "30"], club_share="10",
    )  # fmt: skip
    for entry in t.entries.all():
        entry.name = f'=HYPERLINK("http://x") <img src="y"> {entry.name}'
        entry.save()
    round_ = round_start(tournament=t, user=people.director)
    play_round(people, round_)
    assert _prizes_section(exports.standings_sheet(t)) == []  # nothing paid yet
    pot = selectors.pot_balance(t)
    tournament_finish(tournament=t, user=people.director)
    # what the ledger booked out of the pot, per pair and to the club
    paid, club = {}, Decimal(0)
    for row in selectors.ledger_entries(t).filter(kind="prize").select_related("payee"):
        if row.payee.player_id is None:
            club += row.amount
        else:
            paid[row.payee.player_id] = paid.get(row.payee.player_id, 0) + row.amount
    by_entry = {e.name: paid.get(e.first_id, 0) + paid.get(e.second_id, 0) for e in t.entries.all()}
    winners = {name: amount for name, amount in by_entry.items() if amount}
    assert len(winners) == 2 and club > 0
    section = _prizes_section(exports.standings_sheet(t))
    assert section[0] == ["Position", "Pair", "Prize"]
    lines = section[1:-1]
    assert {line[1]: line[2] for line in lines} == {
        name: f"{amount:.2f} EUR" for name, amount in winners.items()
    }
    places = {str(place): ids for place, ids in selectors.final_places(t)}
    for place, name, _amount in lines:
        assert t.entries.get(name=name).pk in places[place]
    assert section[-1] == ["", "The club's share", f"{club:.2f} EUR"]
    assert sum(winners.values()) + club == pot
    text = exports.standings_csv(t)
    assert "'=HYPERLINK" in text and "\n=HYPERLINK" not in text and "EUR" in text
    assert exports.standings_pdf(t).startswith(b"%PDF")
    with translation.override("it"):
        section = _prizes_section(exports.standings_sheet(t))
    assert section[0] == ["Posizione", "Coppia", "Premio"]
    assert section[-1][1] == "Quota del circolo"


def test_a_tournament_without_money_says_nothing_of_money(people):
    t = with_pairs(people, open_night(people), 4, rounds=1)
    round_ = round_start(tournament=t, user=people.director)
    play_round(people, round_)
    tournament_finish(tournament=t, user=people.director)
    rows = exports.standings_sheet(t)
    assert [] not in rows
    text = exports.standings_csv(t)
    assert "Prize" not in text and "club" not in text and "EUR" not in text
