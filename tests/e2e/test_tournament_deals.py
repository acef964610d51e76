"""Deals of the tournament code entered through the deal form in a real browser at a
phone's size (issue 16): a declaration anomaly (a napoletana declared late, nobody
contested it: "sanatoria implicita", it counts) and a wrong call-out under the modern
norms ("perde comunque la partita"), on a match with those switches on. The stored score
is checked, each form and the deal pages are screenshotted and axe finds nothing serious.
Source: Codice del tressette (Enucatl/tressette), regolamento.tex, "Anomalie dell'accusa"
and "Gioco Ordinario: norme moderne", "Norme che regolano la chiamata fuori"."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.test_table import saved

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

RULES = {"profile": "accuso_41", "t4.claim_by": "opponents", "t4.decl_anomalies": "code"}


def fill(page, values):
    for name, value in values.items():
        field = page.locator(f'[name="{name}"]')
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        elif field.get_attribute("type") == "checkbox":
            field.check()
        else:
            field.fill(value)


def open_all(page):
    page.locator("details.section").evaluate_all("all => all.forEach(d => { d.open = true; })")


def test_a_late_declaration_and_a_wrong_call_out_through_the_deal_form(phone, shots, axe):
    from django.contrib.auth import get_user_model

    from scorebook.clubs.models import Club, Membership, Player
    from scorebook.matches import services
    from scorebook.matches.models import Deal, Match

    club = Club.objects.create(name="Circolo San Rocco", slug="san-rocco")
    director = get_user_model().objects.create_user("direttore", password="pw")
    Membership.objects.create(club=club, user=director, role="director")
    names = ("Nino", "Ettore", "Salvo", "Walter")
    seats = {
        s: Player.objects.create(club=club, name=n).pk for s, n in zip("NESW", names, strict=True)
    }
    night = services.night_open(club_id=club.pk, date="2026-11-20", venue="", user=director)
    match = services.match_create(
        night=night,
        game="tressette4",
        rules=RULES,
        seats=seats,
        user=director,
        first_dealer="N",
    )

    page = phone(director)
    # Deal 1: A 7 - B 4, and Nino's napoletana of cups declared late, uncontested: +3.
    page.goto(f"/m/{match.pk}/deals/new?level=totals")
    open_all(page)
    fill(
        page,
        {
            "sides.A.thirds": "20",
            "sides.A.tricks": "6",
            "sides.B.thirds": "12",
            "sides.B.tricks": "4",
            "last_trick": "A",
            "declarations[0].player": "N",
            "declarations[0].type": "napoletana",
            "declarations[0].suit": "c",
            "declarations[0].when": "late",
        },
    )
    expect(page.locator("#deal-feedback .verdict.ok")).to_be_visible()
    axe(page, "deal form, a late declaration")
    shots(page, "70-deal-late-declaration")
    page.locator("#deal-form button[type=submit]").click()
    saved(page)
    first = Deal.objects.get(match=match, number=1)
    assert first.input["declarations"][0]["when"] == "late"
    assert first.result["points"] == {"A": 10, "B": 4}
    # The line says how the declaration went, not only its points.
    expect(page.locator("main")).to_contain_text(
        "napoletana di coppe; accusato in ritardo, vale): 3"
    )
    axe(page, "deal page, a late declaration")
    shots(page, "71-deal-late-declaration-saved")

    # Deal 2: after three tricks, all A's (8 thirds), B calls A out: A has 10 + 2 = 12 of
    # 41, a wrong call, so B loses the game (modern norms).
    page.goto(f"/m/{match.pk}/deals/new?level=totals")
    open_all(page)
    fill(
        page,
        {
            "sides.A.thirds": "8",
            "sides.A.tricks": "3",
            "sides.B.thirds": "0",
            "sides.B.tricks": "0",
            "claim.side": "A",
            "claim.by": "B",
            "claim.after_trick": "3",
        },
    )
    expect(page.locator("#deal-feedback .verdict.ok")).to_be_visible()
    axe(page, "deal form, a call-out")
    shots(page, "72-deal-call-out")
    page.locator("#deal-form button[type=submit]").click()
    saved(page)
    second = Deal.objects.get(match=match, number=2)
    assert second.input["claim"] == {"side": "A", "by": "B", "after_trick": 3}
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.result["reason"] == "false_claim" and match.result["winning_side"] == "A"
    # Who called whom out, when, with how many points, and that the call was wrong.
    expect(page.locator("main .claim")).to_have_text(
        "B (Ettore, Walter) ha chiamato fuori A (Nino, Salvo) dopo la presa 3: 12 punti su 41: "
        "la chiamata era sbagliata."
    )
    axe(page, "deal page, a call-out")
    shots(page, "73-deal-call-out-saved")
