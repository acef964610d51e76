"""The demo has a federation of three clubs with persons linked across them (issue 34):
its public page shows the three clubs, Nino is one account at two clubs with one number,
and a person's request waits at Kalsa."""

import pytest
from django.core.management import call_command
from django.test import Client

from scorebook.federations import selectors
from scorebook.federations.models import Federation, PersonLink


@pytest.mark.django_db
def test_the_demo_federation(settings):
    settings.DEBUG = True  # load_demo refuses otherwise
    call_command("load_demo")
    comitato = Federation.objects.get(slug="comitato-palermo")
    assert [c.slug for c in selectors.member_clubs(comitato)] == ["belmonte", "kalsa", "san-rocco"]
    nino = PersonLink.objects.filter(user__username="nino.russo", status="accepted")
    assert sorted(link.club.slug for link in nino) == ["belmonte", "san-rocco"]
    assert selectors.number_of(comitato, nino.first().user) is not None
    assert PersonLink.objects.get(user__username="rosa.greco").status == "proposed"
    page = Client().get("/public/f/comitato-palermo/").content.decode()
    assert all(name in page for name in ("Circolo Belmonte", "Circolo Kalsa", "Circolo San Rocco"))
    persons = selectors.federation_persons(comitato)
    assert {p["user"].username for p in persons} == {"nino.russo", "ettore.bruno"}
