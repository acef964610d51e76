"""The table phone in a real browser at 390x844, in Italian (issue 22 step 2): after a
save the other side confirms on the same phone with one tap, a guest included, and "confirm
the remaining deals"; a confirmation the entering side tries is refused in words; the
club's setting that forbids the tap. Every page is checked with axe and photographed."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TOTALS = {"sides.A.thirds": "14", "sides.A.tricks": "4"}


@pytest.fixture
def table(night):
    """Friday's night with a Tressette match: Nino (N) and Salvo (S) against Gino (E), a
    guest with no account, and Walter (W). Nino enters the deals on his phone."""
    from scorebook.clubs.models import Player
    from scorebook.matches import services

    director = night.people["direttore"]
    ids = dict(Player.objects.values_list("name", "pk"))
    gino = Player.objects.create(club_id=night.club_id, name="Gino", guest=True)
    seats = {"N": ids["Nino"], "E": gino.pk, "S": ids["Salvo"], "W": ids["Walter"]}
    night.match = services.match_create(
        night=night,
        game="tressette4",
        rules={"profile": "accuso_41"},
        seats=seats,
        user=director,
    )
    return night


def enter_deal(page, match_id):
    """Nino's phone: the deal form (totals), save; the next deal's form says the deal saved
    in a line, whose link opens the deal's page."""
    page.goto(f"/m/{match_id}/deals/new?level=totals")
    for name, value in TOTALS.items():
        page.locator(f'[name="{name}"]').fill(value)
    page.locator('[name="last_trick"]').select_option("B")
    expect(page.locator("#deal-feedback .verdict.ok")).to_be_visible()
    page.locator("#deal-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/deals/new\?level=\w+&saved=\d+$"))
    page.locator("p.saved a").click()
    page.wait_for_url(re.compile(r"/d/\d+/$"))
    return int(re.search(r"/d/(\d+)/$", page.url).group(1))


def confirmations(deal_id):
    from scorebook.matches.models import Confirmation

    return [
        (c.seat, c.method, c.device_user.username)
        for c in Confirmation.objects.filter(deal_id=deal_id).select_related("device_user")
    ]


def test_the_other_side_confirms_on_the_same_phone(table, phone, shots, axe):
    match = table.match
    nino = phone(table.people["nino"])
    deal = enter_deal(nino, match.pk)
    # After the save, the other side's seats, by name: never Nino's side (N, S).
    here = nino.locator("section.confirm-here")
    expect(here).to_contain_text("l'altra coppia conferma su questo telefono")
    expect(here.locator("button")).to_have_text(
        ["Confermiamo — Gino (E)", "Confermiamo — Walter (O)"]
    )
    axe(nino, "deal page, the table phone's confirmation")
    shots(nino, "tp-01-after-save")
    # Gino, a guest, takes the phone and taps once.
    here.locator("button", has_text="Gino (E)").click()
    nino.wait_for_url(re.compile(rf"/d/{deal}/$"))
    expect(nino.locator(".confirmations")).to_contain_text("Confermata da Gino (E)")
    expect(nino.locator(".confirmations .table_phone")).to_contain_text(
        "sul telefono del tavolo (di Nino)"
    )
    expect(nino.locator("section.confirm-here")).to_have_count(0)
    assert confirmations(deal) == [("E", "table_phone", "nino")]
    shots(nino, "tp-02-confirmed-here")
    # The match page marks it apart from a player's own confirmation.
    nino.goto(f"/m/{match.pk}/")
    expect(nino.locator(".deal .badge.table")).to_have_text("confermata al tavolo")
    # Two more deals; at the end, Walter confirms the remaining ones with one tap.
    second, third = enter_deal(nino, match.pk), enter_deal(nino, match.pk)
    nino.goto(f"/m/{match.pk}/")
    expect(nino.locator("section.confirm-here")).to_contain_text("Smazzata 3")
    nino.locator("details.confirm-remaining > summary").click()
    remaining = nino.locator("details.confirm-remaining button", has_text="Walter (O)")
    expect(remaining).to_have_text("Confermiamo 2 smazzate — Walter (O)")
    axe(nino, "match page, the remaining deals")
    shots(nino, "tp-03-remaining")
    remaining.click()
    nino.wait_for_url(re.compile(rf"/m/{match.pk}/$"))
    expect(nino.locator(".messages")).to_contain_text("2 smazzate confermate")
    expect(nino.locator(".deal .badge.table")).to_have_count(3)
    assert confirmations(second) == confirmations(third) == [("W", "table_phone", "nino")]
    shots(nino, "tp-04-all-confirmed")


def test_right_after_the_save_on_the_next_deals_form(table, phone, shots, axe):
    """The quick entry's after-save screen: the next deal's form carries the other side's
    one tap for the deal just saved; the tap comes back to the form and says so."""
    match = table.match
    nino = phone(table.people["nino"])
    nino.goto(f"/m/{match.pk}/deals/new?level=totals")
    for name, value in TOTALS.items():
        nino.locator(f'[name="{name}"]').fill(value)
    nino.locator('[name="last_trick"]').select_option("B")
    expect(nino.locator("#deal-feedback .verdict.ok")).to_be_visible()
    nino.locator("#deal-form button[type=submit]").click()
    nino.wait_for_url(re.compile(r"/deals/new\?level=\w+&saved=\d+$"))
    deal = int(re.search(r"saved=(\d+)$", nino.url).group(1))
    here = nino.locator("section.confirm-here")
    expect(here.locator("button")).to_have_text(
        ["Confermiamo — Gino (E)", "Confermiamo — Walter (O)"]
    )
    axe(nino, "next deal's form, the table phone's confirmation")
    shots(nino, "tp-00-next-form")
    here.locator("button", has_text="Walter (O)").click()
    nino.wait_for_url(re.compile(rf"/m/{match.pk}/deals/new$"))
    expect(nino.locator(".messages")).to_contain_text("Smazzata 1 confermata da Walter (O).")
    expect(nino.locator("section.confirm-here")).to_have_count(0)
    assert confirmations(deal) == [("W", "table_phone", "nino")]
    shots(nino, "tp-00b-next-form-confirmed")


