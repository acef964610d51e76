"""A small groups-then-knockout tournament in a real browser at a phone's size, in Italian
(issue 27): the director creates it on the page with "More options" (groups of 3, each
pairing exactly 2 matches), six pairs are in, the rounds are started with the page's
buttons; the groups show who goes through, the final's bracket who plays whom; the final
is level after its two matches, so the director plays la bella from its button, a table
phone types its deals on the deal form, and the bracket names the winner. Every page
fits 390 px, axe finds nothing serious, the screenshots are looked at.

The group matches' deals are stored through ``matches.services.deal_create`` (what a
table phone's save calls)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_tournament_night import fits_the_phone, type_deals

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def play(match, scorer, home_wins):
    from tests.tournaments.helpers import finish_match

    class People:
        pass

    people = People()
    people.scorer = scorer
    finish_match(people, match, home_wins)


def test_groups_then_a_knockout_with_la_bella(night, phone, shots, axe):
    from scorebook.matches.models import Match
    from scorebook.tournaments import selectors
    from scorebook.tournaments.models import Pairing, Tournament
    from scorebook.tournaments.services.registration import entry_add
    from scorebook.tournaments.services.results import pairing_next_match

    people = night.people
    night.tressette.delete()
    director = phone(people["direttore"])
    director.goto(f"/n/{night.pk}/tournaments/new")
    director.locator('[name="name"]').fill("Gironi di San Rocco")
    director.locator('[name="game"]').select_option("tressette4")
    director.locator('[name="format"]').select_option("groups")
    director.locator("details.more-options summary").click()
    director.locator('[name="group_size"]').fill("3")
    director.locator('[name="series"]').select_option("games")
    director.locator('[name="series_games"]').fill("2")
    director.locator("main form button[type=submit]").click()
    director.wait_for_url(re.compile(r"/t/\d+/$"))
    t = Tournament.objects.get()
    assert (t.format, t.group_size, t.series, t.series_games) == ("groups", 3, "games", 2)
    for i in range(6):
        entry_add(
            tournament=t, players=[f"Gioc {2 * i + 1}", f"Gioc {2 * i + 2}"],
            user=people["direttore"],
        )  # fmt: skip
    director.reload()

    for number in (1, 2, 3):  # two groups of three: three rounds, one pair resting
        director.locator("form[action$='do/start'] button").last.click()
        director.wait_for_url(re.compile(r"/t/\d+/#rounds$"))
        expect(director.locator("#rounds h2")).to_contain_text(f"Turno {number} di 4")
        round_ = t.round_set.get(number=number)
        for pairing in Pairing.objects.filter(round=round_).exclude(away=None):
            for n in range(2):  # the home pair wins the first match, the second too
                match = pairing.games.select_related("match").last().match
                play(match, people["nino"], home_wins=True)
                if n == 0:
                    pairing_next_match(pairing=pairing, user=people["direttore"])
        director.reload()
    groups = director.locator("#groups")
    expect(groups).to_contain_text("Girone 1")
    expect(groups).to_contain_text("Girone 2")
    expect(groups.locator(".badge", has_text="passa il turno")).to_have_count(2)
    assert fits_the_phone(director)
    axe(director, "tournament groups")
    shots(director, "tournament-groups-01-groups")

    director.locator("form[action$='do/start'] button").last.click()
    director.wait_for_url(re.compile(r"/t/\d+/#rounds$"))
    knockout = director.locator("#knockout")
    expect(knockout).to_contain_text("Finale")
    final = t.round_set.get(number=4).pairings.get()
    names = dict(t.entries.values_list("pk", "name"))
    expect(knockout).to_contain_text(names[final.home_id])
    expect(knockout).to_contain_text(names[final.away_id])
    # the final's two matches: one each, level
    play(final.games.get().match, people["nino"], home_wins=True)
    director.reload()
    director.locator("#rounds button", has_text="Inizia la prossima partita della serie").click()
    director.wait_for_url(re.compile(r"/t/\d+/#rounds$"))
    play(final.games.last().match, people["nino"], home_wins=False)
    director.reload()
    expect(knockout).to_contain_text("pari: si gioca la bella")
    bella = director.locator("#rounds button", has_text="Gioca la bella")
    expect(bella).to_be_visible()
    assert fits_the_phone(director)
    axe(director, "tournament final level")
    shots(director, "tournament-groups-02-bella")
    bella.click()
    director.wait_for_url(re.compile(r"/t/\d+/#rounds$"))
    assert final.games.count() == 3
    la_bella = final.games.last().match
    # a table phone types la bella's deals on the deal form
    table = phone(people["ettore"])
    href = director.locator(f'#rounds a[href="/m/{la_bella.pk}/"]')
    expect(href).to_have_count(1)
    assert type_deals(table, la_bella.pk) >= 1
    assert Match.objects.get(pk=la_bella.pk).status == "finished"
    director.reload()
    expect(knockout).to_contain_text(f"passa {names[final.home_id]}")
    expect(knockout).to_contain_text(names[final.away_id])  # the bracket shows who played
    director.locator("form[action$='do/finish'] button").click()
    director.wait_for_url(re.compile(r"/t/\d+/#standings$"))
    expect(director.locator("#standings h2")).to_contain_text("Classifica finale")
    assert fits_the_phone(director)
    axe(director, "tournament groups final")
    shots(director, "tournament-groups-03-final")
    t.refresh_from_db()
    assert t.status == "finished"
    assert selectors.final_places(t)[0] == (1, [final.home_id])


def test_a_straight_knockout_bracket_on_a_phone(night, phone, shots, axe):
    """Four pairs, straight knockout: the semi-finals and the final in the bracket, the
    winners going through, the page within 390 px."""
    from scorebook.matches.models import Match
    from scorebook.tournaments.models import Tournament
    from scorebook.tournaments.services.registration import entry_add

    people = night.people
    night.tressette.delete()
    director = phone(people["direttore"])
    director.goto(f"/n/{night.pk}/tournaments/new")
    director.locator('[name="name"]').fill("Coppa di San Rocco")
    director.locator('[name="game"]').select_option("tressette4")
    director.locator('[name="format"]').select_option("knockout")
    director.locator("main form button[type=submit]").click()
    director.wait_for_url(re.compile(r"/t/\d+/$"))
    t = Tournament.objects.get()
    for i in range(4):
        entry_add(
            tournament=t, players=[f"Coppa {2 * i + 1}", f"Coppa {2 * i + 2}"],
            user=people["direttore"],
        )  # fmt: skip
    director.reload()
    director.locator("form[action$='do/start'] button").last.click()
    director.wait_for_url(re.compile(r"/t/\d+/#rounds$"))
    knockout = director.locator("#knockout")
    expect(knockout.locator("h3")).to_have_text(["Semifinali", "Finale"])
    expect(knockout).to_contain_text("vincitore del turno precedente")
    for match in Match.objects.filter(night=night, status="open"):
        play(match, people["nino"], home_wins=True)
    director.reload()
    expect(knockout.locator(".tie-line.won")).to_have_count(2)
    assert fits_the_phone(director)
    axe(director, "straight knockout")
    shots(director, "tournament-knockout-01-semis")
