"""Saving deals with a connection, on a phone (Italian): the offline queue stays out of
sight, and Back to a saved deal's form does not turn this phone's own save into another
phone's."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.test_offline import SAVED, enter_online, eventually, stored

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: Records in the tab's sessionStorage whether the queue's banner was ever on screen.
WATCH_BANNER = """
new MutationObserver(() => {
  const box = document.getElementById("queue-status");
  if (box && !box.hidden) sessionStorage.setItem("banner-seen", box.textContent);
}).observe(document, {subtree: true, childList: true, attributes: true});
"""


def test_no_waiting_banner_on_a_save_with_a_connection(night, phone):
    """The yellow '1 smazzata in attesa' flashed on every save while online."""
    page = phone(night.people["nino"])
    page.add_init_script(WATCH_BANNER)
    match = night.tressette
    for i in range(3):
        page.goto(f"/m/{match.pk}/deals/new")
        enter_online(page, i)
        page.wait_for_url(SAVED)
    assert len(stored(match)) == 3
    assert page.evaluate("sessionStorage.getItem('banner-seen')") is None


def test_back_to_a_saved_deal_and_save_again_is_this_phones_save(night, phone, shots):
    """After Back on a saved deal, saving again said 'another phone saved first' (it was
    this phone) and offered 'correct with mine' with an empty form."""
    page = phone(night.people["nino"])
    match = night.tressette
    page.goto(f"/m/{match.pk}/deals/new")
    enter_online(page, 0)
    page.wait_for_url(SAVED)
    page.go_back()
    page.wait_for_load_state()
    enter_online(page, 0)  # the same deal again: it is the one saved, nothing to choose
    page.wait_for_url(SAVED)
    assert len(stored(match)) == 1
    expect(page.locator("main")).not_to_contain_text("altro telefono")

    page.go_back()
    page.wait_for_load_state()
    enter_online(page, 1)  # other points: this phone's own deal, said as such, kept typed
    lead = page.locator("[data-conflict]")
    expect(lead).to_have_text(
        "Hai già salvato questa smazzata. Confronta, poi tieni quella salvata o correggila "
        "con questa."
    )
    shots(page, "96-back-save-other-points-it")
    page.locator("button", has_text="con la mia").click()

    def corrected():
        deals = stored(match)
        assert [d.is_current for d in deals] == [False, True]
        assert deals[-1].input["sides"]["A"]["thirds"] == 11

    eventually(corrected)


def test_a_send_the_server_never_answers_does_not_hold_the_queue(night, phone):
    """The first send of a save hangs (a bad network keeps the request open and never
    answers): the queue gives it up after its time limit and sends it again with the
    same Idempotency-Key, and the deal is saved once. Before, the hung request held the
    queue for ever: nothing more was sent from that page, the save never landed."""
    page = phone(night.people["nino"])
    page.add_init_script("window.ScorebookSendTimeout = 1500")
    held = []

    def hang_the_first(route):
        if route.request.method == "POST" and not held:
            held.append(route)  # never answered
        else:
            route.continue_()

    match = night.tressette
    page.goto(f"/m/{match.pk}/deals/new")
    expect(page.locator("html[data-queue-ready]")).to_have_count(1)
    page.route("**/deals/new*", hang_the_first)
    enter_online(page, 0)
    page.wait_for_url(SAVED, timeout=20_000)
    assert len(held) == 1
    assert [d.number for d in stored(match)] == [1]
