"""The director's import pages: upload, the refused rows with row and column in
Italian, the preview, acceptance with its progress (htmx polls a fragment), undo."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from scorebook.history.models import Import
from scorebook.matches.models import Night
from tests.web.test_pages import client_for

pytestmark = pytest.mark.usefixtures("eager_tasks")

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "import-example.csv"


def post_file(client, slug, data, name="storia.csv"):
    return client.post(f"/c/{slug}/import", {"file": SimpleUploadedFile(name, data)})


def test_upload_preview_accept_progress_undo(people, django_capture_on_commit_callbacks):
    client = client_for(people, "director")
    slug = people.club.slug
    page = client.get(f"/c/{slug}/import")
    assert page.status_code == 200 and b'enctype="multipart/form-data"' in page.content
    assert client.get(f"/c/{slug}/import/example.csv").content == EXAMPLE.read_bytes()
    answer = post_file(client, slug, EXAMPLE.read_bytes())
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


def test_a_running_import_polls_its_progress(people):
    client = client_for(people, "director")
    post_file(client, people.club.slug, EXAMPLE.read_bytes())
    batch = Import.objects.get()
    Import.objects.filter(pk=batch.pk).update(status="running", nights_done=1)
    body = client.get(f"/c/{people.club.slug}/import/{batch.pk}").content.decode()
    assert 'hx-trigger="every 1s"' in body and 'value="50"' in body


def test_refused_rows_are_listed_in_italian(people):
    client = client_for(people, "director")
    client.cookies["django_language"] = "it"
    text = EXAMPLE.read_text().replace("2016-01-12", "2099-01-12", 1)
    answer = post_file(client, people.club.slug, text.encode())
    assert answer.status_code == 400
    body = answer.content.decode()
    assert "Riga 2, colonna A (date)" in body and "futuro" in body
    assert not Import.objects.exists()


@pytest.mark.parametrize("data", [b"%PDF-1.4", b"date,game,seats,deal\nx\x00", b""])
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


def test_the_previews_dates_are_written_as_the_reader_writes_them(people):
    """The preview said '2016-01-12 – 2016-01-19' on an Italian page (seen in the browser
    test's screenshot): the nights' first and last day go through the pages' date filter."""
    client = client_for(people, "director")
    client.cookies["django_language"] = "it"
    answer = post_file(client, people.club.slug, EXAMPLE.read_bytes())
    preview = client.get(answer["Location"]).content.decode()
    assert "2016-01-12" not in preview
    assert "12/01/2016" in preview and "19/01/2016" in preview
