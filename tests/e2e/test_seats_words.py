"""Seats in the reader's letters and who partners whom, on the match form and the match
page (phone, Italian and English; screenshots: tests/e2e/artifacts/95-seats-*). The engine's
seat codes stay N/E/S/W in the data; an Italian reader sees N, E, S, O (Ovest), and the
pairs are said in words: 'Nino (N) e Salvo (S) contro Ettore (E) e Walter (O)'."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    ("language", "west", "seat", "pairs", "form_pairs"),
    [
        (
            "it",
            "O",
            "Posto",
            "Nino (N) e Salvo (S) contro Ettore (E) e Walter (O)",
            "In coppia: N e S contro E e O",
        ),
        (
            "en",
            "W",
            "Seat",
            "Nino (N) and Salvo (S) against Ettore (E) and Walter (W)",
            "Pairs: N and S against E and W",
        ),
    ],
)
def test_seats_in_the_readers_letters_and_the_pairs_in_words(
    night, phone, shots, language, west, seat, pairs, form_pairs
):
    page = phone(night.people["direttore"], language=language)
    page.goto(f"/m/{night.tressette.pk}/")
    expect(page.locator(".pairs")).to_have_text(pairs)
    table = page.locator("ul.seats")
    expect(table.locator("li", has_text="Walter")).to_contain_text(f"Walter{west}")
    expect(table.locator(".meta")).to_have_text(["N", "E", "S", west])
    shots(page, f"95-seats-match-{language}")

    page.goto(f"/n/{night.pk}/matches/new?game=tressette4&players=4")
    expect(page.locator('label[for="id_seats.W"]')).to_have_text(f"{seat} {west}")
    expect(page.locator(".pairs")).to_have_text(form_pairs)
    first_dealer = page.locator('[name="first_dealer"] option[value="W"]')
    expect(first_dealer).to_have_text(west)
    shots(page, f"95-seats-form-{language}")
