"""Tonight's tournament in a real browser at a phone's size (issue 27): a 6-pair Swiss
tournament of 3 rounds run from the director's phone (pairs added at the door as new
guests, rounds started with their buttons, one withdrawal with a reason, the prizes paid),
two table phones opening their table's match from the tournament page, the TV's pairings
at 1280x720 without money, and the night's settlement with the fees and the prizes.

Round 1's deals are typed on the two table phones through the real deal form (totals:
the first side's thirds and tricks, the last trick), until each table's match is over;
rounds 2 and 3 are stored through ``matches.services.deal_create`` (what a table phone's
save calls). The director sets the club's share under "More options", opens the settings
page, and the final page is checked to fit 390 px (no sideways scroll) and to say who was
paid what and the pot before the payout."""

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


#: A deal won by the first side (20 thirds of 32 and the last trick), typed as totals.
FIRST_SIDE_DEAL = {"sides.A.thirds": "20", "sides.A.tricks": "5"}


def type_deals(page, match_pk):
    """A table phone types deals on the deal form until its match is over; returns how
    many it saved."""
    from scorebook.matches.models import Match

    typed = 0
    while Match.objects.get(pk=match_pk).status != "finished":
        page.goto(f"/m/{match_pk}/deals/new?level=totals")
        for name, value in FIRST_SIDE_DEAL.items():
            page.locator(f'[name="{name}"]').fill(value)
        page.locator('[name="last_trick"]').select_option("A")
        expect(page.locator("#deal-feedback .verdict.ok")).to_be_visible()
        page.locator("#deal-form button[type=submit]").click()
        page.wait_for_url(re.compile(r"/deals/new\?level=\w+&saved=\d+$"))
        typed += 1
        assert typed < 20
    return typed


def fits_the_phone(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


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
    director.locator('[name="prizes"]').fill("50, 40")
    director.locator("details.more-options summary").click()
    director.locator('[name="club_share"]').fill("10")
    director.locator('[name="then_1"]').select_option("point_difference")
    director.locator('[name="then_2"]').select_option("buchholz")
    axe(director, "new tournament")
    shots(director, "tournament-01-new")
    director.locator("main form button[type=submit]").click()
    director.wait_for_url(re.compile(r"/t/\d+/$"))
    tournament = Tournament.objects.get()
    assert tournament.club_share == 10 and tournament.tiebreaks[1:3] == [
        "point_difference", "buchholz"
    ]  # fmt: skip
    director.locator("main a", has_text="Impostazioni").click()
    director.wait_for_url(re.compile(r"/t/\d+/settings$"))
    director.locator('[name="name"]').fill("Torneo di San Rocco 2026")
    axe(director, "tournament settings")
    shots(director, "tournament-01b-settings")
    director.locator("main form button[type=submit]").click()
    director.wait_for_url(re.compile(r"/t/\d+/$"))
    expect(director.locator("h1")).to_have_text("Torneo di San Rocco 2026")
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
        assert fits_the_phone(director)
        axe(director, f"tournament round {number}")
        shots(director, f"tournament-03-round-{number}")
        for table, link in zip(tables, range(2), strict=True):
            href = links.nth(link).get_attribute("href")
            table.goto(href)
            expect(table.locator("main")).to_contain_text("Ospite")
        shots(tables[0], f"tournament-04-table-phone-round-{number}")
        if number == 1:  # the table phones type round 1's deals on the deal form
            hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
            for i, href in enumerate(hrefs):
                match_pk = int(re.search(r"/m/(\d+)/", href).group(1))
                assert type_deals(tables[i % 2], match_pk) >= 1
            shots(tables[0], "tournament-04b-deal-typed")
            director.reload()
            expect(director.locator("#rounds h2")).to_contain_text("concluso")
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
    expect(director.locator("#standings .placed-by").first).to_contain_text("decisa da:")
    assert fits_the_phone(director), "the final standings scroll sideways at 390 px"
    prizes = director.locator("#prizes")
    # 6 pairs paid 2 x 5.00 each before one withdrew after round 1: 60.00 in the pot
    expect(prizes).to_contain_text("prima dei premi il montepremi era di 60,00 EUR")
    expect(prizes).to_contain_text("1° posto")
    expect(prizes.locator("li").first).to_contain_text("30,00 EUR")  # 50% of 60
    expect(prizes).to_contain_text("Quota del circolo")
    axe(director, "tournament final standings")
    shots(director, "tournament-07-final")
    director.goto(f"/n/{night.pk}/settlement")
    expect(director.locator("main")).to_contain_text("Ospite")
    shots(director, "tournament-08-settlement")
    tournament.refresh_from_db()
    assert tournament.status == "finished"
