"""Offline, the phone still scores (issue 32 item 4): the deal form and the match page
add the deals waiting on the phone to the server's score, each marked "non ancora
inviata", from the engine's description the server writes beside the form (tally.js); a
deal the phone cannot count (Chiamata's: the caller's partner, the engine's logic) is
said "non ancora contata", never given a number; a deal the shape checks refuse offline
is neither queued nor counted; when the queue is sent the open form's score becomes the
server's, in place, without a reload."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_offline import (
    SAVED,
    chip,
    go_offline,
    go_online,
    queued_count,
    ready_offline,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: Two deals of Tressette in pairs as the quick form takes them: A's points, the figures
#: tapped, the last trick; and as the engine reads them (B has the rest of 32 thirds).
DEALS = [(6, 2, "A"), (3, 1, "B")]


def engine_totals(rules, deals):
    from scorebook.rules import start_match

    game, resolved, state = start_match("tressette4", rules, 4)
    added = []
    for points, figures, last in deals:
        thirds = points * 3 + figures
        sides = {"A": {"thirds": thirds}, "B": {"thirds": 32 - thirds}}
        result = game.add_deal(state, {"sides": sides, "last_trick": last}, resolved)
        added.append(result.points)
    return [str(state.totals["A"]), str(state.totals["B"])], added


def enter(page, points, figures, last):
    page.locator('[name="sides.A.thirds"]').fill(str(points))
    chip(page, "sides.A.thirds~figures", figures)
    chip(page, "last_trick", last)
    page.locator("#deal-form button[type=submit]").click()


def test_waiting_deals_in_the_score_then_the_servers(night, phone, shots, axe):
    from scorebook.matches.models import Match

    match = night.tressette
    nino = phone(night.people["nino"])
    nino.goto(f"/m/{match.pk}/")
    ready_offline(nino, match.pk)
    go_offline(nino.context)
    nino.goto(f"/m/{match.pk}/deals/new")
    score = nino.locator("p.scoreline strong")
    expect(score).to_have_text(["0", "0"])

    one, (first,) = engine_totals({"profile": "accuso_41"}, DEALS[:1])
    enter(nino, *DEALS[0])
    expect(nino.locator("#queue-status")).to_contain_text("1 smazzata in attesa")
    expect(score).to_have_text(one)  # deal 1 in the score, marked
    expect(nino.locator("p.scoreline .has-unsent")).to_have_count(2)
    expect(nino.locator("#queue-score")).to_have_text(
        "* Nel punteggio: 1 smazzata non ancora inviata."
    )
    line = f"Nino & Salvo +{first['A']} · Ettore & Walter +{first['B']}"
    expect(nino.locator("#queue-unsent li")).to_contain_text(
        f"Smazzata 1 non ancora inviata {line}"
    )

    both, _added = engine_totals({"profile": "accuso_41"}, DEALS)
    nino.locator("#queue-status").get_by_role("link", name="Smazzata successiva").click()
    enter(nino, *DEALS[1])
    expect(nino.locator("#queue-status")).to_contain_text("2 smazzate in attesa")
    expect(score).to_have_text(both)
    expect(nino.locator("#queue-score")).to_contain_text("2 smazzate non ancora inviate")
    expect(nino.locator("#queue-unsent li")).to_have_count(2)

    # A deal the shape checks refuse offline (12 points where a deal holds 10 and 2
    # figures) is not queued and not counted.
    nino.locator('[name="sides.A.thirds"]').fill("12")
    chip(nino, "last_trick", "A")
    nino.locator("#deal-form button[type=submit]").click()
    expect(nino.locator("#shape-problem")).to_be_visible()
    assert queued_count(nino) == 2
    expect(score).to_have_text(both)
    expect(nino.locator("#queue-unsent li")).to_have_count(2)

    # The match page (from the phone): the scoreboard with both, marked, each deal's points.
    nino.goto(f"/m/{match.pk}/")
    expect(nino.locator(".scoreboard .points")).to_have_text(both)
    expect(nino.locator(".scoreboard .score.has-unsent")).to_have_count(2)
    expect(nino.locator("[data-queued-note]")).to_have_text(
        "* Nel punteggio: 2 smazzate non ancora inviate."
    )
    cards = nino.locator("[data-queued] .card.queued")
    expect(cards).to_have_count(2)
    expect(cards.last).to_contain_text("Smazzata 1 non ancora inviata")
    expect(cards.last).to_contain_text(line)
    axe(nino, "offline match page, the waiting deals in the score")
    shots(nino, "91-offline-score-match")

    # The form opened again (not the page that saved them): its score with the deals.
    nino.locator(f'a[href$="/m/{match.pk}/deals/new"]').first.click()
    expect(nino.locator("h1")).to_have_text("Smazzata 3")
    expect(score).to_have_text(both)
    axe(nino, "offline form, the waiting deals in the score")
    shots(nino, "92-offline-score-form")
    nino.evaluate("() => { window.__notReloaded = true; }")
    nino.locator('[name="sides.A.thirds"]').fill("5")  # typed meanwhile: kept

    go_online(nino.context)
    expect(nino.locator("html")).to_have_attribute("data-caught-up", "3", timeout=30_000)
    assert queued_count(nino) == 0
    totals = Match.objects.get(pk=match.pk).state["totals"]
    assert [str(totals["A"]), str(totals["B"])] == both  # the engine's, as the phone said
    expect(score).to_have_text(both)
    expect(nino.locator("p.scoreline .has-unsent")).to_have_count(0)
    expect(nino.locator("#queue-score")).to_be_hidden()
    expect(nino.locator("#queue-unsent")).to_have_count(0)
    assert nino.evaluate("() => window.__notReloaded === true")  # in place
    expect(nino.locator('[name="sides.A.thirds"]')).to_have_value("5")


def test_a_deal_the_phone_cannot_count_is_said_in_words(players, phone, shots, axe):
    """Chiamata del tre: the points go to the caller, his partner and the others, as the
    engine says; offline the score stays the server's and the deal is "non ancora
    contata" (English too); sent, the score is the server's."""
    from scorebook.matches.models import Match
    from tests.e2e.test_no_scroll import _match

    match = _match(players, "chiamata", 4, None)
    for language, partner, uncounted, note in (  # the caller is deal 1's P2, deal 2's P3
        ("it", "P3", "non ancora contata", "1 smazzata non ancora contata"),
        ("en", "P4", "not counted yet", "1 deal not counted yet"),
    ):
        page = phone(players["nino"], language=language)
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(f"/m/{match.pk}/")
        ready_offline(page, match.pk)
        go_offline(page.context)
        page.goto(f"/m/{match.pk}/deals/new")
        before = page.locator("p.scoreline strong").all_text_contents()
        chip(page, "called", "c")
        chip(page, "partner", partner)
        page.locator('[name="sides.callers.thirds"]').fill("6")
        chip(page, "sides.callers.thirds~figures", "2")
        chip(page, "last_trick", "callers")
        page.locator("#deal-form button[type=submit]").click()
        expect(page.locator("#queue-unsent li")).to_contain_text(uncounted)
        expect(page.locator("#queue-score")).to_contain_text(note)
        expect(page.locator("p.scoreline strong")).to_have_text(before)  # no number guessed
        expect(page.locator("p.scoreline .has-unsent")).to_have_count(0)
        if language == "it":
            axe(page, "offline, a deal not counted")
            shots(page, "93-offline-uncounted")
        go_online(page.context)
        page.wait_for_url(SAVED, timeout=30_000)  # sent: the server's next form
        totals = Match.objects.get(pk=match.pk).state["totals"]
        expect(page.locator("p.scoreline strong")).to_have_text(
            [str(totals[s]) for s in ("P1", "P2", "P3", "P4")]
        )
        expect(page.locator("#queue-score")).to_be_hidden()


