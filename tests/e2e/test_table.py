"""At the table, in a real browser at a phone's size: deal entry at both levels, a play
record, a rejection in Italian next to its field, confirmation on a second phone and by
PIN on the same phone, a correction, the offline queue, and two phones entering the same
deal. Every page is checked with axe and photographed."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TV01 = {"sides.A.thirds": "14", "sides.A.tricks": "4"}


@pytest.fixture
def night(transactional_db):
    """Circolo San Rocco's night: a director, two scorers, four seated players with
    accounts (Nino has a PIN), a Tressette match (accuso 41) and a Terziglio match."""
    from django.contrib.auth import get_user_model

    from scorebook.clubs.models import Club, Membership, Player
    from scorebook.matches import services
    from scorebook.web.services import pin_set

    users = get_user_model().objects
    club = Club.objects.create(name="Circolo San Rocco", slug="san-rocco")
    people = {}
    for name, role in (
        ("direttore", "director"),
        ("nino", "scorer"),
        ("ettore", "scorer"),
        ("salvo", "member"),
        ("walter", "member"),
    ):
        people[name] = users.create_user(name, password="pw-" + name)
        Membership.objects.create(club=club, user=people[name], role=role)
    players = {
        name: Player.objects.create(club=club, name=name.capitalize(), user=people[name])
        for name in ("nino", "ettore", "salvo", "walter")
    }
    pin_set(user=people["ettore"], pin="2468")
    night = services.night_open(
        club_id=club.pk, date="2026-11-20", venue="Bar", user=people["direttore"]
    )
    seats = {
        s: players[n].pk for s, n in zip("NESW", ("nino", "ettore", "salvo", "walter"), strict=True)
    }
    tressette = services.match_create(
        night=night, game="tressette4", rules={"profile": "accuso_41"}, seats=seats,
        user=people["direttore"],
    )  # fmt: skip
    terziglio = services.match_create(
        night=night, game="terziglio", rules={"profile": "chips_1_2_4_8_16"},
        seats={"P1": seats["N"], "P2": seats["E"], "P3": seats["S"]}, first_dealer="P3",
        user=people["direttore"],
    )  # fmt: skip
    night.people, night.tressette, night.terziglio = people, tressette, terziglio
    return night


def stored(match):
    from scorebook.matches.models import Deal

    return list(Deal.objects.filter(match=match).order_by("number", "version"))


def fill(page, values):
    for name, value in values.items():
        field = page.locator(f'[name="{name}"]')
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)


def open_all(page):
    page.locator("details.section").evaluate_all("all => all.forEach(d => { d.open = true; })")


def test_deal_entry_both_levels_play_record_confirm_correct(night, phone, shots, axe):
    nino = phone(night.people["nino"])
    match = night.tressette

    # A play record, pasted, shown trick by trick.
    record = PLAY_RECORD
    nino.goto(f"/m/{match.pk}/deals/new?level=play")
    nino.locator('[name="record"]').fill(json.dumps(record))
    nino.locator('[name="record"]').dispatch_event("change")
    expect(nino.locator("#deal-feedback ol.tricks li")).to_have_count(10)
    axe(nino, "deal entry, play record")
    shots(nino, "04-deal-new-play")
    nino.locator("#deal-form button[type=submit]").click()
    nino.wait_for_url(re.compile(r"/d/\d+/$"))
    assert [d.level for d in stored(match)] == ["play"]

    # Totals, with the rest computed as you type.
    nino.goto(f"/m/{match.pk}/deals/new")
    open_all(nino)
    fill(nino, TV01)
    nino.locator('[name="last_trick"]').select_option("B")
    expect(nino.locator("#f-sides-B-thirds-rest")).to_contain_text("18")
    expect(nino.locator("#f-sides-B-tricks-rest")).to_contain_text("6")
    expect(nino.locator("#deal-feedback .verdict.ok")).to_be_visible()
    axe(nino, "deal entry, totals")
    shots(nino, "01-deal-new-totals")

    # A rejection, in Italian, next to its field (TV05: two declarations need the 3 of swords).
    fill(nino, {"declarations[0].player": "N", "declarations[0].type": "four",
                "declarations[0].rank": "3", "declarations[1].player": "E",
                "declarations[1].type": "napoletana", "declarations[1].suit": "s"})  # fmt: skip
    problem = nino.locator(".field:has([name^='declarations[']) .slot .error").first
    expect(problem).to_contain_text("tre di spade")
    shots(nino, "02-deal-new-rejected")
    fill(nino, {"declarations[0].player": "", "declarations[0].type": "",
                "declarations[0].rank": "", "declarations[1].type": "",
                "declarations[1].suit": ""})  # fmt: skip
    nino.locator('[name="declarations[1].player"]').select_option("")
    expect(nino.locator("#deal-feedback .verdict.ok")).to_be_visible()
    nino.locator("#deal-form button[type=submit]").click()
    nino.wait_for_url(re.compile(r"/d/\d+/$"))
    assert [d.number for d in stored(match)] == [1, 2]

    # Captured cards: tap side A's counting cards; B's pile is the rest.
    nino.goto(f"/m/{match.pk}/deals/new?level=cards")
    for code in (
        "Ad",
        "Ac",
        "2d",
        "2c",
        "2s",
        "3c",
        "Rd",
        "Rc",
        "Rs",
        "Cd",
        "Cc",
        "Fd",
        "Fc",
        "Fs",
    ):
        nino.locator(f'[name="sides.A.cards"][value="{code}"]').check(force=True)
    fill(nino, {"sides.A.tricks": "5"})
    nino.locator('[name="last_trick"]').select_option("A")
    expect(nino.locator("#f-sides-B-cards-rest")).to_contain_text("10")
    expect(nino.locator("#deal-feedback .verdict.ok")).to_be_visible()
    axe(nino, "deal entry, cards")
    shots(nino, "03-deal-new-cards")
    nino.locator("#deal-form button[type=submit]").click()
    nino.wait_for_url(re.compile(r"/d/\d+/$"))
    deals = stored(match)
    assert [d.level for d in deals] == ["play", "totals", "cards"]

    # Confirmation from another phone (Salvo's), and by PIN on Nino's phone (Ettore's).
    first = deals[1]
    salvo = phone(night.people["salvo"])
    salvo.goto(f"/d/{first.pk}/")
    axe(salvo, "deal page")
    shots(salvo, "05-deal-page")
    salvo.locator("form[action$='/confirm'] button.primary.big").click()
    expect(salvo.locator(".confirmations")).to_contain_text("Salvo")
    nino.goto(f"/d/{first.pk}/")
    nino.locator("details.handover > summary").click()
    nino.locator("#f-player").select_option(label="Ettore")
    nino.locator("#f-pin").fill("1111")
    nino.locator("details.handover button[type=submit]").click()
    expect(nino.locator(".errors")).to_contain_text("PIN")
    shots(nino, "06-deal-pin-wrong")
    nino.locator("details.handover > summary").click()
    nino.locator("#f-player").select_option(label="Ettore")
    nino.locator("#f-pin").fill("2468")
    nino.locator("details.handover button[type=submit]").click()
    expect(nino.locator(".confirmations")).to_contain_text("Ettore")
    assert {c.user.username for c in first.confirmations.all()} == {"salvo", "ettore"}

    # A correction with a reason: a new version, both in the history.
    nino.goto(f"/d/{first.pk}/correct")
    open_all(nino)
    fill(nino, {"sides.A.thirds": "20", "sides.B.thirds": "", "sides.A.tricks": "5",
                "sides.B.tricks": ""})  # fmt: skip
    nino.locator('[name="last_trick"]').select_option("A")
    expect(nino.locator("#deal-feedback .verdict.ok")).to_be_visible()
    axe(nino, "correction")
    shots(nino, "07-deal-correct")
    nino.locator("#deal-form button[type=submit]").click()
    expect(nino.locator("#f-reason-err")).not_to_be_empty()
    nino.locator("#f-reason").fill("Contati male i terzi")
    nino.locator("#deal-form button[type=submit]").click()
    nino.wait_for_url(re.compile(r"/d/\d+/$"))
    expect(nino.locator("ol.versions > li")).to_have_count(2)
    expect(nino.locator("ol.versions")).to_contain_text("Contati male i terzi")
    shots(nino, "08-deal-history")
    assert [(d.number, d.version, d.is_current) for d in stored(match)][1:3] == [
        (2, 1, False),
        (2, 2, True),
    ]

    nino.goto("/me/pin")
    axe(nino, "PIN page")
    shots(nino, "09-pin")


def test_terziglio_auction_at_the_totals_level(night, phone, shots, axe):
    ettore = phone(night.people["ettore"], language="en")
    match = night.terziglio
    ettore.goto(f"/m/{match.pk}/deals/new")
    open_all(ettore)
    fill(ettore, {"auction.winner": "P1", "auction.bid": "solissimo_scegliete",
                  "monte_shares.P2": "3", "monte_shares.P3": "1",
                  "sides.soloist.thirds": "32", "sides.soloist.tricks": "12",
                  "last_trick": "soloist"})  # fmt: skip
    expect(ettore.locator("#deal-feedback .verdict.ok")).to_contain_text("64")
    axe(ettore, "terziglio deal entry")
    shots(ettore, "10-terziglio-totals")
    ettore.locator("#deal-form button[type=submit]").click()
    ettore.wait_for_url(re.compile(r"/d/\d+/$"))
    assert stored(match)[0].result["units"] == {"P1": 64, "P2": -32, "P3": -32}


def test_offline_queue_sends_the_deal_once(night, phone, shots):
    nino = phone(night.people["nino"])
    match = night.tressette
    nino.goto(f"/m/{match.pk}/deals/new")
    fill(nino, TV01)
    nino.locator('[name="last_trick"]').select_option("B")
    expect(nino.locator("#deal-feedback .verdict.ok")).to_be_visible()
    nino.context.set_offline(True)
    nino.locator("#deal-form button[type=submit]").click()
    expect(nino.locator("#queue-status")).to_contain_text("1")
    shots(nino, "11-offline-waiting")
    assert stored(match) == []
    nino.context.set_offline(False)
    nino.wait_for_url(re.compile(r"/d/\d+/$"), timeout=20_000)
    assert [d.number for d in stored(match)] == [1]
    # A retry of the same save (the answer was lost) is replayed, not stored again.
    queued = nino.evaluate("() => localStorage.getItem('sb:queue')")
    assert queued in (None, "[]")


def test_two_phones_same_deal_number_one_stored_other_chooses(night, phone, shots, axe):
    match = night.tressette
    nino, ettore = phone(night.people["nino"]), phone(night.people["ettore"])
    for p in (nino, ettore):
        p.goto(f"/m/{match.pk}/deals/new")
        fill(p, TV01)
    nino.locator('[name="last_trick"]').select_option("B")
    ettore.locator('[name="last_trick"]').select_option("A")
    expect(nino.locator("#deal-feedback .verdict.ok")).to_be_visible()
    nino.locator("#deal-form button[type=submit]").click()
    nino.wait_for_url(re.compile(r"/d/\d+/$"))
    expect(ettore.locator("#deal-feedback .verdict.ok")).to_be_visible()
    ettore.locator("#deal-form button[type=submit]").click()
    expect(ettore.locator("[data-conflict]")).to_be_visible()
    axe(ettore, "409 choice")
    shots(ettore, "12-conflict")
    assert len(stored(match)) == 1
    # Ettore corrects the stored deal with his version.
    ettore.locator("form[action*='/correct'] button[type=submit]").click()
    ettore.wait_for_url(re.compile(r"/d/\d+/$"))
    deals = stored(match)
    assert [(d.number, d.version) for d in deals] == [(1, 1), (1, 2)]
    assert deals[1].input["last_trick"] == "A"


PLAY_RECORD = {
    "hands": {
        "N": ["3d", "6s", "Ac", "2s", "4s", "Fc", "5b", "Cb", "2d", "3s"],
        "W": ["6d", "Fd", "3c", "Rc", "Cc", "6b", "As", "4b", "Rs", "6c"],
        "S": ["5d", "Fb", "Rd", "Rb", "4d", "Cd", "7b", "7d", "5s", "5c"],
        "E": ["2c", "3b", "4c", "Fs", "2b", "Ab", "7c", "Ad", "7s", "Cs"],
    },
    "tricks": [
        ["4b", "7b", "2b", "5b"], ["Cs", "6s", "As", "5s"], ["6d", "7d", "Ad", "2d"],
        ["Ac", "Cc", "5c", "2c"], ["7c", "Fc", "3c", "Fb"], ["6c", "4d", "4c", "3d"],
        ["6b", "Rb", "3b", "Cb"], ["7s", "4s", "Rs", "Cd"], ["Rc", "5d", "Ab", "3s"],
        ["Fd", "Rd", "Fs", "2s"],
    ],
    "declarations": [{"player": "E", "type": "napoletana", "suit": "b"}],
}  # fmt: skip