def test_the_entering_side_is_refused(table, phone, shots, axe):
    """Nino's side (N, S) is never offered; a form changed to name Salvo (as a stale or
    doctored page would) is refused in Italian, and nothing is stored."""
    nino = phone(table.people["nino"])
    deal = enter_deal(nino, table.match.pk)
    buttons = nino.locator("section.confirm-here button")
    expect(buttons).to_have_count(2)
    expect(nino.locator("section.confirm-here")).not_to_contain_text("Salvo")
    form = nino.locator("section.confirm-here form").last
    form.locator('input[name="seat"]').evaluate("input => { input.value = 'S'; }")
    form.locator("button").click()
    alert = nino.locator(".errors[role=alert]")
    expect(alert).to_contain_text(
        "Salvo (S) è della coppia che ha inserito questa smazzata: "
        "la conferma un giocatore dell'altra coppia."
    )
    assert confirmations(deal) == []
    axe(nino, "deal page, a refused confirmation")
    shots(nino, "tp-05-refused")


def test_the_club_setting_forbids_the_tap(table, phone, shots, axe):
    from scorebook.clubs.models import Club

    director = phone(table.people["direttore"])
    director.goto("/c/san-rocco/settings")
    assert director.locator('[name="name"]').count() == 0  # the owner's; a director has none
    director.locator('[name="confirmation_policy"]').select_option(
        label="Solo il telefono del giocatore"
    )
    axe(director, "club settings, director")
    shots(director, "tp-06-settings")
    director.locator("main form button.primary").click()
    expect(director.locator(".messages")).to_be_visible()
    assert Club.objects.get(slug="san-rocco").confirmation_policy == "own_phone"

    nino = phone(table.people["nino"])
    deal = enter_deal(nino, table.match.pk)
    expect(nino.locator("section.confirm-here")).to_have_count(0)
    expect(nino.locator("details.handover")).to_have_count(0)  # no PIN either
    shots(nino, "tp-07-no-table-phone")
    # Walter confirms on his own phone: that still counts.
    walter = phone(table.people["walter"])
    walter.goto(f"/d/{deal}/")
    walter.locator("form[action$='/confirm'] button.primary.big").click()
    expect(walter.locator(".confirmations")).to_contain_text("dal suo telefono")
    assert confirmations(deal) == [("W", "own_phone", "walter")]
    shots(walter, "tp-08-own-phone")


@pytest.mark.parametrize(
    ("language", "width", "asked", "pairs", "buttons"),
    [
        (
            "it",
            390,
            "Chi sta inserendo questa smazzata?",
            ["Nino e Salvo", "Gino e Walter"],
            ["Confermiamo — Gino (E)", "Confermiamo — Walter (O)"],
        ),
        (
            "en",
            360,
            "Who is entering this deal?",
            ["Nino and Salvo", "Gino and Walter"],
            ["We confirm — Gino (E)", "We confirm — Walter (W)"],
        ),
    ],
)
def test_on_the_directors_phone_only_the_other_side_confirms(
    table, phone, shots, axe, language, width, asked, pairs, buttons
):
    """Issue 31 item 9: the director, seated nowhere, keeps the table's phone. The form asks
    who is entering (one chip per pair); after the save only the other pair's seats are
    offered, whoever is signed in. Before, all four seats were offered and a tap on the
    entering side's own seat was stored as its confirmation."""
    match = table.match
    page = phone(table.people["direttore"], language)
    page.set_viewport_size({"width": width, "height": 780 if width == 360 else 844})
    page.goto(f"/m/{match.pk}/deals/new?level=totals")
    entering = page.locator("fieldset.entering")
    expect(entering.locator("legend")).to_have_text(asked)
    expect(entering.locator("label.chip")).to_have_text(pairs)
    for name, value in TOTALS.items():
        page.locator(f'[name="{name}"]').fill(value)
    page.locator('[name="last_trick"]').select_option("B")
    entering.locator("label.chip", has_text=pairs[0]).click()
    expect(page.locator("#deal-feedback .verdict.ok")).to_be_visible()
    axe(page, f"deal form on the director's phone ({language})")
    shots(page, f"tp-09-director-form-{language}-{width}")
    page.locator("#deal-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/deals/new\?level=\w+&saved=\d+$"))
    deal = int(re.search(r"saved=(\d+)$", page.url).group(1))
    here = page.locator("section.confirm-here")
    expect(here.locator("button")).to_have_text(buttons)
    # The next deal's form names the same pair again.
    expect(page.locator('fieldset.entering input[value="A"]')).to_be_checked()
    no_wider = page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert no_wider, "something is wider than the phone"
    axe(page, f"after the save on the director's phone ({language})")
    shots(page, f"tp-10-director-after-save-{language}-{width}")
    here.locator("button").last.click()
    page.wait_for_url(re.compile(rf"/m/{match.pk}/deals/new$"))
    assert confirmations(deal) == [("W", "table_phone", "direttore")]
