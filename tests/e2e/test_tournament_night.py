"""Tonight's tournament in a real browser at a phone's size (issue 27): a 6-pair Swiss
tournament of 3 rounds run from the director's phone (pairs added at the door as new
guests, rounds started with their buttons, one withdrawal with a reason, the prizes paid),
two table phones opening their table's match from the tournament page, the TV's pairings
at 1280x720 without money, and the night's settlement with the fees and the prizes.

The matches' deals are stored through ``matches.services.deal_create`` (what a table
phone's save calls): the deal form itself is covered by tests/e2e/test_table.py."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def finish_open_matches(night, scorer):
    from scorebook.matches import services
    from scorebook.matches.models import Match
    from tests.tournaments.helpers import finish_match

    class People:
        pass

    people = People()
    people.scorer = scorer
    for match in Match.objects.filter(night=night, status="open"):
        finish_match(people, match)
    del services


def test_a_six_pair_swiss_night_on_the_phones(night, phone, shots, axe):
    from scorebook.clubs.models import Club
    from scorebook.tournaments.models import Tournament

    people = night.people
    Club.objects.filter(pk=night.club_id).update(public=True)
    night.tressette.delete()  # tonight is the tournament's
    director = phone(people["direttore"])
    director.goto(f"/n/{night.pk}/")
    director.get_by_role("link", name="Torneo").click()
    director.wait_for_url(re.compile(r"/tournaments/new$"))
    director.locator('[name="name"]').fill("Torneo di San Rocco")
    director.locator('[name="game"]').select_option("tressette4")
    director.locator('[name="rounds"]').fill("3")
    director.locator('[name="entry_fee"]').fill("5")
    director.locator('[name="prizes"]').fill("60, 40")
    axe(director, "new tournament")
    shots(director, "tournament-01-new")
    director.locator("main form button[type=submit]").click()
    director.wait_for_url(re.compile(r"/t/\d+/$"))
    tournament = Tournament.objects.get()
    for i in range(6):
        form = director.locator("form[action$='do/pair-add']")
        form.locator('[name="first_guest"]').fill(f"Ospite {2 * i + 1}")
        form.locator('[name="second_guest"]').fill(f"Ospite {2 * i + 2}")
        form.locator("button[type=submit]").click()
        director.wait_for_url(re.compile(r"/t/\d+/#registration$"))
    assert tournament.entries.count() == 6
    axe(director, "tournament registration")
    shots(director, "tournament-02-registration")

    tables = [phone(people["nino"]), phone(people["ettore"])]
    for number in (1, 2, 3):
        director.locator("form[action$='do/start'] button").last.click()
        director.wait_for_url(re.compile(r"/t/\d+/#rounds$"))
        expect(director.locator("#rounds h2")).to_contain_text(f"Turno {number} di 3")
        expect(director.locator(".tournament-line").first).to_contain_text("Tavolo 1")
        links = director.locator("#rounds a", has_text="Inserisci le smazzate")
        assert links.count() in (2, 3)
        axe(director, f"tournament round {number}")
        shots(director, f"tournament-03-round-{number}")
        for table, link in zip(tables, range(2), strict=True):
            href = links.nth(link).get_attribute("href")
            table.goto(href)
            expect(table.locator("main")).to_contain_text("Ospite")
        shots(tables[0], f"tournament-04-table-phone-round-{number}")
        finish_open_matches(night, people["nino"])
        director.reload()
        if number == 1:  # a pair leaves after round 1, with a reason
            entry = tournament.entries.order_by("seed").last()
            item = director.locator("#registration li", has_text=entry.name)
            item.locator("summary").click()
            item.locator('[name="reason"]').fill("un treno da prendere")
            item.locator("button[type=submit]").click()
            director.wait_for_url(re.compile(r"/t/\d+/#registration$"))
            expect(item).to_contain_text("ritirat")
    tv = phone()
    tv.set_viewport_size({"width": 1280, "height": 720})
    tv.goto(f"/public/{night.club.slug}/tv?show=pairings")
    expect(tv.locator(".tv-tournament")).to_contain_text("Tavolo 1")
    assert "EUR" not in tv.content()
    fits = tv.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")
    assert fits
    axe(tv, "TV tournament pairings")
    shots(tv, "tournament-05-tv-pairings")
    tv.goto(f"/public/{night.club.slug}/tv?show=standings")
    expect(tv.locator(".tv-tournament")).to_contain_text("Classifica")
    shots(tv, "tournament-06-tv-standings")

    director.locator("form[action$='do/finish'] button").click()
    director.wait_for_url(re.compile(r"/t/\d+/#standings$"))
    expect(director.locator("#standings h2")).to_contain_text("Classifica finale")
    expect(director.locator("#standings")).to_contain_text("Decisa da")
    axe(director, "tournament final standings")
    shots(director, "tournament-07-final")
    director.goto(f"/n/{night.pk}/settlement")
    expect(director.locator("main")).to_contain_text("Ospite")
    shots(director, "tournament-08-settlement")
    tournament.refresh_from_db()
    assert tournament.status == "finished"
