"""The federation's member clubs, 50 to a page (issue 35 item 5: at 2,002 clubs one page of
all of them answered a tenth as fast as a plain 50-row read): the public page, the
federation's home and its clubs page, each with links to the other pages, in Italian too;
a federation that does not publish has no public page however many clubs it has."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scorebook.clubs.models import Club
from scorebook.federations.models import Affiliation, Federation
from scorebook.web.views.federations import CLUBS_PER_PAGE
from tests import builders

pytestmark = pytest.mark.django_db

MORE = CLUBS_PER_PAGE + 3


@pytest.fixture
def big() -> Federation:
    federation = builders.federation(publishes=True)
    clubs = Club.objects.bulk_create(
        Club(name=f"Circolo {i:03d}", slug=f"circolo-{i:03d}", public=i % 2 == 0)
        for i in range(MORE)
    )
    Affiliation.objects.bulk_create(Affiliation(federation=federation, club=c) for c in clubs)
    # one that left: the clubs page lists its period, the home and the public page do not
    Affiliation.objects.filter(club__slug="circolo-000").update(left_at=timezone.now())
    return federation


def names(page: str) -> list[str]:
    return [n for n in (f"Circolo {i:03d}" for i in range(MORE)) if n in page]


def test_the_public_page_lists_fifty_clubs_a_page(big):
    client = Client()
    with CaptureQueriesContext(connection) as first_queries:
        first = client.get("/public/f/comitato-pa/")
    page = first.content.decode()
    assert first.status_code == 200
    assert names(page) == [f"Circolo {i:03d}" for i in range(1, CLUBS_PER_PAGE + 1)]
    assert 'rel="next" href="?page=2"' in page and 'rel="prev"' not in page
    assert "Page 1 of 2" in page
    second = client.get("/public/f/comitato-pa/?page=2").content.decode()
    assert names(second) == [f"Circolo {i:03d}" for i in range(CLUBS_PER_PAGE + 1, MORE)]
    assert 'rel="prev" href="?page=1"' in second and 'rel="next"' not in second
    # not a number: the first page; out of range: the last
    assert names(client.get("/public/f/comitato-pa/?page=x").content.decode()) == names(page)
    assert names(client.get("/public/f/comitato-pa/?page=9").content.decode()) == names(second)
    # the page's queries do not grow with the clubs: the federation, a count, one page
    assert len(first_queries) <= 4
    italian = client.get("/public/f/comitato-pa/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Pagina 1 di 2" in italian and "Circoli successivi" in italian


def test_a_federation_that_does_not_publish_has_no_public_page(big):
    Federation.objects.filter(pk=big.pk).update(publishes=False)
    assert Client().get("/public/f/comitato-pa/?page=2").status_code == 404


def test_the_officers_pages_are_paged_too(big):
    officer = Client()
    officer.force_login(big.officers.get(role="president").user)
    home = officer.get("/f/comitato-pa/").content.decode()
    assert names(home) == [f"Circolo {i:03d}" for i in range(1, CLUBS_PER_PAGE + 1)]
    assert 'rel="next" href="?page=2"' in home
    home_2 = officer.get("/f/comitato-pa/?page=2").content.decode()
    assert names(home_2) == [f"Circolo {i:03d}" for i in range(CLUBS_PER_PAGE + 1, MORE)]
    # every period, current first: the one that left is on the last page
    clubs = officer.get("/f/comitato-pa/clubs").content.decode()
    assert len(names(clubs)) == CLUBS_PER_PAGE and "Circolo 000" not in clubs
    last = officer.get("/f/comitato-pa/clubs?page=2").content.decode()
    assert "Circolo 000" in last and 'rel="prev" href="?page=1"' in last
