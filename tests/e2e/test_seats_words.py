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
    # In the engine's playing order (anticlockwise), whatever order the seats were sent
    # in: PostgreSQL's jsonb does not keep a JSON object's key order.
    expect(table.locator(".meta")).to_have_text(["N", west, "S", "E"])
    shots(page, f"95-seats-match-{language}")

    page.goto(f"/n/{night.pk}/matches/new?game=tressette4&players=4")
    expect(page.locator('label[for="id_seats.W"]')).to_have_text(f"{seat} {west}")
    expect(page.locator(".pairs")).to_have_text(form_pairs)
    first_dealer = page.locator('[name="first_dealer"] option[value="W"]')
    expect(first_dealer).to_have_text(west)
    shots(page, f"95-seats-form-{language}")


@pytest.mark.parametrize(
    ("language", "multipliers", "penalty"),
    [
        (
            "it",
            "PEN: cappotto ×2, cappottone ×6, stramazzo ×3, stramazzone ×8, collatondrione ×16",
            "come la Piccola Enciclopedia (PE): l'accuso non conta e la coppia perde i punti "
            "delle carte",
        ),
        (
            "en",
            "PEN: cappotto ×2, cappottone ×6, stramazzo ×3, stramazzone ×8, collatondrione ×16",
            "as the Piccola Enciclopedia says (PE): the declaration counts nothing and its side "
            "loses its card points",
        ),
    ],
)
def test_the_house_rules_say_what_a_rule_books_code_sets(
    night, phone, shots, language, multipliers, penalty
):
    """The switches showed bare codes: 'PEN / PE / SPZ', 'nessuno / PE'."""
    page = phone(night.people["direttore"], language=language)
    page.goto(f"/n/{night.pk}/matches/new?game=tressette4&players=4")
    page.locator("details.switches summary").click()
    options = page.locator('[name="rules.t4.multipliers"] option')
    expect(options.first).to_have_text(multipliers)
    for text in options.all_text_contents():
        assert "×" in text, text
    expect(page.locator('[name="rules.t4.decl_error_penalty"] option[value="PE"]')).to_have_text(
        penalty
    )
    page.locator('[name="rules.t4.multipliers"]').scroll_into_view_if_needed()
    shots(page, f"95-switch-codes-{language}")


NO37 = "37NO: in 3: 13 carte a testa, via il quattro di spade"
PCG_ANTES = "PCG: il mazziere 2 al matrimonio, 1 all'intrigo; ciascuno degli altri 1 al gioco"


@pytest.mark.parametrize(
    ("game", "count", "switch", "value", "words"),
    [
        ("rovescino", 4, "rov.deal_table", "37NO", NO37),
        ("spinado", 4, "spin.antes", "PCG", PCG_ANTES),
        ("spinado", 4, "spin.king_payments", "PKW", "PKW: re di quadri 2, gli altri re 1"),
    ],
)  # fmt: skip
def test_rovescino_and_spinado_codes_say_what_they_set(
    night, phone, shots, axe, game, count, switch, value, words
):
    """The deal tables, antes and king payments offered 'DOS / PAG-CIA / OAS / 37NO' and
    'DNX / PKW / CAS / PCG'; their words are long, and the form still fits a 360 px phone."""
    page = phone(night.people["direttore"])
    page.set_viewport_size({"width": 360, "height": 780})
    page.goto(f"/n/{night.pk}/matches/new?game={game}&players={count}")
    page.locator("details.switches summary").click()
    expect(page.locator(f'[name="rules.{switch}"] option[value="{value}"]')).to_have_text(words)
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    axe(page, f"match form, {game}'s switches")
    page.locator(f'[name="rules.{switch}"]').scroll_into_view_if_needed()
    shots(page, f"95-switch-codes-{game}-{switch}")
