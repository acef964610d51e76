"""The import through its services: preview, acceptance (the Celery task, eager here),
idempotency, the audit trail, the standings rebuilt, and an undo that restores the club
exactly."""

from __future__ import annotations

import csv
import io
import json
from datetime import date
from pathlib import Path

import pytest

from scorebook.clubs.models import Player
from scorebook.clubs.services import NotAllowed
from scorebook.core.models import AuditEvent
from scorebook.history import importer, services
from scorebook.history.models import Import, ImportedNight
from scorebook.ledger.models import Account, Entry, Settlement, Transfer
from scorebook.matches import services as record
from scorebook.matches.models import Confirmation, Deal, Match, Night, Table
from scorebook.standings import refresh
from scorebook.standings import services as standings
from scorebook.standings.models import (
    LeaderboardRow,
    MatchStanding,
    RatedMatch,
    Rating,
    RatingChange,
)

pytestmark = pytest.mark.usefixtures("eager_tasks")

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "import-example.csv"
DEAL = {"sides": {"A": {"thirds": 14}, "B": {"thirds": 18}}, "last_trick": "B"}


def snapshot(club):
    """Every row of the club's record and its derived tables, ids included."""
    nights = Night.objects.filter(club=club)
    matches = Match.objects.filter(night__in=nights)
    deals = Deal.objects.filter(match__in=matches)
    out = {}
    derived = {"leaderboard", "standings", "rated", "ratings", "changes"}
    for name, qs in {
        "players": Player.objects.filter(club=club),
        "nights": nights,
        "tables": Table.objects.filter(night__in=nights),
        "matches": matches,
        "deals": deals,
        "confirmations": Confirmation.objects.filter(deal__in=deals),
        "accounts": Account.objects.filter(club=club),
        "entries": Entry.objects.filter(club=club),
        "settlements": Settlement.objects.filter(night__in=nights),
        "transfers": Transfer.objects.filter(settlement__night__in=nights),
        "leaderboard": LeaderboardRow.objects.filter(club=club),
        "standings": MatchStanding.objects.filter(club=club),
        "rated": RatedMatch.objects.filter(club=club),
        "ratings": Rating.objects.filter(club=club),
        "changes": RatingChange.objects.filter(club=club),
    }.items():
        rows = [
            {k: v for k, v in row.items() if not (name in derived and k == "id")}
            for row in qs.values()
        ]  # a rebuild writes the derived rows anew: the same rows, new ids
        out[name] = sorted(json.dumps(row, sort_keys=True, default=str) for row in rows)
    return out


@pytest.fixture
def season(people):
    return standings.season_create(
        club_id=people.club.pk,
        name="All",
        starts_on=date(2010, 1, 1),
        ends_on=None,
        user=people.director,
    )


@pytest.fixture
def live_night(people, season):
    """A night played live at the club before the import: a finished Tressette match."""
    night = record.night_open(
        club_id=people.club.pk, date=date(2025, 3, 1), venue="", user=people.director
    )
    nino, ettore, salvo, walter = people.seated
    match = record.match_create(
        night=night,
        game=_game(),
        rules={},
        user=people.director,
        seats={"N": nino.pk, "E": ettore.pk, "S": salvo.pk, "W": walter.pk},
    )
    while Match.objects.get(pk=match.pk).status == Match.Status.OPEN:
        record.deal_create(match=match, data=DEAL, expected_number=None, user=people.director)
    record.night_close(night=night, user=people.director)
    return night


def example_figures():
    """What the example file holds, read from it: its matches (date, table, match), its
    deal rows and its final-score rows."""
    rows = list(csv.DictReader(io.StringIO(EXAMPLE.read_text())))
    matches = {(r["date"], r["table"] or "1", r["match"] or "1") for r in rows}
    deals = sum(1 for r in rows if r["deal"])
    finals = sum(1 for r in rows if r.get("final"))
    return len(matches), deals, finals


def _game():
    """The example's first game, read from the file (no game key written in a test of a
    layer that is not the engine's is needed, but the file names it anyway)."""
    return next(csv.DictReader(io.StringIO(EXAMPLE.read_text())))["game"]


@pytest.fixture
def accept(django_capture_on_commit_callbacks):
    """Accept a preview and run what its commit sends (the task, eager here)."""

    def run(batch, user):
        with django_capture_on_commit_callbacks(execute=True):
            services.import_accept(batch=batch, user=user)
        return Import.objects.get(pk=batch.pk)

    return run


def preview(people, data=None, user=None):
    return services.import_preview(
        club=people.club,
        user=user or people.director,
        filename="example.csv",
        data=data if data is not None else EXAMPLE.read_bytes(),
    )


