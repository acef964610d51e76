"""The preview as a task, and where it crosses the rest (issue 31 item 4): the check of
a kept file, a second delivery, expiry (of a preview, a refused file, a lost check; not
of an import accepted or running), accepting an expired preview (refused in words, page
and API), undo, the night's close, two previews of one file accepted one after the
other and at once (PostgreSQL)."""

from __future__ import annotations

import threading
from datetime import date, timedelta
from pathlib import Path

import pytest
from django.db import connection, transaction
from django.utils import timezone, translation

from scorebook.clubs.models import Player
from scorebook.history import importer, services, tasks
from scorebook.history.checker import check_run
from scorebook.history.expiry import PreviewExpired, previews_expire
from scorebook.history.models import Import, ImportedNight, PlannedMatch
from scorebook.matches import services as record
from scorebook.matches.models import Deal, Night
from tests.api.common import api
from tests.web.test_pages import client_for

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "import-example.csv"
DATA = EXAMPLE.read_bytes()


def uploaded(people, data: bytes = DATA) -> Import:
    """A file kept for its check (the task not yet run: the test's transaction)."""
    return services.import_upload(
        club=people.club, user=people.director, filename="storia.csv", data=data
    )


def aged(batch: Import, days: int) -> None:
    Import.objects.filter(pk=batch.pk).update(created_at=timezone.now() - timedelta(days=days))


def test_the_check_reads_the_kept_file_and_keeps_its_matches(people):
    batch = uploaded(people)
    assert (batch.status, bytes(batch.upload)) == ("checking", DATA)
    assert batch.rows_total == DATA.count(b"\n")
    checked = check_run(batch.pk)
    assert checked.status == "preview" and checked.upload is None
    assert checked.summary["nights"] == 2 and checked.summary["deals"] == 12
    assert PlannedMatch.objects.filter(batch=batch).count() == checked.summary["matches"]
    assert "matches" not in checked.plan["nights"][0]  # one night at a time, from the rows
    assert check_run(batch.pk).status == "preview"  # a second delivery does nothing


def test_a_check_that_died_half_way_starts_again(people):
    batch = uploaded(people)
    PlannedMatch.objects.create(batch=batch, date=date(2016, 1, 12), table=1, number=1, data={})
    assert check_run(batch.pk).status == "preview"
    assert PlannedMatch.objects.filter(batch=batch).count() == 4


def test_a_refused_file_keeps_only_its_problems(people):
    text = DATA.decode().replace("19/01/2016", "19/01/2999")
    batch = check_run(uploaded(people, text.encode()).pk)
    assert batch.status == "refused" and batch.upload is None
    assert {p["code"] for p in batch.plan["problems"]} == {"import.future_date"}
    assert not PlannedMatch.objects.exists() and batch.plan["players"] == {}


def test_the_import_reads_its_matches_a_night_at_a_time_and_lets_them_go(people):
    batch = check_run(uploaded(people).pk)
    services.import_accept(batch=batch, user=people.director)
    done = importer.import_run(batch.pk)
    assert done.status == "done" and Deal.objects.count() == 12
    assert not PlannedMatch.objects.exists()  # stored: no longer needed


# -- expiry ---------------------------------------------------------------------------------


def test_old_previews_refused_files_and_lost_checks_expire(people, settings):
    settings.IMPORT_PREVIEW_DAYS = 7
    old = check_run(uploaded(people).pk)
    refused = check_run(uploaded(people, b"date,game\n2016-01-01,x\n").pk)
    lost = uploaded(people)  # its task never ran
    young = check_run(uploaded(people).pk)
    for batch in (old, refused, lost):
        aged(batch, 8)
    aged(young, 6)
    assert previews_expire() == 3
    for batch in (old, refused, lost):
        batch.refresh_from_db()
        assert batch.status == "expired" and batch.plan == {} and batch.upload is None
        assert "players" not in batch.summary and "guests" not in batch.summary
    assert old.summary["nights"] == 2  # the numbers stay, the names go
    assert not PlannedMatch.objects.exclude(batch=young).exists()
    young.refresh_from_db()
    assert young.status == "preview" and young.planned.exists()
    assert previews_expire() == 0


def test_an_import_accepted_or_running_or_done_does_not_expire(people, settings):
    batch = check_run(uploaded(people).pk)
    services.import_accept(batch=batch, user=people.director)  # queued: its task not run
    aged(batch, 30)
    assert previews_expire() == 0
    assert importer.import_run(batch.pk).status == "done"  # expiry took nothing from it
    assert Night.objects.filter(club=people.club).count() == 2
    aged(batch, 30)
    assert previews_expire() == 0


def test_accepting_an_expired_preview_is_refused_in_words(people, eager_tasks):
    batch = check_run(uploaded(people).pk)
    aged(batch, 30)
    previews_expire()
    with pytest.raises(PreviewExpired) as refused:
        services.import_accept(batch=batch, user=people.director)
    with translation.override("it"):
        assert "scaduta" in refused.value.text()
    answer = api(people, "director").post(f"/api/v1/imports/{batch.pk}/accept")
    assert answer.status_code == 409
    assert answer.json()["errors"][0]["code"] == "import.expired"
    client = client_for(people, "director")
    page = client.post(f"/c/{people.club.slug}/import/{batch.pk}/accept", HTTP_ACCEPT_LANGUAGE="it")
    assert page.status_code == 409 and "scaduta" in page.content.decode()
    shown = client.get(f"/c/{people.club.slug}/import/{batch.pk}").content.decode()
    assert "Import these nights" not in shown and "expired" in shown
    assert not Night.objects.exists()


