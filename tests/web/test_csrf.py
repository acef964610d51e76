"""CSRF on every form and every htmx request (issue 13, Security). Django's test client
skips the check unless asked; these ask."""

import re

from django.test import Client

from tests.web.test_pages import PAGES


def strict(people, who):
    client = Client(enforce_csrf_checks=True)
    client.force_login(people[who])
    return client


def test_every_post_form_on_every_page_carries_the_token(club, people, world):
    client = Client()
    client.force_login(people["owner"])
    for name, (url, _expected) in PAGES.items():
        response = client.get(url.format(**world))
        if not response["Content-Type"].startswith("text/html"):
            continue
        html = response.content.decode()
        for form in re.findall(r"<form[^>]*method=\"post\"[^>]*>.*?</form>", html, re.S | re.I):
            assert 'name="csrfmiddlewaretoken"' in form, (name, form[:200])


def test_a_form_posted_without_the_token_is_refused_and_with_it_accepted(club, people, world):
    client = strict(people, "director")
    url = f"/c/{club.slug}/nights/new"
    refused = client.post(url, {"date": "2026-11-27", "venue": "Bar"})
    assert refused.status_code == 403
    token = re.search(
        r'name="csrfmiddlewaretoken" value="([^"]+)"', client.get(url).content.decode()
    )
    accepted = client.post(
        url, {"date": "2026-11-27", "venue": "Bar", "csrfmiddlewaretoken": token.group(1)}
    )
    assert accepted.status_code == 302


def test_htmx_requests_send_the_token_in_a_header(club, people, world):
    """base.html gives htmx the token (hx-headers); the engine's live check needs it."""
    client = strict(people, "scorer")
    page = client.get(f"/m/{world['match']}/deals/new").content.decode()
    header = re.search(r"hx-headers='\{\"X-CSRFToken\": \"([^\"]+)\"\}'", page)
    assert header, "the page gives htmx no CSRF token"
    url = f"/m/{world['match']}/deals/check"
    fields = {"level": "totals", "sides.A.thirds": "14", "sides.A.tricks": "4"}
    assert client.post(url, fields, HTTP_HX_REQUEST="true").status_code == 403
    answer = client.post(url, fields, HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=header.group(1))
    assert answer.status_code == 200
