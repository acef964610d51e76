"""The API docs page runs on files we serve: a pinned Swagger UI (drf-spectacular-sidecar),
its start-up script as a file (no inline script or style for the CSP), no CDN."""

import re

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders

ATTRIBUTE = re.compile(r'(?:src|href)="([^"]*)"')


@pytest.mark.django_db
def test_the_docs_page_references_only_our_own_files(client):
    page = client.get("/api/docs/")
    assert page.status_code == 200
    html = page.content.decode()
    urls = ATTRIBUTE.findall(html)
    assert len(urls) >= 4  # favicon, stylesheet, two bundles, the start-up script
    assert not re.search(r"https?:|//", " ".join(urls)), urls
    assert "<script>" not in html and "<style>" not in html
    # Under the pages' policy, not exempt from it (checked in headless Chromium: Swagger UI
    # renders every operation and the console reports no refusal).
    policy = page["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe" not in policy
    for url in urls:
        static = "/" + settings.STATIC_URL.lstrip("/")
        if url.startswith(static):
            assert finders.find(url.removeprefix(static)), url
        else:
            assert client.get(url.replace("&amp;", "&")).status_code == 200, url


@pytest.mark.django_db
def test_the_start_up_script_loads_the_schema_from_here(client):
    script = client.get("/api/docs/?script=")
    assert script["Content-Type"].startswith("application/javascript")
    body = script.content.decode()
    assert 'url: "/api/schema/"' in body
    assert not re.search(r"https?://", body)  # no other host, no validator badge
    assert '"validatorUrl": null' in body
