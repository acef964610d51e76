"""The import through HTTP: upload (multipart: 202, the check runs as a task, eager
here), the preview's refusals with row and column, acceptance (the task, eager here),
progress, a second upload of the same file, undo; bad files answer in words and store
nothing of the club's record."""

from __future__ import annotations

import io
from datetime import date
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from scorebook.history.models import Import, PlannedMatch
from scorebook.matches.models import Deal, Night
from scorebook.standings import services as standings
from scorebook.standings.models import LeaderboardRow
from tests.api.common import api

pytestmark = pytest.mark.usefixtures("eager_tasks")

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "import-example.csv"
URL = "/api/v1/imports"


def upload(client, club, data: bytes, name="history.csv", **extra):
    return client.post(
        URL, {"club": club.pk, "file": SimpleUploadedFile(name, data)}, format="multipart", **extra
    )


@pytest.fixture
def checked(django_capture_on_commit_callbacks):
    """Upload, let the check run (when the upload commits), and read the import."""

    def check(client, club, data: bytes, **extra):
        with django_capture_on_commit_callbacks(execute=True):
            answer = upload(client, club, data, **extra)
        assert answer.status_code == 202, answer.content
        assert answer.json()["status"] == "checking"  # the test's transaction: not yet run
        return client.get(f"{URL}/{answer.json()['id']}", **extra).json()

    return check


@pytest.fixture
def director(people):
    return api(people, "director")


def test_round_trip_upload_accept_progress_undo(
    people, director, checked, django_capture_on_commit_callbacks
):
    standings.season_create(
        club_id=people.club.pk,
        name="All",
        starts_on=date(2010, 1, 1),
        ends_on=None,
        user=people.director,
    )
    body = checked(director, people.club, EXAMPLE.read_bytes())
    assert body["status"] == "preview" and body["problems"] == []
    rows = [line for line in EXAMPLE.read_text().splitlines()[1:] if line.strip(",")]
    assert body["rows_done"] == body["rows_total"] == len(rows)
    assert body["summary"]["nights"] == 2 and body["summary"]["deals"] == 12
    assert body["summary"]["players"] == ["Nino", "Salvo"]
    assert body["summary"]["guests"] == ["Gino", "Lia", "Maria", "Rosa"]
    assert not Night.objects.filter(club=people.club).exists()
    with django_capture_on_commit_callbacks(execute=True):
        accepted = director.post(f"{URL}/{body['id']}/accept")
    assert accepted.status_code == 202
    state = director.get(f"{URL}/{body['id']}").json()
    assert (state["status"], state["percent"], state["nights_done"]) == ("done", 100, 2)
    assert Deal.objects.filter(match__night__club=people.club).count() == 12
    board = director.get("/api/v1/leaderboard", {"club": people.club.pk}).json()
    assert board  # the leaderboard answers with the imported years
    assert LeaderboardRow.objects.filter(club=people.club).exists()
    again = checked(director, people.club, EXAMPLE.read_bytes())
    assert again["status"] == "refused"
    assert again["problems"][0]["code"] == "import.nothing_new"
    # The undo marks the club for a rebuild, run once it commits (the bulk queue's task).
    with django_capture_on_commit_callbacks(execute=True):
        undone = director.post(f"{URL}/{body['id']}/undo")
    assert undone.status_code == 200 and undone.json()["status"] == "undone"
    assert not Night.objects.filter(club=people.club).exists()
    assert not LeaderboardRow.objects.filter(club=people.club).exists()


def test_refused_rows_name_row_and_column_in_italian(people, director, checked):
    text = EXAMPLE.read_text().replace("tressette2", "briscola", 1)
    body = checked(director, people.club, text.encode(), HTTP_ACCEPT_LANGUAGE="it")
    assert body["status"] == "refused"
    first = body["problems"][0]
    assert first["params"] == {"row": 6, "column": "game", "letter": "D"}
    assert first["message"].startswith("Non esiste il gioco 'briscola'")
    assert not PlannedMatch.objects.exists() and not Night.objects.exists()
    assert Import.objects.get().upload is None  # the file is not kept


def _xlsx_with_formula() -> bytes:
    import openpyxl

    book = openpyxl.Workbook()
    book.active.append(["date", "game", "seats", "deal"])
    book.active.append(["=TODAY()", "x", "N=a", "{}"])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


@pytest.mark.parametrize(
    ("data", "code", "status"),
    [
        (b"%PDF-1.7\n...", "import.not_a_template", 400),
        (b"\x89PNG\r\n\x1a\n" + b"\x00" * 50, "import.not_a_template", 400),
        (b"date,game,seats,deal\n2016-01-01,x,N=\xed\xa0\x80,{}\n", "import.not_utf8", 400),
        ("date,game\n".encode("utf-16"), "import.not_a_template", 400),
    ],
)
def test_files_refused_at_once_store_nothing(people, director, data, code, status):
    answer = upload(director, people.club, data)
    assert answer.status_code == status, answer.content
    error = answer.json()["errors"][0]
    assert error["code"] == code and error["message"]
    assert not Import.objects.exists() and not Night.objects.exists()


@pytest.mark.parametrize(
    ("data", "code", "where"),
    [
        (b"date,game\n2016-01-01,x\n", "import.missing_column", {"column": "seats"}),
        (
            b"date,game,seats,deal\n2016-01-01,x,N=a\x00,{}\n",
            "import.bad_character",
            {"row": 2, "column": "C", "char": "U+0000"},
        ),
        (_xlsx_with_formula(), "import.formula", {"row": 2, "column": "A"}),
        (
            b"date,game,seats,deal\n2999-01-01,x,N=a,{}\n",
            "import.future_date",
            {"row": 2, "column": "date", "letter": "A"},
        ),
    ],
)
def test_files_refused_by_their_check_answer_in_words(people, director, checked, data, code, where):
    body = checked(director, people.club, data)
    assert body["status"] == "refused"
    error = body["problems"][0]
    assert error["code"] == code and error["message"]
    assert where.items() <= error["params"].items()
    assert not PlannedMatch.objects.exists() and not Night.objects.exists()


def test_a_50_mb_file_is_refused_unread(people, director):
    answer = upload(director, people.club, b"date,game,seats,deal\n" + b"x" * (50 * 1024 * 1024))
    assert answer.status_code == 413
    assert answer.json()["errors"][0]["code"] == "import.too_large"
    assert not Import.objects.exists()


@pytest.mark.parametrize("who", ["scorer", "member", "stranger", "anonymous"])
def test_only_directors_import(people, who):
    answer = upload(api(people, who), people.club, EXAMPLE.read_bytes())
    assert answer.status_code in (400, 401, 403)
    assert not Import.objects.exists()


def test_another_clubs_import_is_not_found(people, director, checked):
    checked(director, people.club, EXAMPLE.read_bytes())
    batch = Import.objects.get()
    stranger = api(people, "stranger")
    assert stranger.get(f"{URL}/{batch.pk}").status_code == 404
    assert stranger.post(f"{URL}/{batch.pk}/accept").status_code == 404
    assert stranger.post(f"{URL}/{batch.pk}/undo").status_code == 404
    assert stranger.get(URL).json()["results"] == []
