"""deploy/nginx.conf agrees with the app (issue 31 item 5): its body limit sits a little
above the import's (IMPORT_MAX_BYTES, the one home of the number), so that an upload just
too large reaches the app and gets its JSON import.too_large, not nginx's HTML 413."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings as django_settings
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


def too_large_answers(text: str) -> dict[str, tuple[str, int, str]]:
    """nginx's own 413s: ``error_page 413 <prefix>$uri`` sends the request to the
    location whose prefix is longest; each such location (internal) to its content type,
    status and body."""
    text = "\n".join(line.split("#", 1)[0] for line in text.splitlines())
    (prefix,) = re.findall(r"\berror_page\s+413\s+(/\S*?)\$uri\s*;", text)
    answers = {}
    for where, body in re.findall(r"location\s+\^~\s+(\S+)\s*{((?:[^}']|'[^']*')*)}", text):
        if not where.startswith(prefix + "/"):
            continue
        assert re.search(r"\binternal\s*;", body), f"{where} is reachable from outside"
        (kind,) = re.findall(r"\bdefault_type\s+(\S+)\s*;", body)
        (status, answer), *_ = re.findall(r"return\s+(\d+)\s+'([^']*)'\s*;", body)
        answers[where[len(prefix) :]] = (kind, int(status), answer)
    return answers


def _answer_for(answers: dict[str, tuple[str, int, str]], path: str) -> tuple[str, int, str]:
    """The answer nginx gives ``path``: its longest prefix location's."""
    found = max((where for where in answers if path.startswith(where)), key=len)
    return answers[found]


def test_nginxs_own_413_speaks_the_apis_shape_on_api_paths(people, settings):
    """Past nginx's limit the app never sees the body: nginx's 413 for /api/ is JSON in
    the app's shape (an import: import.too_large with the import's limit, IMPORT_MAX_MB;
    any other route: http.too_large, the app's own code for a body too large), its
    entries the same keys as the app's; the pages get a short page in words, not JSON."""
    answers = too_large_answers(NGINX.read_text())
    settings.IMPORT_MAX_BYTES = 4096
    app = api(people, "director").post(
        "/api/v1/imports",
        {"club": people.club.pk, "file": SimpleUploadedFile("big.csv", b"x" * 5000)},
        format="multipart",
    )
    app_entry = app.json()["errors"][0]
    for path in ("/api/v1/imports", "/api/v1/imports/"):
        kind, status, body = _answer_for(answers, path)
        (entry,) = json.loads(body)["errors"]
        assert (kind, status) == ("application/json", 413)
        assert entry["code"] == app_entry["code"] == "import.too_large"
        assert set(entry) == set(app_entry) and set(entry["params"]) <= set(app_entry["params"])
        assert entry["params"]["limit"] == django_settings.IMPORT_MAX_MB
        assert f"{django_settings.IMPORT_MAX_MB} MB" in entry["message"]
    kind, status, body = _answer_for(answers, "/api/v1/nights")
    (entry,) = json.loads(body)["errors"]
    assert (kind, status, entry["code"]) == ("application/json", 413, "http.too_large")
    assert set(entry) == set(app_entry)
    kind, status, body = _answer_for(answers, f"/c/{people.club.slug}/import")
    assert (kind, status) == ("text/html", 413) and body.startswith("<!doctype html>")
    assert f"{django_settings.IMPORT_MAX_MB} MB" in body


def test_the_413_check_reads_the_conf():
    """The parser above finds what a wrong configuration says (JSON for the pages, a
    location reachable from outside, no answer at all), so the test above can fail."""
    conf = """
    error_page 413 /_big$uri;
    location ^~ /_big/ { internal; default_type application/json; return 413 '{"errors": []}'; }
    location ^~ /_big/api/ { internal; default_type text/html; return 413 '<p>big</p>'; }"""
    answers = too_large_answers(conf)
    assert _answer_for(answers, "/api/v1/imports")[:2] == ("text/html", 413)
    assert _answer_for(answers, "/c/x/import")[0] == "application/json"
    with pytest.raises(AssertionError, match="reachable from outside"):
        too_large_answers(conf.replace("internal;", "", 1))
    with pytest.raises(ValueError):
        too_large_answers("client_max_body_size 11m;")
