"""A match kept on paper only by its final score: one row with ``final`` (``A=21; B=13``)
and no deals is imported as a match closed with that score. The engine decides its result
from the totals (``Game.record_final``), the match stores them (``Match.final_score``,
replayed by ``fold``), and the ledger, the leaderboard and the ratings count it as they
count the same match finished at the table, deal by deal (only the deals column differs:
no deals were recorded). Where the deals themselves settle or rate a match, or the totals
end no match, the row is refused in words, with its row and column."""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict
from datetime import date
from decimal import Decimal

import pytest

from scorebook.archive import exports
from scorebook.clubs import services as clubs
from scorebook.core.refusals import Refusal
from scorebook.history import services
from scorebook.history.models import Import
from scorebook.history.template import COLUMNS
from scorebook.ledger.management.commands.verify_records import match_problems
from scorebook.ledger.models import Entry
from scorebook.matches import services as record
from scorebook.matches.models import Deal, Match
from scorebook.rules import games
from scorebook.standings import refresh
from scorebook.standings import services as standings
from scorebook.standings.models import LeaderboardRow, Rating
from tests.history.test_import import DEAL, _game

pytestmark = pytest.mark.usefixtures("eager_tasks")

SEATS = "N=Nino; E=Ettore; S=Salvo; W=Walter"


def csv_of(*rows: dict[str, str]) -> bytes:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS)
    writer.writeheader()
    for row in rows:
        writer.writerow(row)
    return out.getvalue().encode()


def season_for(club, director):
    return standings.season_create(
        club_id=club.pk, name="All", starts_on=date(2010, 1, 1), ends_on=None, user=director
    )


@pytest.fixture
def accept(django_capture_on_commit_callbacks):
    def run(batch, user):
        with django_capture_on_commit_callbacks(execute=True):
            services.import_accept(batch=batch, user=user)
        return Import.objects.get(pk=batch.pk)

    return run


def played_live(people):
    """A match at the San Rocco club finished at the table, deal by deal, 0.50 EUR."""
    night = record.night_open(
        club_id=people.club.pk, date=date(2019, 3, 21), venue="", user=people.director
    )
    nino, ettore, salvo, walter = people.seated
    match = record.match_create(
        night=night, game=_game(), rules={}, user=people.director,
        seats={"N": nino.pk, "E": ettore.pk, "S": salvo.pk, "W": walter.pk},
        stake_amount=Decimal("0.50"), stake_currency="EUR",
    )  # fmt: skip
    while Match.objects.get(pk=match.pk).status == Match.Status.OPEN:
        record.deal_create(match=match, data=DEAL, expected_number=None, user=people.director)
    record.night_close(night=night, user=people.director)
    return Match.objects.get(pk=match.pk)


def board(club):
    """Player name -> (game, leaderboard row without ids), and name -> rating."""
    rows = {}
    for row in LeaderboardRow.objects.filter(club=club).select_related("player").values():
        name = club.players.get(pk=row["player_id"]).name
        ids = ("id", "club_id", "season_id", "player_id")
        kept = {k: v for k, v in row.items() if k not in ids}
        rows[(name, row["game"])] = kept
    ratings = {
        r.player.name: (r.mu, r.sigma, r.matches)
        for r in Rating.objects.filter(club=club).select_related("player")
    }
    return rows, ratings


def nets(club):
    """Player name -> net money of the club's ledger (received less paid)."""
    found: dict[str, Decimal] = defaultdict(Decimal)
    for entry in Entry.objects.filter(club=club).select_related("payer__player", "payee__player"):
        if entry.payee.player:
            found[entry.payee.player.name] += entry.amount
        if entry.payer.player:
            found[entry.payer.player.name] -= entry.amount
    return dict(found)


