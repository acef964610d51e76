"""Federal tournaments and the ranking through HTTP (issue 34 items 4 and 5): an officer
announces, persons of two clubs register (one waits past the cap, then is promoted), the
host's director opens it on tonight's night, the host plays it, and the ranking and a
person's history answer with the federal points; the fee only to those who may see it."""

import datetime

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from scorebook.federations import points
from scorebook.federations.models import FederalTournament
from scorebook.tournaments.models import Tournament
from tests import builders as build
from tests.federations.federal import play_through, world

pytestmark = pytest.mark.django_db


def as_(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_federal_tournament_through_the_api(people):
    w = world(people)
    body = {
        "name": "Provinciale d'autunno",
        "date": timezone.localdate().isoformat(),
        "host": "san-rocco",
        "level": "regional",
        "game": build.GAME,
        "rules": build.RULES,
        "format": "swiss",
        "rounds": 1,
        "fee": "10.00",
        "federation_share": "2.50",
        "currency": "EUR",
        "cap": 2,
    }
    made = as_(w.officer).post(f"/api/v1/federations/{w.fed.pk}/tournaments", body, format="json")
    assert made.status_code == 201, made.content
    federal = made.json()
    assert (federal["status"], federal["host"]["slug"], federal["fee"]) == (
        "announced",
        "san-rocco",
        "10.00",
    )
    url = f"/api/v1/federal-tournaments/{federal['id']}"
    # a person of a member club sees it, without the money
    seen = as_(w.there[0]).get(url).json()
    assert (seen["fee"], seen["federation_share"], seen["currency"]) == (None, None, None)
    assert as_(people.director).get(url).json()["fee"] == "10.00"  # the host's director
    answers = [
        as_(a).post(f"{url}/registrations", {"partner": b.username}, format="json")
        for a, b in ((w.here[0], w.here[1]), (w.there[0], w.there[1]), (w.there[2], w.there[3]))
    ]
    assert [a.status_code for a in answers] == [201, 201, 201]
    assert [a.json()["status"] for a in answers] == ["registered", "registered", "waiting"]
    assert answers[2].json()["waiting_position"] == 1
    refused = as_(w.here[2]).post(f"{url}/registrations", {"partner": "bm1"}, format="json")
    assert refused.status_code == 409
    assert refused.json()["errors"][0]["code"] == "federal_registration.already_in"
    gone = as_(w.here[1]).post(f"/api/v1/federal-registrations/{answers[0].json()['id']}/withdraw")
    assert gone.status_code == 200 and gone.json()["status"] == "withdrawn"
    rows = as_(w.here[0]).get(f"{url}/registrations").json()
    assert [r["status"] for r in rows] == ["registered", "registered", "withdrawn"]
    again = as_(w.here[0]).post(f"{url}/registrations", {"partner": "sr3"}, format="json")
    assert again.json()["status"] == "waiting"
    # the host's director opens it on tonight's night
    night = build.night(people, date=timezone.localdate())
    not_host = as_(w.officer).post(f"{url}/open", {"night": night.pk}, format="json")
    assert not_host.status_code == 403
    opened = as_(people.director).post(f"{url}/open", {"night": night.pk}, format="json")
    assert opened.status_code == 200, opened.content
    assert opened.json()["status"] == "opened" and opened.json()["tournament"]
    tournament = Tournament.objects.get(pk=opened.json()["tournament"])
    assert tournament.entries.count() == 2
    play_through(people, tournament)
    done = as_(w.there[0]).get(url).json()
    assert done["finished"] and done["field"] == 2
    assert [p["points"] for p in done["placings"]] == [points.federal_points("regional", 2, 1), 0]
    ranking = as_(w.there[0]).get(f"/api/v1/federations/{w.fed.pk}/ranking").json()
    assert [r["points"] for r in ranking] == [40, 40]
    assert {r["username"] for r in ranking} == set(done["placings"][0]["persons"])
    assert all(r["number"] for r in ranking)
    winner = next(u for u in w.there if u.username == ranking[0]["username"])
    history = as_(w.here[0]).get(f"/api/v1/federations/{w.fed.pk}/ranking/{winner.pk}").json()
    assert [(h["place"], h["field"], h["points"], h["counts"]) for h in history] == [
        (1, 2, 40, True)
    ]
    # the public ranking only once the federation publishes
    public = APIClient().get(f"/api/v1/public/federations/{w.fed.slug}/ranking")
    assert public.status_code == 404
    w.fed.publishes = True
    w.fed.save()
    public = APIClient().get(f"/api/v1/public/federations/{w.fed.slug}/ranking")
    assert [r["points"] for r in public.json()] == [40, 40]
    assert "fee" not in public.content.decode()
    assert FederalTournament.objects.get().status == "opened"


@pytest.fixture
def after_midnight_in_rome(monkeypatch, settings):
    """The clock at 00:30 in Rome (23:30 UTC, still the day before in the zone the API's
    requests run with), moving on from there."""
    settings.TIME_ZONE = "Europe/Rome"
    real = timezone.now
    shift = datetime.datetime(2026, 11, 29, 23, 30, tzinfo=datetime.UTC) - real()
    monkeypatch.setattr(timezone, "now", lambda: real() + shift)


def test_the_ranking_through_the_api_after_midnight_in_rome(people, after_midnight_in_rome):
    """The whole walk above at 00:30 in Rome. The API's requests run with UTC active, and
    the ranking's "today" came from the active zone: the 29th, while the tournament just
    played was dated the 30th, Rome's today. The ranking answered empty, the public one
    too, until 1 am (the PostgreSQL pass went red when it ran at that hour)."""
    assert timezone.localdate() == datetime.date(2026, 11, 30)
    test_a_federal_tournament_through_the_api(people)


def test_an_announcement_for_the_host_s_yesterday_is_refused_after_midnight(
    people, after_midnight_in_rome
):
    """At 00:30 in Rome the 29th is yesterday at the host: refused, though UTC (the API's
    active zone) is still at the 29th; the 30th is today there and is accepted."""
    w = world(people)
    body = {
        "name": "Notturno",
        "host": "san-rocco",
        "level": "provincial",
        "game": build.GAME,
        "rules": build.RULES,
        "format": "swiss",
        "rounds": 1,
        "cap": 2,
    }
    url = f"/api/v1/federations/{w.fed.pk}/tournaments"
    late = as_(w.officer).post(url, {**body, "date": "2026-11-29"}, format="json")
    assert late.status_code == 400, late.content
    assert late.json()["errors"][0]["path"] == "date"
    assert not FederalTournament.objects.exists()
    made = as_(w.officer).post(url, {**body, "date": "2026-11-30"}, format="json")
    assert made.status_code == 201, made.content
