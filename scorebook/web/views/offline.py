"""The service worker (``/sw.js``): the app shell and the pages of the matches open on the
phone stay on it for a Wi-Fi outage (``web/sw.js`` says how; ``web/queue.js`` keeps the
saves in IndexedDB and sends them in order).

Served from the site's root so its scope covers every page. Its first line gives it what
it needs from here: the static files' URLs (hashed names in production), the pages it
keeps, and a version: a hash of those files, of the worker itself and of ``BUILD_ID``.
A deploy that changes any of them changes the worker's bytes, so every phone installs
the new one on its next page and drops the old caches.
"""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_GET

WORKER = "web/sw.js"
#: The app shell: every page's style sheets, scripts and icon.
SHELL = (
    "web/app.css",
    "web/table.css",
    "web/app.js",
    "web/htmx.min.js",
    "web/tally.js",
    "web/queue.js",
    "web/icon.svg",
)
#: The pages kept for an outage (path patterns, JavaScript regular expressions): a match
#: and its next deal's form.
PAGES = (r"^/m/\d+/$", r"^/m/\d+/deals/new$")


def _read(name: str) -> bytes:
    """A static file's bytes: from the app's folder, else from the collected files."""
    path = finders.find(name)
    if isinstance(path, str):
        with open(path, "rb") as f:
            return f.read()
    with staticfiles_storage.open(name) as f:
        return f.read()


def worker_version() -> str:
    """What names this worker: its own bytes, the shell's, and the deploy's BUILD_ID."""
    digest = hashlib.sha256(str(getattr(settings, "BUILD_ID", "")).encode())
    for name in (WORKER, *SHELL):
        digest.update(name.encode() + b"\0" + _read(name))
    return digest.hexdigest()[:16]


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    config = {
        "version": worker_version(),
        "shell": [static(name) for name in SHELL],
        "pages": list(PAGES),
        "login": reverse("web:login"),
        "logout": reverse("web:logout"),
    }
    body = f"self.SB = {json.dumps(config)};\n".encode() + _read(WORKER)
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    # Asked again on every page (the browser compares the bytes): never from a cache.
    response["Cache-Control"] = "no-cache"
    return response
