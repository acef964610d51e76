"""A federal tournament in a real browser on 390 px phones (issue 34's Done-when): an
officer announces it on the federation's page, persons of two clubs register their pairs
on their phones, the host's director opens it on tonight's night with one tap and lands
on the host's tournament (the registered pairs already entered, the visitors as guests),
the host runs it (the rounds and deals through the services, as the tournament tests do),
and its placings give federal points that move the ranking a visiting person reads on
their phone. Each page is axe-clean and fits the phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_every_page import OVERFLOW

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


def fits(page, name):
    wider, culprits = page.evaluate(OVERFLOW)
    assert not wider, f"{name}: wider than the phone: {culprits}"


def test_a_federal_tournament_from_registration_to_the_ranking(people, phone, axe, shots):
    from django.utils import timezone

    from scorebook.federations import ranking
    from scorebook.federations.models import FederalRegistration, FederalTournament
    from tests import builders as build
    from tests.federations.federal import play_through, world

    w = world(people)
    fed = w.fed.slug
    officer = phone(w.officer, language="it")
    officer.set_viewport_size(PHONE)
    officer.goto(f"/f/{fed}/tournaments")
    axe(officer, "federal tournaments")
    officer.locator('[name="name"]').fill("Provinciale d'inverno")
    officer.locator('[name="date"]').fill(timezone.localdate().isoformat())
    officer.locator('[name="host"]').select_option("san-rocco")
    officer.locator('[name="game"]').select_option(build.GAME)
    officer.locator('[name="rounds"]').fill("1")
    officer.locator('[name="cap"]').fill("8")
    officer.locator('button[name="announce"]').click()
    officer.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    federal = FederalTournament.objects.get()
    url = f"/f/{fed}/tournaments/{federal.pk}/"

    # a pair of each club registers on its own phone
    for first, partner in ((w.here[0], "sr2"), (w.there[0], "bm2")):
        person = phone(first, language="en")
        person.set_viewport_size(PHONE)
        person.goto(url)
        person.locator('[name="partner"]').fill(partner)
        person.locator('button[name="register"]').click()
        expect(person.locator("#registrations")).to_contain_text(partner)
        axe(person, f"registered ({first.username})")
        fits(person, "the tournament")
    assert FederalRegistration.objects.filter(status="registered").count() == 2

    # the host's director opens it on tonight's night
    night = build.night(people, date=timezone.localdate())
    director = phone(people.director, language="it")
    director.set_viewport_size(PHONE)
    director.goto(url)
    director.locator(f'button[name="open"][value="{night.pk}"]').click()
    director.wait_for_url(re.compile(r"/t/\d+"))
    federal.refresh_from_db()
    assert federal.tournament is not None
    expect(director.locator("body")).to_contain_text("bm1")  # the visitor, a guest here
    play_through(people, federal.tournament)

    # the placings give federal points and the ranking moves
    visitor = phone(w.there[0], language="en")
    visitor.set_viewport_size(PHONE)
    visitor.goto(url)
    expect(visitor.locator("#placings")).to_contain_text("20 points")
    visitor.goto(f"/f/{fed}/ranking/")
    top = ranking.ranking(w.fed)[0]
    expect(visitor.locator("#ranking")).to_contain_text(top.user.username)
    expect(visitor.locator("#ranking")).to_contain_text("20 points")
    axe(visitor, "the ranking")
    fits(visitor, "the ranking")
    shots(visitor, "federal-ranking-en")
    visitor.locator("#ranking a").first.click()
    expect(visitor.locator("#history")).to_contain_text("Provinciale d'inverno")
    axe(visitor, "a person's history")
    fits(visitor, "a person's history")
