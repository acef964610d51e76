"""Offline through HTTP: the service worker's script and what it is told, its version
(a deploy makes a new one), the marks the pages give queue.js (no field names), and the
queue's request (the key in a header, the CSRF token from the cookie) saving once."""

import json
import re
import uuid

import pytest
from django.conf import settings
from django.templatetags.static import static
from django.test import Client

from scorebook.matches.models import Deal
from scorebook.web.views import offline
from tests.web.test_deal_pages import TV01, as_, match  # noqa: F401 (a fixture)


def config(response):
    first = response.content.decode().split("\n", 1)[0]
    found = re.fullmatch(r"self\.SB = (\{.*\});", first)
    assert found, first
    return json.loads(found.group(1))


@pytest.mark.django_db
def test_the_worker_is_served_from_the_root_never_cached_under_the_csp():
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    policy = response["Content-Security-Policy"]
    assert "worker-src 'self'" in policy and "'unsafe-inline'" not in policy
    told = config(response)
    assert told["version"] == offline.worker_version()
    assert told["shell"] == [static(name) for name in offline.SHELL]
    assert told["login"] == "/login" and told["logout"] == "/logout"
    pages = [re.compile(p) for p in told["pages"]]
    for path, kept in (("/m/7/", True), ("/m/7/deals/new", True), ("/d/3/", False),
                       ("/m/7/deals/check", False), ("/c/x/", False)):  # fmt: skip
        assert any(p.search(path) for p in pages) is kept, path
    assert b'addEventListener("fetch"' in response.content


@pytest.mark.django_db
def test_a_deploy_makes_a_new_worker(monkeypatch):
    first = offline.worker_version()
    monkeypatch.setattr(settings, "BUILD_ID", "deploy-2", raising=False)
    second = offline.worker_version()
    assert second != first
    assert config(Client().get("/sw.js"))["version"] == second
    # A changed style sheet, with the same BUILD_ID, changes it too.
    read = offline._read
    monkeypatch.setattr(
        offline, "_read", lambda name: read(name) + (b"/**/" if name == "web/app.css" else b"")
    )
    assert offline.worker_version() not in (first, second)


def test_signed_in_pages_register_the_worker_and_mark_the_form(people, match):  # noqa: F811
    welcome = Client().get("/").content.decode()
    assert "data-sw=" not in welcome  # nobody signed in: no worker, no queue
    page = as_(people, "scorer").get(f"/m/{match.pk}/").content.decode()
    assert 'data-sw="/sw.js"' in page
    assert f'data-queued="{match.pk}"' in page and "data-queued-note" in page
    assert re.search(rf'href="/m/{match.pk}/deals/new" data-warm', page)
    form = as_(people, "scorer").get(f"/m/{match.pk}/deals/new").content.decode()
    tag = re.search(r'<form [^>]*id="deal-form"[^>]*>', form, re.S).group(0)
    assert f'data-match="{match.pk}"' in tag and 'data-next="/m/' in tag
    assert re.search(r'name="expected_number" value="1"', form)
    assert re.search(r"<h1 data-numbered>", form)
    assert re.search(r'name="shape" value="[^"]+" data-this-deal', form)
    # The totals the offline check reads: 10 whole points (and 2 figures) on the quick
    # form; 32 thirds in the deck and 10 tricks on the detailed one.
    assert re.search(r'name="sides.A.thirds" value="" data-max="10"', form)
    totals = as_(people, "scorer").get(f"/m/{match.pk}/deals/new?level=totals").content.decode()
    assert re.search(r'name="sides.A.thirds" value="" data-max="32"', totals)
    assert re.search(r'name="sides.A.tricks" value="" data-max="10"', totals)


def test_the_queues_request_is_stored_once(people, match):  # noqa: F811
    """What queue.js sends: the form's fields without the CSRF token, the token in a
    header (from the cookie, fresh at sending time), the Idempotency-Key header."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(people.scorer)
    client.get(f"/m/{match.pk}/deals/new")
    token = client.cookies[settings.CSRF_COOKIE_NAME].value
    key = str(uuid.uuid4())
    body = {**TV01, "expected_number": "1", "idempotency_key": key}
    for _ in range(2):  # sent again after a lost answer: stored once, the same page
        answer = client.post(
            f"/m/{match.pk}/deals/new", body, HTTP_X_CSRFTOKEN=token, HTTP_IDEMPOTENCY_KEY=key
        )
        assert answer.status_code == 303
        assert answer["Location"].endswith(f"saved={Deal.objects.get().pk}")
    assert Deal.objects.count() == 1
