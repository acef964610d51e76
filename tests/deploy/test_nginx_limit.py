"""deploy/nginx.conf agrees with the app (issue 31 item 5): its body limit sits a little
above the import's (IMPORT_MAX_BYTES, the one home of the number), so that an upload just
too large reaches the app and gets its JSON import.too_large, not nginx's HTML 413."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.api.common import api

NGINX = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"
#: What a multipart body holds besides the file: the boundaries, the headers, the club.
FORM_ROOM = 64 * 1024
#: "A little above": nginx's limit at most this much above the app's.
MARGIN = 2 * 1024 * 1024
UNITS = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3}


def body_limits(text: str) -> list[int]:
    """Every client_max_body_size of the configuration, in bytes (comments left out)."""
    text = "\n".join(line.split("#", 1)[0] for line in text.splitlines())
    found = re.findall(r"\bclient_max_body_size\s+(\d+)([kKmMgG]?)\s*;", text)
    return [int(number) * UNITS[unit.lower()] for number, unit in found]


def test_the_shipped_nginx_limit_sits_just_above_the_imports(settings):
    limits = body_limits(NGINX.read_text())
    assert limits, "deploy/nginx.conf sets no client_max_body_size (nginx's default: 1 MB)"
    for limit in limits:
        assert limit >= settings.IMPORT_MAX_BYTES + FORM_ROOM, (limit, settings.IMPORT_MAX_BYTES)
        assert limit <= settings.IMPORT_MAX_BYTES + MARGIN, (limit, settings.IMPORT_MAX_BYTES)
    assert settings.IMPORT_MAX_BYTES == settings.IMPORT_MAX_MB * 1024 * 1024


@pytest.mark.parametrize(
    ("conf", "agrees"),
    [
        ("client_max_body_size 2m;", False),  # what was shipped: the app's 10 MB never came
        ("client_max_body_size 11m;", True),
        ("client_max_body_size 11264k;", True),
        ("client_max_body_size 10m;", False),  # no room for the form around the file
        ("client_max_body_size 64m;", False),  # nginx, not the app, answers 20 MB
        ("# client_max_body_size 11m;\nclient_max_body_size 2m;", False),
    ],
)
def test_the_check_reads_the_directive(conf, agrees, settings):
    settings.IMPORT_MAX_MB, settings.IMPORT_MAX_BYTES = 10, 10 * 1024 * 1024
    limits = body_limits(conf)
    fits = all(
        settings.IMPORT_MAX_BYTES + FORM_ROOM <= limit <= settings.IMPORT_MAX_BYTES + MARGIN
        for limit in limits
    )
    assert fits == agrees


def test_an_upload_between_the_two_limits_gets_the_apps_words(people, settings):
    """A file one byte over the import's limit (under nginx's): JSON import.too_large
    from the API, the refusal in words on the page; nothing stored."""
    from scorebook.history.models import Import

    settings.IMPORT_MAX_BYTES = 4096
    data = b"date,game,seats,deal\n" + b"x" * 4096
    answer = api(people, "director").post(
        "/api/v1/imports",
        {"club": people.club.pk, "file": SimpleUploadedFile("big.csv", data)},
        format="multipart",
    )
    assert answer.status_code == 413 and answer["Content-Type"] == "application/json"
    assert answer.json()["errors"][0]["code"] == "import.too_large"
    from tests.web.test_pages import client_for

    page = client_for(people, "director").post(
        f"/c/{people.club.slug}/import", {"file": SimpleUploadedFile("big.csv", data)}
    )
    assert page.status_code == 413 and "MB" in page.content.decode()
    assert not Import.objects.exists()