def test_a_final_score_counts_as_the_same_match_played_at_the_table(people, accept):
    season_for(people.club, people.director)
    live = played_live(people)
    refresh.rebuild(club_id=people.club.pk)
    final = "; ".join(f"{k}={v}" for k, v in live.state["totals"].items())
    other = clubs.club_create(name="Circolo del Porto", slug="porto", user=people.director)
    season_for(other, people.director)
    row = {"date": "2019-03-21", "game": _game(), "seats": SEATS, "stake": "0.50",
           "currency": "EUR", "final": final}  # fmt: skip
    batch = services.import_preview(
        club=other, user=people.director, filename="f.csv", data=csv_of(row)
    )
    assert batch.nights_total == 1 and batch.deals_total == 0
    done = accept(batch, people.director)
    assert done.status == Import.Status.DONE, done.error
    imported = Match.objects.get(night__club=other)
    assert imported.status == Match.Status.FINISHED
    assert not Deal.objects.filter(match=imported).exists()  # no deal was made up
    assert imported.final_score == live.state["totals"]
    assert {k: imported.result[k] for k in ("winners", "losers", "units", "reason")} == {
        k: live.result[k] for k in ("winners", "losers", "units", "reason")
    }
    # the ledger, the leaderboard and the ratings count it as the live match
    assert nets(other) == nets(people.club) != {}
    live_rows, live_ratings = board(people.club)
    rows, ratings = board(other)
    assert set(rows) == set(live_rows)
    for key, values in rows.items():
        assert values["deals"] == 0 and live_rows[key]["deals"] > 0
        assert {**values, "deals": 0} == {**live_rows[key], "deals": 0}, key
    assert ratings == live_ratings
    # the record re-derives from what it stores (verify_records)
    assert match_problems(imported) == []


def test_the_export_writes_it_back_as_a_final_score_row(people, accept):
    row = {"date": "2019-03-21", "game": _game(), "seats": SEATS, "final": "A=21; B=13"}
    accept(
        services.import_preview(
            club=people.club, user=people.director, filename="f.csv", data=csv_of(row)
        ),
        people.director,
    )
    (written,) = list(exports.import_rows(people.club))
    assert (written["final"], written["deal"]) == ("A=21; B=13", "")


def _refused(people, *rows):
    with pytest.raises(services.RowsRefused) as refused:
        services.import_preview(
            club=people.club, user=people.director, filename="f.csv", data=csv_of(*rows)
        )
    assert not Match.objects.exists()
    return refused.value.errors("it")


def test_totals_that_end_no_match_are_refused_in_words(people):
    row = {"date": "2019-03-21", "game": _game(), "seats": SEATS, "final": "A=12; B=13"}
    (error,) = _refused(people, row)
    assert error["params"] == {"row": 2, "column": "final", "letter": "K"}
    assert "non chiudono una partita" in error["message"] and "smazzate" in error["message"]


def test_a_game_settled_deal_by_deal_keeps_its_deals(people):
    per_deal = next(k for k, g in games().items() if g.settlement == "deal")
    game = games()[per_deal]
    rules = game.rules({})
    seats = game.seats(rules, game.default_players(rules))
    names = ["Nino", "Ettore", "Salvo", "Walter"][: len(seats)]
    row = {"date": "2019-03-21", "game": per_deal,
           "seats": "; ".join(f"{s}={n}" for s, n in zip(seats, names, strict=True)),
           "final": "; ".join(f"{s}=3" for s in game.scorers(rules, seats))}  # fmt: skip
    (error,) = _refused(people, row)
    assert error["params"]["column"] == "final"
    assert "si registra smazzata per smazzata" in error["message"]


def test_a_match_is_deal_by_deal_or_by_its_final_score_not_both(people):
    first = {"date": "2019-03-21", "game": _game(), "seats": SEATS, "deal": json.dumps(DEAL)}
    then = {"date": "2019-03-21", "final": "A=21; B=13"}
    errors = _refused(people, first, then)
    assert [e["code"] for e in errors] == ["import.mixed_match"]
    both = {**first, "final": "A=21; B=13"}
    assert [e["code"] for e in _refused(people, both)] == ["import.deal_and_final"]
    bad = {"date": "2019-03-21", "game": _game(), "seats": SEATS, "final": "A=ventuno; B=13"}
    assert [e["code"] for e in _refused(people, bad)] == ["import.bad_final"]


def test_only_a_director_records_a_final_score_and_no_deal_follows_it(people):
    night = record.night_open(
        club_id=people.club.pk, date=date(2019, 3, 21), venue="", user=people.director
    )
    nino, ettore, salvo, walter = people.seated
    match = record.match_create(
        night=night, game=_game(), rules={}, user=people.director,
        seats={"N": nino.pk, "E": ettore.pk, "S": salvo.pk, "W": walter.pk},
    )  # fmt: skip
    with pytest.raises(Refusal) as refused:
        record.match_record_final(match=match, totals={"A": 21, "B": 13}, user=people.scorer)
    assert refused.value.code == "role.required"
    record.match_record_final(match=match, totals={"A": 21, "B": 13}, user=people.director)
    with pytest.raises(record.RulesRejected) as rejected:
        record.deal_create(match=match, data=DEAL, expected_number=None, user=people.director)
    assert [e["code"] for e in rejected.value.errors()] == ["match.finished"]
    with pytest.raises(record.RulesRejected):  # nor a second final score
        record.match_record_final(match=match, totals={"A": 31, "B": 13}, user=people.director)