# -- undo, the night's close, two previews of one file --------------------------------------


def test_undo_then_the_same_file_again(people):
    batch = check_run(uploaded(people).pk)
    services.import_accept(batch=batch, user=people.director)
    importer.import_run(batch.pk)
    services.import_undo(batch=Import.objects.get(pk=batch.pk), user=people.director)
    again = check_run(uploaded(people).pk)  # the undone nights are new again
    assert again.status == "preview" and again.summary["nights"] == 2
    assert not PlannedMatch.objects.filter(batch=batch).exists()


def test_a_live_night_closed_meanwhile_is_left_as_it_is(people):
    """The director closes tonight between the check and the acceptance: the import
    stores its own nights (each closed by the import), tonight stays as closed."""
    tonight = record.night_open(
        club_id=people.club.pk, date=date(2016, 1, 12) + timedelta(days=3000), venue="",
        user=people.director,
    )  # fmt: skip
    batch = check_run(uploaded(people).pk)
    record.night_close(night=tonight, user=people.director)
    services.import_accept(batch=batch, user=people.director)
    assert importer.import_run(batch.pk).status == "done"
    tonight.refresh_from_db()
    assert tonight.status == "closed"
    assert Night.objects.filter(club=people.club, status="closed").count() == 3


def test_two_previews_of_one_file_import_its_nights_once(people):
    first = check_run(uploaded(people).pk)
    second = check_run(uploaded(people).pk)  # both checked before either is accepted
    for batch in (first, second):
        services.import_accept(batch=batch, user=people.director)
        assert importer.import_run(batch.pk).status == "done"
    assert Night.objects.filter(club=people.club).count() == 2
    assert ImportedNight.objects.filter(batch=second).count() == 0  # skipped: already in


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_previews_of_one_file_accepted_at_once_import_its_nights_once(
    people, settings, monkeypatch
):
    """Two workers run the two imports at once: one waits on the club's row for each
    night, then finds it imported and skips it. Without the lock both passed the
    fingerprint check and one import stopped ('failed', checked)."""
    settings.CELERY_TASK_ALWAYS_EAGER = False  # the two tasks are run below, at once
    monkeypatch.setattr(tasks.run_import, "delay", lambda pk: None)  # not sent to a broker
    first = check_run(uploaded(people).pk)
    second = check_run(uploaded(people).pk)
    for batch in (first, second):
        services.import_accept(batch=batch, user=people.director)
    results: dict[int, str] = {}
    start = threading.Barrier(2)

    def run(pk: int) -> None:
        try:
            start.wait()
            results[pk] = importer.import_run(pk).status
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(b.pk,)) for b in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == {first.pk: "done", second.pk: "done"}
    assert Night.objects.filter(club=people.club).count() == 2
    assert ImportedNight.objects.count() == 2


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_expiry_skips_the_preview_an_acceptance_holds(people, eager_tasks):
    """The expiry runs while the director's acceptance holds the preview's row: it skips
    it, and the acceptance goes through (the import keeps its matches)."""
    batch = check_run(uploaded(people).pk)
    aged(batch, 30)
    holding, done = threading.Event(), threading.Event()

    def accept() -> None:
        try:
            with transaction.atomic():
                Import.objects.select_for_update().get(pk=batch.pk)
                holding.set()
                done.wait(10)
                services.import_accept(batch=batch, user=people.director)
        finally:
            connection.close()

    thread = threading.Thread(target=accept)
    thread.start()
    holding.wait(10)
    try:
        assert previews_expire() == 0
    finally:
        done.set()
        thread.join()
    batch.refresh_from_db()
    assert batch.status == "done"  # accepted, then imported (in-process here): not expired
    assert Night.objects.filter(club=people.club).count() == 2


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_imports_at_once_naming_the_same_new_guests_share_them(people, settings, monkeypatch):
    """Two different files (other nights) both name Maria, Lia, Gino and Rosa, whom the
    club does not have: run at once, both imports finish and each guest is one player
    (issue 31 item 7: one of them stopped with "The club already has a player called ...").
    The first to take the club's row adds the guests; the other finds them there."""
    settings.CELERY_TASK_ALWAYS_EAGER = False  # the two tasks are run below, at once
    monkeypatch.setattr(tasks.run_import, "delay", lambda pk: None)  # not sent to a broker
    later = DATA.replace(b"2016-", b"2017-").replace(b"/2016", b"/2017")
    first, second = check_run(uploaded(people).pk), check_run(uploaded(people, later).pk)
    new = {"Gino", "Lia", "Maria", "Rosa"}
    assert set(first.summary["guests"]) == set(second.summary["guests"]) == new
    for batch in (first, second):
        services.import_accept(batch=batch, user=people.director)
    results: dict[int, str] = {}
    start = threading.Barrier(2)

    def run(pk: int) -> None:
        try:
            start.wait()
            results[pk] = importer.import_run(pk).status
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(b.pk,)) for b in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == {first.pk: "done", second.pk: "done"}
    guests = Player.objects.filter(club=people.club, name__in=new)
    assert sorted(guests.values_list("name", flat=True)) == sorted(new)  # each one player
    assert Night.objects.filter(club=people.club).count() == 4
    added = [set(Import.objects.get(pk=b.pk).guests) for b in (first, second)]
    assert added[0] | added[1] == set(guests.values_list("pk", flat=True))
    assert not added[0] & added[1]  # each guest added by one import, used by both