def test_the_leading_mark_follows_the_waiting_deals(night, phone, shots):
    """Offline the match page showed 7 to 4 with the waiting deal and no "in testa" (the
    server's 0 to 0 has no leader): the mark follows the score shown. Back online the
    deal meets another phone's deal 1 (4 to 7 on the server) and waits to be reviewed:
    not in the score any more, the mark goes back to the server's, in place; the live
    score brings the server's leader."""
    match = night.tressette
    nino = phone(night.people["nino"])
    nino.goto(f"/m/{match.pk}/")
    expect(nino.locator(".scoreboard .score.leading")).to_have_count(0)
    ready_offline(nino, match.pk)
    go_offline(nino.context)
    nino.goto(f"/m/{match.pk}/deals/new")
    enter(nino, *DEALS[0])  # 6 e 2 and the last trick: Nino & Salvo 7, Ettore & Walter 4
    expect(nino.locator("#queue-status")).to_contain_text("1 smazzata in attesa")

    nino.goto(f"/m/{match.pk}/")
    board = nino.locator(".scoreboard")
    expect(board.locator(".points")).to_have_text(["7", "4"])
    expect(board.locator(".score.leading")).to_have_count(1)
    expect(board.locator('.score.leading[data-scorer="A"] .help')).to_have_text("in testa")
    expect(board.locator('.score[data-scorer="B"] .help')).to_have_text("\u00a0")
    shots(nino, "94-offline-leading")

    ettore = phone(night.people["ettore"])
    ettore.goto(f"/m/{match.pk}/deals/new")
    ettore.locator('[name="sides.A.thirds"]').fill("3")
    chip(ettore, "sides.A.thirds~figures", "1")
    chip(ettore, "last_trick", "B")
    ettore.locator("#deal-form button[type=submit]").click()
    ettore.wait_for_url(SAVED)

    nino.evaluate("() => { window.__notReloaded = true; }")
    go_online(nino.context)
    expect(nino.locator("#queue-review")).to_contain_text("Smazzata 1", timeout=20_000)
    expect(board.locator('.score[data-scorer="A"]')).not_to_have_class(re.compile("leading"))
    expect(board.locator('.score[data-scorer="A"] .help')).to_have_text("\u00a0")
    assert nino.evaluate("() => window.__notReloaded === true")  # in place
    # the live part of the page (every 15 s): the server's score and its leader
    expect(board.locator(".points")).to_have_text(["3", "8"], timeout=40_000)
    expect(board.locator('.score.leading[data-scorer="B"] .help')).to_have_text("in testa")
    expect(board.locator(".score.leading")).to_have_count(1)