def test_the_example_imports_whole_marked_in_the_audit_log(people, live_night, accept):
    batch = preview(people)
    assert batch.status == Import.Status.PREVIEW and batch.nights_total == 2
    assert not Night.objects.filter(club=people.club, date=date(2016, 1, 12)).exists()
    accept(batch, people.director)
    batch.refresh_from_db()
    assert batch.status == Import.Status.DONE, batch.error
    assert (batch.nights_done, batch.percent) == (2, 100)
    nights = Night.objects.filter(club=people.club, date__year=2016).order_by("date")
    assert [n.status for n in nights] == ["closed", "closed"]
    matches = Match.objects.filter(night__in=nights)
    count, deals, finals = example_figures()
    assert finals >= 1  # the example shows a match kept by its final score
    assert sorted(m.status for m in matches) == ["finished"] * count
    assert Deal.objects.filter(match__in=matches).count() == deals
    assert matches.filter(final_score__isnull=False, deals__isnull=True).count() == finals
    # Nino is the club's Nino ("nino" in the second night too); the others are guests
    nino = people.seated[0]
    assert all(nino.pk in m.seats.values() for m in matches if m.players == 4)
    guests = set(Player.objects.filter(club=people.club, guest=True).values_list("name", flat=True))
    assert guests == {"Lia", "Maria", "Gino", "Rosa"}  # Salvo is the club's
    verbs = list(AuditEvent.objects.filter(club=people.club).values_list("verb", flat=True))
    assert verbs.count("night_imported") == 2
    assert {"import_accepted", "import_done"} <= set(verbs)
    # the standings know the imported years
    assert LeaderboardRow.objects.filter(club=people.club, player__name="Rosa").exists()
    assert Rating.objects.filter(club=people.club, player__name="Gino").exists()
    assert Settlement.objects.filter(night__in=nights).count() == 2


def test_the_same_file_twice_stores_nothing_new(people, season, accept):
    accept(preview(people), people.director)
    before = snapshot(people.club)
    with pytest.raises(services.NothingNew):
        preview(people)
    assert snapshot(people.club) == before
    assert ImportedNight.objects.filter(club=people.club).count() == 2


def test_a_file_with_one_more_night_imports_only_that_night(people, season, accept):
    accept(preview(people), people.director)
    text = EXAMPLE.read_text()
    extra = [
        line.replace("19/01/2016", "26/01/2016") for line in text.splitlines() if "19/01" in line
    ]
    batch = preview(people, ("\n".join([*text.splitlines(), *extra]) + "\n").encode())
    assert batch.nights_total == 1
    accept(batch, people.director)
    assert Night.objects.filter(club=people.club, date__year=2016).count() == 3


def test_a_task_run_twice_imports_each_night_once(people, season, accept):
    batch = preview(people)
    accept(batch, people.director)
    Import.objects.filter(pk=batch.pk).update(status=Import.Status.QUEUED)
    importer.import_run(batch.pk)  # a second delivery of the task
    assert Night.objects.filter(club=people.club, date__year=2016).count() == 2


def test_undo_restores_the_club_exactly(
    people, live_night, accept, django_capture_on_commit_callbacks
):
    refresh.rebuild(club_id=people.club.pk)  # the live night's standings, as a worker leaves them
    before = snapshot(people.club)
    batch = preview(people)
    accept(batch, people.director)
    assert snapshot(people.club) != before
    # The undo marks the club for a rebuild, run once it commits (the bulk queue's task).
    with django_capture_on_commit_callbacks(execute=True):
        services.import_undo(batch=Import.objects.get(pk=batch.pk), user=people.director)
    assert snapshot(people.club) == before
    assert AuditEvent.objects.filter(club=people.club, verb="import_undone").exists()
    # and the file can be imported again after the undo
    accept(preview(people), people.director)
    assert Night.objects.filter(club=people.club, date__year=2016).count() == 2


def test_undo_keeps_a_guest_who_has_played_since(people, season, accept):
    batch = preview(people)
    accept(batch, people.director)
    rosa = Player.objects.get(club=people.club, name="Rosa")
    night = record.night_open(
        club_id=people.club.pk, date=date(2026, 1, 1), venue="", user=people.director
    )
    nino, ettore, salvo, _walter = people.seated
    record.match_create(
        night=night,
        game=_game(),
        rules={},
        user=people.director,
        seats={"N": nino.pk, "E": ettore.pk, "S": salvo.pk, "W": rosa.pk},
    )
    services.import_undo(batch=Import.objects.get(pk=batch.pk), user=people.director)
    assert Player.objects.filter(pk=rosa.pk).exists()
    assert not Player.objects.filter(club=people.club, name="Lia").exists()


@pytest.mark.parametrize("who", ["scorer", "member", "stranger"])
def test_only_a_director_imports(people, who):
    with pytest.raises(NotAllowed):
        preview(people, user=people[who])
    assert not Import.objects.exists()


def test_refused_rows_store_nothing(people):
    text = EXAMPLE.read_text().replace("2016-01-12", "2099-01-12", 1)
    with pytest.raises(services.RowsRefused) as refused:
        preview(people, text.encode())
    assert refused.value.errors("en")[0]["params"] == {"row": 2, "column": "date", "letter": "A"}
    assert "futuro" in refused.value.errors("it")[0]["message"]
    assert not Import.objects.exists() and not Night.objects.exists()


def test_an_accepted_import_cannot_be_accepted_again(people, season, accept):
    batch = preview(people)
    accept(batch, people.director)
    with pytest.raises(services.NotInPreview):
        services.import_accept(batch=batch, user=people.director)


def test_a_file_name_with_control_characters_is_stored_without_them(people):
    batch = services.import_preview(
        club=people.club,
        user=people.director,
        filename="st\x00oria\ud800.csv",
        data=EXAMPLE.read_bytes(),
    )
    assert batch.filename == "storia.csv"


def test_an_unexpected_error_marks_the_import_stopped_and_surfaces(people, season, monkeypatch):
    batch = preview(people)
    Import.objects.filter(pk=batch.pk).update(status="queued", accepted_by=people.director)

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(importer.record, "night_close", broken)
    with pytest.raises(RuntimeError):
        importer.import_run(batch.pk)
    stopped = Import.objects.get(pk=batch.pk)
    assert stopped.status == "failed" and "unexpected" in stopped.error
    assert not Night.objects.filter(club=people.club).exists()  # the night rolled back
