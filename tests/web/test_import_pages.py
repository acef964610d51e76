"""The director's import pages: upload, the check's progress (htmx polls a fragment,
then the page reloads), the refused rows with row and column in Italian, the preview,
acceptance with its progress, undo."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from scorebook.history.models import Import, PlannedMatch
from scorebook.matches.models import Night
from tests.web.test_pages import client_for

pytestmark = pytest.mark.usefixtures("eager_tasks")

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "import-example.csv"


def post_file(client, slug, data, name="storia.csv"):
    """The upload alone: its check waits for the upload's transaction to commit (the
    test's never does)."""
    return client.post(f"/c/{slug}/import", {"file": SimpleUploadedFile(name, data)})


@pytest.fixture
def checked(django_capture_on_commit_callbacks):
    """The upload with its check run (the task, in-process here)."""

    def check(client, slug, data, name="storia.csv"):
        with django_capture_on_commit_callbacks(execute=True):
            return post_file(client, slug, data, name)

    return check


def test_upload_preview_accept_progress_undo(people, checked, django_capture_on_commit_callbacks):
    client = client_for(people, "director")
    slug = people.club.slug
    page = client.get(f"/c/{slug}/import")
    assert page.status_code == 200 and b'enctype="multipart/form-data"' in page.content
    assert client.get(f"/c/{slug}/import/example.csv").content == EXAMPLE.read_bytes()
    answer = checked(client, slug, EXAMPLE.read_bytes())
    batch = Import.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/c/{slug}/import/{batch.pk}"
    preview = client.get(answer["Location"]).content.decode()
    assert "Rosa" in preview and "Import these nights" in preview
    assert not Night.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/c/{slug}/import/{batch.pk}/accept")
    fragment = client.get(f"/c/{slug}/import/{batch.pk}", HTTP_HX_REQUEST="true")
    body = fragment.content.decode()
    assert '<progress max="100" value="100"' in body and "<html" not in body
    assert "hx-trigger" not in body  # done: the polling stops
    assert Night.objects.filter(club=people.club).count() == 2
    client.post(f"/c/{slug}/import/{batch.pk}/undo")
    assert not Night.objects.exists()
    assert Import.objects.get().status == "undone"


def test_the_check_shows_its_progress_then_the_page_reloads(people, checked):
    client = client_for(people, "director")
    slug = people.club.slug
    answer = post_file(client, slug, EXAMPLE.read_bytes())  # the check not yet run
    batch = Import.objects.get()
    assert answer["Location"] == f"/c/{slug}/import/{batch.pk}"
    Import.objects.filter(pk=batch.pk).update(rows_done=5, rows_total=20)
    body = client.get(answer["Location"]).content.decode()
    assert 'hx-trigger="every 1s"' in body and "?was=checking" in body
    assert 'value="25"' in body and "5 of about 20 rows" in body
    assert "Import these nights" not in body
    fragment = client.get(f"{answer['Location']}?was=checking", HTTP_HX_REQUEST="true")
    assert "<html" not in fragment.content.decode() and "HX-Refresh" not in fragment
    from scorebook.history.checker import check_run

    check_run(batch.pk)
    done = client.get(f"{answer['Location']}?was=checking", HTTP_HX_REQUEST="true")
    assert done["HX-Refresh"] == "true"  # checked: the whole page shows the preview
    assert "Import these nights" in client.get(answer["Location"]).content.decode()


def test_a_running_import_polls_its_progress(people, checked):
    client = client_for(people, "director")
    checked(client, people.club.slug, EXAMPLE.read_bytes())
    batch = Import.objects.get()
    Import.objects.filter(pk=batch.pk).update(status="running", nights_done=1)
    body = client.get(f"/c/{people.club.slug}/import/{batch.pk}").content.decode()
    assert 'hx-trigger="every 1s"' in body and 'value="50"' in body


def test_refused_rows_are_listed_in_italian(people, checked):
    client = client_for(people, "director")
    client.cookies["django_language"] = "it"
    text = EXAMPLE.read_text().replace("2016-01-12", "2099-01-12", 1)
    answer = checked(client, people.club.slug, text.encode())
    assert answer.status_code == 302
    body = client.get(answer["Location"]).content.decode()
    assert "Riga 2, colonna A (date)" in body and "futuro" in body
    assert "Importa queste serate" not in body
    assert not Night.objects.exists() and not PlannedMatch.objects.exists()
    assert Import.objects.get().status == "refused"


def test_a_file_refused_as_a_whole_by_its_check_says_why(people, checked):
    client = client_for(people, "director")
    answer = checked(client, people.club.slug, b"date,game\n2016-01-01,x\n")
    body = client.get(answer["Location"]).content.decode()
    assert "no &#x27;seats&#x27; column" in body and "Rows to correct" in body


@pytest.mark.parametrize("data", [b"%PDF-1.4", b"date,game,seats,deal\nx\xff", b""])
def test_bad_files_answer_in_words(people, data):
    client = client_for(people, "director")
    answer = post_file(client, people.club.slug, data)
    assert answer.status_code in (200, 400)
    assert b'class="error' in answer.content
    assert not Import.objects.exists()


@pytest.mark.parametrize("who", ["scorer", "member"])
def test_only_directors_see_the_import(people, who):
    client = client_for(people, who)
    assert client.get(f"/c/{people.club.slug}/import").status_code == 403
    assert post_file(client, people.club.slug, EXAMPLE.read_bytes()).status_code == 403
    assert not Import.objects.exists()


def test_the_previews_dates_are_written_as_the_reader_writes_them(people, checked):
    """The preview said '2016-01-12 – 2016-01-19' on an Italian page (seen in the browser
    test's screenshot): the nights' first and last day go through the pages' date filter."""
    client = client_for(people, "director")
    client.cookies["django_language"] = "it"
    answer = checked(client, people.club.slug, EXAMPLE.read_bytes())
    preview = client.get(answer["Location"]).content.decode()
    assert "2016-01-12" not in preview
    assert "12/01/2016" in preview and "19/01/2016" in preview
