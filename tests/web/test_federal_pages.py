"""The federal tournaments' and the ranking's pages (issue 34 items 4 and 5): an officer
announces on the page, persons of two clubs register and withdraw, the host's director
opens it on tonight's night and lands on the host's tournament, the placings and the
ranking show the points, CSV and PDF for the notice board, a person's history, the public
ranking only when the federation publishes; no money but for officers and the host's
directors."""

import pytest
from django.test import Client
from django.utils import timezone

from scorebook.federations.models import FederalRegistration, FederalTournament
from tests import builders as build
from tests.federations.federal import announce, play_through, world

pytestmark = pytest.mark.django_db


def as_(user):
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def w(people):
    return world(people)


def test_announce_register_open_and_rank_through_the_pages(people, w):
    base = f"/f/{w.fed.slug}/tournaments"
    assert as_(w.there[0]).get(base).status_code == 200  # a linked person sees it
    assert "Announce" not in as_(w.there[0]).get(base, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    form = {
        "name": "Provinciale di Natale",
        "date": timezone.localdate().isoformat(),
        "host": "san-rocco",
        "level": "provincial",
        "game": build.GAME,
        "format": "swiss",
        "rounds": "1",
        "cap": "2",
        "fee": "5",
        "federation_share": "1",
        "currency": "EUR",
        "announce": "1",
    }
    answer = as_(w.officer).post(base, form)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    row = FederalTournament.objects.get()
    url = f"/f/{w.fed.slug}/tournaments/{row.pk}/"
    assert answer["Location"] == url
    page = as_(w.there[0]).get(url).content.decode()
    assert "Register" in page or "Iscrivi" in page
    assert "5.00" not in page  # no money for a person
    assert "5.00" in as_(w.officer).get(url).content.decode()
    for a, b in ((w.here[0], w.here[1]), (w.there[0], w.there[1]), (w.there[2], w.there[3])):
        assert as_(a).post(url, {"register": "1", "partner": b.username}).status_code == 302
    assert list(FederalRegistration.objects.values_list("status", flat=True)) == [
        "registered",
        "registered",
        "waiting",
    ]
    refused = as_(w.here[2]).post(url, {"register": "1", "partner": "nobody"})
    assert refused.status_code == 400
    mine = FederalRegistration.objects.get(first=w.there[0])
    assert as_(w.here[2]).post(url, {"withdraw": mine.pk}).status_code == 403
    assert as_(w.there[1]).post(url, {"withdraw": mine.pk}).status_code == 302
    assert FederalRegistration.objects.get(first=w.there[2]).status == "registered"
    # the host's director opens it on tonight's night and lands on the host's tournament
    night = build.night(people, date=timezone.localdate())
    page = as_(people.director).get(url).content.decode()
    assert f'name="open" value="{night.pk}"' in page
    opened = as_(people.director).post(url, {"open": night.pk})
    row.refresh_from_db()
    assert (
        opened.status_code == 302
        and opened["Location"] == f"/t/{row.tournament_id}/"
        or (opened["Location"].endswith(str(row.tournament_id)))
    )
    assert row.tournament.entries.count() == 2
    play_through(people, row.tournament)
    page = as_(w.here[0]).get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="placings"' in page and "20 points" in page
    ranking = as_(w.here[0]).get(f"/f/{w.fed.slug}/ranking/", HTTP_ACCEPT_LANGUAGE="en")
    text = ranking.content.decode()
    assert ranking.status_code == 200 and "20 points" in text and "5.00" not in text
    csv = as_(w.here[0]).get(f"/f/{w.fed.slug}/ranking.csv")
    assert csv.status_code == 200 and csv["Content-Type"].startswith("text/csv")
    assert b",20," in csv.content
    pdf = as_(w.here[0]).get(f"/f/{w.fed.slug}/ranking.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    winner = row.tournament.entries.order_by("seed").first()
    assert winner is not None
    person = as_(w.there[0]).get(f"/f/{w.fed.slug}/ranking/{w.here[0].pk}/")
    assert person.status_code == 200 and 'id="history"' in person.content.decode()
    # public only once the federation publishes
    assert Client().get(f"/public/f/{w.fed.slug}/ranking/").status_code == 404
    w.fed.publishes = True
    w.fed.save()
    public = Client().get(f"/public/f/{w.fed.slug}/ranking/", HTTP_ACCEPT_LANGUAGE="en")
    assert public.status_code == 200 and "20 points" in public.content.decode()


def test_who_does_not_see_the_pages(people, w):
    t = announce(w)
    for url in (
        f"/f/{w.fed.slug}/tournaments",
        f"/f/{w.fed.slug}/tournaments/{t.pk}/",
        f"/f/{w.fed.slug}/ranking/",
        f"/f/{w.fed.slug}/ranking.csv",
        f"/f/{w.fed.slug}/ranking/{w.here[0].pk}/",
    ):
        assert as_(people.stranger).get(url).status_code == 404, url
    assert as_(w.here[0]).get(f"/f/{w.fed.slug}/tournaments/999999/").status_code == 404
    assert as_(w.here[0]).post(f"/f/{w.fed.slug}/tournaments", {"announce": "1"}).status_code in (
        400,
        403,
    )
    assert (
        as_(w.here[0])
        .post(f"/f/{w.fed.slug}/tournaments/{t.pk}/", {"cancel": "1", "reason": "x"})
        .status_code
        == 403
    )
