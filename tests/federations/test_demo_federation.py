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
    # a member at San Rocco and Belmonte, Kalsa's guest at the federal tournament
    assert sorted(link.club.slug for link in nino) == ["belmonte", "kalsa", "san-rocco"]
    assert selectors.number_of(comitato, nino.first().user) is not None
    assert PersonLink.objects.get(user__username="rosa.greco").status == "proposed"
    page = Client().get("/public/f/comitato-palermo/").content.decode()
    assert all(name in page for name in ("Circolo Belmonte", "Circolo Kalsa", "Circolo San Rocco"))
    persons = selectors.federation_persons(comitato)
    assert {p["user"].username for p in persons} == {"nino.russo", "ettore.bruno"} | {
        "gianni",
        "lia",
        "santo",
        "marta",
        "turi",
        "ciccio",
    }  # the persons of the demo's federal tournament too


@pytest.mark.django_db
def test_the_demo_championship_is_under_way(settings):
    from scorebook.federations import championship_selectors as reads
    from scorebook.federations.models import Championship

    settings.DEBUG = True
    call_command("load_demo")
    made = Championship.objects.get(federation__slug="comitato-palermo")
    assert made.status == Championship.Status.STARTED
    assert made.fixtures.filter(status="confirmed").count() == 1
    assert made.fixtures.exclude(reason="").count() == 1  # the fixture put off
    [table] = reads.standings(made)
    assert sum(r.row.played for r in table.rows) == 2


@pytest.mark.django_db
def test_the_demo_federal_tournament_and_ranking(settings):
    """A federal tournament played today at Kalsa by four pairs of three clubs: its
    placings give points, the ranking has them, Kalsa's night owes the federation its share
    (8 EUR: eight players, 1 EUR each), and the public ranking shows no money. Kalsa's is
    the only night of Kalsa, closed; Belmonte's night today (the championship's) stays
    open, apart from it."""
    from decimal import Decimal

    from scorebook.federations import ranking
    from scorebook.federations.models import FederalTournament
    from scorebook.federations.services.federal_tournaments import share_pot
    from scorebook.ledger.models import Entry
    from scorebook.matches.models import Night

    settings.DEBUG = True
    call_command("load_demo")
    comitato = Federation.objects.get(slug="comitato-palermo")
    played = FederalTournament.objects.get(federation=comitato)
    assert played.host.slug == "kalsa" and ranking.is_finished(played)
    [kalsa_night] = Night.objects.filter(club__slug="kalsa")
    assert kalsa_night.date == played.date and kalsa_night.status == "closed"
    assert played.tournament is not None and played.tournament.night_id == kalsa_night.pk
    [belmonte_night] = Night.objects.filter(club__slug="belmonte")
    assert belmonte_night.status == "open" and belmonte_night.pk != kalsa_night.pk
    field, placed = ranking.placings(played)
    assert field == 4 and placed[0].points == 20
    rows = ranking.ranking(comitato)
    assert len(rows) == 4 and rows[0].points == 20  # the top half scores
    owed = Entry.objects.filter(payee__pot=share_pot(comitato.pk))
    assert sum(e.amount for e in owed) == Decimal("8.00")
    page = Client().get("/public/f/comitato-palermo/ranking/").content.decode()
    assert rows[0].user.username in page and "EUR" not in page
