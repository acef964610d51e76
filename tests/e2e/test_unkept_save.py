"""A save the phone cannot keep (its storage full, refused or broken), on a phone in
Italian. Before, the queue's write failed without a word: the save button stayed disabled
and nothing was sent, or (with no IndexedDB and a full localStorage) the deal vanished
while the page looked saved."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.test_offline import SAVED, enter_online, go_offline, stored

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: The queue's store refuses every write, as a full disk does (QuotaExceededError).
REFUSING_INDEXEDDB = """
IDBObjectStore.prototype.put = function () {
  throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
};
"""

#: No IndexedDB, and a localStorage that takes no more (the queue's older store).
FULL_LOCALSTORAGE = """
Object.defineProperty(window, "indexedDB", {value: undefined});
Storage.prototype.setItem = function () {
  throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
};
"""


@pytest.mark.parametrize("store", [REFUSING_INDEXEDDB, FULL_LOCALSTORAGE], ids=["idb", "ls"])
def test_with_a_connection_a_save_the_phone_cannot_keep_goes_straight_to_the_server(
    night, phone, store
):
    page = phone(night.people["nino"])
    page.add_init_script(store)
    match = night.tressette
    page.goto(f"/m/{match.pk}/deals/new")
    expect(page.locator("html[data-queue-ready]")).to_have_count(1)
    enter_online(page, 0)
    page.wait_for_url(SAVED)
    assert [d.number for d in stored(match)] == [1]


def test_offline_a_save_the_phone_cannot_keep_says_to_keep_it_on_paper(night, phone):
    page = phone(night.people["nino"])
    page.add_init_script(REFUSING_INDEXEDDB)
    match = night.tressette
    page.goto(f"/m/{match.pk}/deals/new")
    expect(page.locator("html[data-queue-ready]")).to_have_count(1)
    go_offline(page.context)
    enter_online(page, 0)
    expect(page.locator("#shape-problem")).to_contain_text(
        "Questo telefono non è riuscito a tenere la smazzata"
    )
    expect(page.locator("#deal-form button[type=submit]")).to_be_enabled()
    # What was typed is still there, to save again when the connection is back.
    expect(page.locator('[name="sides.A.thirds"]')).not_to_have_value("")
    assert stored(match) == []