# -- the winner column: where the totals cannot tell who won (issue 31 item 8) -----------

#: The tournament code's rule: the first side to reach the target in the order of the
#: tricks wins, whatever the totals (both past it, or level, they cannot say which).
FIRST = json.dumps({"t4.reaching_target": "first_in_trick_order"})


def final_row(final, rules=FIRST, **more):
    return {"date": "2019-03-21", "game": _game(), "rules": rules, "seats": SEATS,
            "final": final, **more}  # fmt: skip


def test_totals_that_cannot_tell_the_winner_ask_for_it_in_its_column(people):
    (error,) = _refused(people, final_row("A=23; B=22"))
    assert error["code"] == "final.winner_needed"
    assert error["params"] == {"row": 2, "column": "winner", "letter": "L"}
    assert "Indica chi ha vinto (A, B)" in error["message"]


def test_the_winner_column_closes_the_match_with_its_winner(people, accept):
    """A 21 B 21 did end a match (both reached 21 in its last deal): the winner says
    whose; the export writes it back, so the round trip keeps it."""
    batch = services.import_preview(
        club=people.club, user=people.director, filename="f.csv",
        data=csv_of(final_row("A=21; B=21", winner="B")),
    )  # fmt: skip
    done = accept(batch, people.director)
    assert done.status == Import.Status.DONE, done.error
    match = Match.objects.get(night__club=people.club)
    assert (match.status, match.final_winner) == (Match.Status.FINISHED, "B")
    assert match.result["winners"] == ["E", "W"] and match.result["final_winner"] == "B"
    assert match_problems(match) == []  # the record re-derives, winner and all
    (written,) = list(exports.import_rows(people.club))
    assert (written["final"], written["winner"]) == ("A=21; B=21", "B")


def test_a_winner_the_totals_rule_out_or_without_a_final_is_refused(people):
    (error,) = _refused(people, final_row("A=22; B=19", winner="B"))
    assert (error["code"], error["params"]["column"]) == ("final.winner_contradicts", "winner")
    assert "ha vinto A, non B" in error["message"]
    (error,) = _refused(people, final_row("A=22; B=19", winner="Nino"))
    assert (error["code"], error["params"]["column"]) == ("final.bad_winner", "winner")
    deal = {"date": "2019-03-21", "game": _game(), "seats": SEATS, "deal": json.dumps(DEAL),
            "winner": "A"}  # fmt: skip
    (error,) = _refused(people, deal)
    assert (error["code"], error["params"]["column"]) == ("import.winner_without_final", "winner")


def test_a_final_under_carry_over_is_imported(people, accept):
    """It raised KeyError in the engine: the preview answered 500."""
    rules = json.dumps({"t4.carry_over_excess": "on_except_won_by_declarations_alone"})
    batch = services.import_preview(
        club=people.club, user=people.director, filename="f.csv",
        data=csv_of(final_row("A=24; B=13", rules=rules)),
    )  # fmt: skip
    assert accept(batch, people.director).status == Import.Status.DONE
    assert Match.objects.get(night__club=people.club).result["winners"] == ["N", "S"]


def test_the_service_takes_the_winner_and_a_refused_one_stores_nothing(people):
    night = record.night_open(
        club_id=people.club.pk, date=date(2019, 3, 21), venue="", user=people.director
    )
    nino, ettore, salvo, walter = people.seated
    match = record.match_create(
        night=night, game=_game(), rules=json.loads(FIRST), user=people.director,
        seats={"N": nino.pk, "E": ettore.pk, "S": salvo.pk, "W": walter.pk},
    )  # fmt: skip
    with pytest.raises(record.RulesRejected) as rejected:
        record.match_record_final(match=match, totals={"A": 23, "B": 22}, user=people.director)
    assert [e["code"] for e in rejected.value.errors()] == ["final.winner_needed"]
    match.refresh_from_db()
    assert (match.final_score, match.final_winner, match.status) == (None, "", "open")
    record.match_record_final(
        match=match, totals={"A": 23, "B": 22}, winner="B", user=people.director
    )
    match.refresh_from_db()
    assert (match.final_winner, match.result["winners"]) == ("B", ["E", "W"])
