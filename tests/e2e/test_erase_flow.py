"""Forgetting a player on a phone (390 px, Italian): the director opens the players page,
taps "Cancella…" beside Walter, reads what erasure does, types the name wrong (refused in
words beside the field, nothing erased), then right: the players page names him
"Giocatore cancellato #1" and his name is gone from the page. The person's own account
page downloads their data and erases the account behind a typed username and a box."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_director_erases_a_player_at_390px(phone, players, shots, axe):
    from scorebook.archive.models import Erasure
    from scorebook.clubs.models import Player

    walter = Player.objects.get(name="Walter")
    page = phone(players["direttore"], "it")
    page.goto("/c/san-rocco/players")
    page.locator(f"a[href='/c/san-rocco/players/{walter.pk}/erase']").click()
    page.wait_for_load_state()
    assert "Giocatore cancellato #n" in page.inner_text("main")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    axe(page, "erase-player")
    shots(page, "erase-player-it")
    page.locator("#id_name").fill("Walte")
    page.locator("main form button.danger").click()
    page.wait_for_load_state()
    field = page.locator("#id_name").locator("xpath=ancestor::*[contains(@class,'field')][1]")
    assert "Scrivi Walter esattamente" in field.inner_text()
    assert not Erasure.objects.exists()
    page.locator("#id_name").fill("walter")
    page.locator("main form button.danger").click()
    page.wait_for_url("**/c/san-rocco/players")
    text = page.inner_text("main")
    assert "Giocatore cancellato #1" in text and "Walter" not in text
    assert "walter" not in page.content().lower()
    # the erased player is locked: marked "cancellato", no button to make him active again
    row = page.locator("li.row", has_text="Giocatore cancellato #1")
    assert "cancellato" in row.locator(".badge").inner_text()
    assert row.locator("button").count() == 0
    axe(page, "erase-player-done")
    shots(page, "erase-player-done-it")


def test_a_person_erases_their_own_account_at_390px(phone, players, shots):
    from django.contrib.auth import get_user_model

    page = phone(players["salvo"], "it")
    page.goto("/c/san-rocco/")
    page.locator("footer a[href='/me/']").click()
    page.wait_for_load_state()
    assert page.locator("a[href='/me/export.zip']").is_visible()
    with page.expect_download() as download:
        page.locator("a[href='/me/export.zip']").click()
    assert download.value.suggested_filename == "scorebook-my-data.zip"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shots(page, "account-it")
    page.locator("#id_username").fill("salvo")
    page.locator("#id_understood").check()
    page.locator("main form button.danger").click()
    page.wait_for_load_state()
    assert "Il tuo account e i tuoi dati personali sono stati cancellati." in page.inner_text(
        "main"
    )
    assert not get_user_model().objects.get(pk=players["salvo"].pk).is_active
