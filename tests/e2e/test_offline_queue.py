"""The phone's queue as a state machine (issue 31 item 9, issue 32 item 4), in Chromium at
390 px in Italian.

The queue of a match is in one of these states, read from the phone's IndexedDB
(:func:`state`): ``empty``; ``waiting`` (saves not sent yet, none refused); ``refused`` (the
first waiting deal refused by the rules on arrival), ``conflict`` (another phone stored
that number first), ``closed-night`` (the director closed the night), ``finished-match``
(the match ended meanwhile). ``sending`` is the moment a save is on its way: a save
answered at once never enters the queue, whatever the answer.

Transitions, each walked below: save online (empty -> empty, the deal stored; refused at
once -> empty, the form with the notes and the values, a reload keeps them), save offline
(empty/waiting -> waiting), online again (waiting -> empty when stored; -> refused,
conflict, closed-night or finished-match by what the server says), the choices (discard,
keep the stored one: -> the next deal's state; put it right, compare and correct: the
server's page, styled). Nothing stays stuck: each refused state offers a way on, and the
next waiting deal is sent after it.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.e2e.test_offline import (
    SAVED,
    chip,
    engine_deal,
    enter,
    entered,
    eventually,
    go_offline,
    go_online,
    ready_offline,
    refusal_notes,
    stored,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

STATES = {
    "": "waiting",
    "refused": "refused",
    "conflict": "conflict",
    "closed": "closed-night",
    "finished": "finished-match",
}


def queue(page):
    """The phone's queue, in order: (deal number, what the server said of it)."""
    return page.evaluate(
        """() => new Promise(resolve => {
            const req = indexedDB.open("scorebook", 1);
            req.onupgradeneeded = () => req.result.createObjectStore("queue", {keyPath: "key"});
            req.onsuccess = () => {
              const get = req.result.transaction("queue").objectStore("queue").getAll();
              get.onsuccess = () => resolve(
                get.result.sort((a, b) => a.at - b.at).map(e => [e.number, e.kind || ""]));
            };
          })"""
    )


def state(page):
    try:
        entries = queue(page)
    except PlaywrightError as error:  # the page navigating: ask again
        raise AssertionError(str(error)) from None
    return STATES[entries[0][1]] if entries else "empty"


def reaches(page, expected, timeout=20.0):
    def check():
        assert state(page) == expected, queue(page)

    eventually(check, timeout)


def offline_deals(night, match, numbers):
    """Nino's phone, offline on the match's form, saves the deals ``numbers``."""
    nino = night.phone(night.people["nino"])
    nino.goto(f"/m/{match.pk}/")
    ready_offline(nino, match.pk)
    go_offline(nino.context)
    nino.goto(f"/m/{match.pk}/deals/new")
    assert state(nino) == "empty"
    for i in numbers:
        expect(nino.locator("h1")).to_have_text(f"Smazzata {i}")
        enter(nino, i)
        assert state(nino) == "waiting"
        nino.locator("#queue-status").get_by_role("link", name="Smazzata successiva").click()
    return nino


@pytest.fixture
def table(night, phone):
    night.phone = phone
    return night


def styled(page):
    """The deal form's own stylesheet is on the page (it was not when the queue put the
    server's page in place on a match page)."""
    return page.evaluate(
        "() => [...document.styleSheets].some(s => (s.href || '').includes('table'))"
    )


def refuse_online(page):
    """The detailed form: two declarations holding the same 3 of swords (the engine alone
    sees it), saved with a connection."""
    page.locator('[name="sides.A.thirds"]').fill("14")
    page.locator('[name="sides.A.tricks"]').fill("4")
    page.locator('[name="last_trick"]').select_option("B")
    page.locator("details.section").evaluate_all("all => all.forEach(d => { d.open = true; })")
    for name, value in {
        "declarations[0].player": "N",
        "declarations[0].type": "four",
        "declarations[0].rank": "3",
        "declarations[1].player": "E",
        "declarations[1].type": "napoletana",
        "declarations[1].suit": "s",
    }.items():
        page.locator(f'[name="{name}"]').select_option(value)
    page.locator("#deal-form button[type=submit]").click()


def test_a_save_refused_online_is_never_queued(table, shots):
    """empty -(save, refused at once)-> empty: the form shows the engine's notes with the
    values; a reload keeps the values and the same deal number, nothing waits; the deal
    put right is stored as deal 1. Before: the refused deal stayed queued, the reload
    showed an empty form and the next save waited behind it for ever."""
    match = table.tressette
    nino = table.phone(table.people["nino"])
    nino.goto(f"/m/{match.pk}/deals/new?level=totals")
    with nino.expect_response(lambda r: r.request.method == "POST" and "/deals/new" in r.url) as r:
        refuse_online(nino)
    expect(refusal_notes(nino, "tre di spade")).not_to_have_count(0)
    reaches(nino, "empty")
    assert r.value.status == 400
    assert r.value.headers["refusal-codes"].startswith("decl.")
    nino.reload()
    expect(nino.locator("h1")).to_have_text("Smazzata 1")
    expect(nino.locator('[name="sides.A.thirds"]')).to_have_value("14")
    expect(nino.locator("#queue-status")).to_be_hidden()
    assert state(nino) == "empty"
    nino.locator("details.section").evaluate_all("all => all.forEach(d => { d.open = true; })")
    expect(nino.locator('[name="declarations[1].suit"]')).to_have_value("s")
    for key in ("player", "type", "suit"):
        nino.locator(f'[name="declarations[1].{key}"]').select_option("")
    nino.locator("#deal-form button[type=submit]").click()
    nino.wait_for_url(SAVED)
    assert [d.number for d in stored(match)] == [1]
    assert state(nino) == "empty"


def test_one_version_of_a_deal_number_waits(table):
    """waiting -(a second save of the same number)-> waiting with that one only: the form
    opened again for deal 1 (its page kept from before the first save) replaces it."""
    match = table.tressette
    nino = table.phone(table.people["nino"])
    nino.goto(f"/m/{match.pk}/")
    ready_offline(nino, match.pk)
    go_offline(nino.context)
    nino.goto(f"/m/{match.pk}/deals/new")
    html = nino.content()
    enter(nino, 1)
    assert queue(nino) == [[1, ""]]
    # The same deal's form again (as a page kept open on a second tab would be), saved
    # with other values under another key.
    nino.evaluate(
        """(html) => {
            const doc = new DOMParser().parseFromString(html, "text/html");
            document.querySelector("main").innerHTML = doc.querySelector("main").innerHTML;
            document.querySelector("[data-key]").value = crypto.randomUUID();
        }""",
        html,
    )
    enter(nino, 2)
    assert queue(nino) == [[1, ""]]
    go_online(nino.context)
    eventually(lambda: assert_stored(match, [(1, engine_deal(2))]))
    reaches(nino, "empty")


def assert_stored(match, expected):
    assert [(d.number, entered(d)) for d in stored(match)] == expected


def test_closed_night_shows_each_waiting_deal_and_discards_it(table, shots, axe):
    """waiting -(the director closes the night, online)-> closed-night, shown one at a
    time in words with what was typed; discard -> closed-night (the next) -> ... ->
    empty. A save after that is answered at once: the styled form, saying why. Before:
    an unstyled form with no reason, and every save 409 for ever ("3 smazzate in
    attesa")."""
    from scorebook.matches import services

    match = table.tressette
    nino = offline_deals(table, match, (1, 2, 3))
    services.night_close(
        night=table, user=table.people["direttore"], end_open=[match.pk], reason="Si chiude"
    )
    go_online(nino.context)
    card = nino.locator("#queue-review")
    for i in (1, 2, 3):
        expect(card).to_contain_text(f"Da rivedere: Smazzata {i}", timeout=20_000)
        expect(card).to_contain_text(f"Smazzata {i} non è stata salvata: la serata è chiusa.")
        expect(card).to_contain_text("Inserito:")
        assert state(nino) == "closed-night"
        if i == 1:
            axe(nino, "a waiting deal meets a closed night")
            shots(nino, "85-queue-closed-night")
        card.get_by_role("button", name="Scartala").click()
        expect(nino.locator("#queue-status")).to_contain_text(f"Smazzata {i} scartata.")
    expect(card).to_have_count(0)
    reaches(nino, "empty")
    assert stored(match) == []
    nino.goto(f"/m/{match.pk}/deals/new")
    expect(nino.locator("h1")).to_have_text("Smazzata 1")


def test_finished_match_shows_the_waiting_deal_and_discards_it(table, shots):
    """waiting -(the director records the match's final score)-> finished-match, in
    words; discard -> finished-match (deal 2) -> empty."""
    from scorebook.matches import services

    match = table.tressette
    nino = offline_deals(table, match, (1, 2))
    services.match_record_final(
        match=match, totals={"A": 41, "B": 20}, user=table.people["direttore"]
    )
    go_online(nino.context)
    card = nino.locator("#queue-review")
    expect(card).to_contain_text(
        "Smazzata 1 non è stata salvata: la partita è finita.", timeout=20_000
    )
    assert state(nino) == "finished-match"
    shots(nino, "86-queue-finished-match")
    card.get_by_role("button", name="Scartala").click()
    expect(card).to_contain_text("Smazzata 2 non è stata salvata: la partita è finita.")
    card.get_by_role("button", name="Scartala").click()
    reaches(nino, "empty")
    expect(card).to_have_count(0)


def test_conflict_keep_the_stored_one_then_the_next_is_sent(table, shots):
    """waiting -(another phone stores deal 1; online)-> conflict, in words, with "keep
    the stored one" and "compare and correct"; keep -> the deal 2 behind it is sent ->
    empty."""
    match = table.tressette
    nino = offline_deals(table, match, (1, 2))
    ettore = table.phone(table.people["ettore"])
    ettore.goto(f"/m/{match.pk}/deals/new")
    ettore.locator('[name="sides.A.thirds"]').fill("6")
    chip(ettore, "sides.A.thirds~figures", "2")
    chip(ettore, "last_trick", "A")
    expect(ettore.locator("#deal-feedback .verdict.ok")).to_be_visible()
    ettore.locator("#deal-form button[type=submit]").click()
    ettore.wait_for_url(SAVED)

    go_online(nino.context)
    card = nino.locator("#queue-review")
    expect(card).to_contain_text("Smazzata 1: un altro telefono ha salvato prima", timeout=20_000)
    assert state(nino) == "conflict"
    expect(card.get_by_role("button", name="Confronta, e correggi")).to_be_visible()
    shots(nino, "87-queue-conflict")
    card.get_by_role("button", name="Tieni quella salvata").click()
    eventually(
        lambda: assert_stored(
            match,
            [
                (1, {"sides": {"A": {"thirds": 20}, "B": {"thirds": 12}}, "last_trick": "A"}),
                (2, engine_deal(2)),
            ],
        )
    )
    reaches(nino, "empty")


def test_refused_on_arrival_put_right_on_the_styled_form(table, shots):
    """waiting -(online: the engine refuses it)-> refused, its reason in words; "put it
    right" opens the form (styled, the values and the notes); saved -> empty."""
    match = table.tressette
    nino = table.phone(table.people["nino"])
    nino.goto(f"/m/{match.pk}/")
    ready_offline(nino, match.pk)
    nino.goto(f"/m/{match.pk}/deals/new?level=totals")
    go_offline(nino.context)
    nino.goto(f"/m/{match.pk}/deals/new?level=totals")
    refuse_online(nino)  # offline now: it waits
    expect(nino.locator("#queue-status")).to_contain_text("1 smazzata in attesa")
    assert state(nino) == "waiting"
    nino.goto(f"/m/{match.pk}/")  # the match page: no deal form's stylesheet
    go_online(nino.context)
    card = nino.locator("#queue-review")
    expect(card).to_contain_text("Smazzata 1 è stata rifiutata:", timeout=20_000)
    expect(card).to_contain_text("tre di spade")
    assert state(nino) == "refused"
    shots(nino, "88-queue-refused")
    card.get_by_role("button", name="Correggila").click()
    expect(refusal_notes(nino, "tre di spade")).not_to_have_count(0)
    assert styled(nino)
    for key in ("player", "type", "suit"):
        nino.locator(f'[name="declarations[1].{key}"]').select_option("")
    nino.locator("#deal-form button[type=submit]").click()
    nino.wait_for_url(SAVED)
    assert [d.number for d in stored(match)] == [1]
    reaches(nino, "empty")


def test_the_score_lists_the_waiting_deals_and_catches_up(table, shots):
    """Offline the form's score is the server's with the deals not sent yet added
    (test_offline_score.py), each listed under it ("non ancora inviata"); online the
    queue empties and the open form's score, dealer and number catch up in place, the
    values typed in it kept."""
    from scorebook.rules import start_match

    game, rules, engine = start_match("tressette4", {"profile": "accuso_41"}, 4)
    for i in (1, 2):
        game.add_deal(engine, engine_deal(i), rules)
    match = table.tressette
    nino = offline_deals(table, match, (1, 2))
    expect(nino.locator("h1")).to_have_text("Smazzata 3")
    score = nino.locator("p.scoreline")
    expect(score).to_be_visible()
    expect(score.locator("strong")).to_have_text([str(engine.totals[s]) for s in "AB"])
    expect(score.locator(".has-unsent")).to_have_count(2)
    unsent = nino.locator("#queue-unsent li")
    expect(unsent).to_have_count(2)
    expect(unsent.first).to_contain_text("Smazzata 1 non ancora inviata")
    shots(nino, "89-queue-score-unsent")
    nino.locator('[name="sides.A.thirds"]').fill("5")
    go_online(nino.context)
    eventually(lambda: assert_stored(match, [(1, engine_deal(1)), (2, engine_deal(2))]))
    nino.wait_for_function("() => document.documentElement.dataset.caughtUp === '3'")
    expect(unsent).to_have_count(0)
    expect(nino.locator("p.dealer")).to_be_visible()
    expect(score.locator("strong")).to_have_text([str(engine.totals[s]) for s in "AB"])
    expect(score.locator(".has-unsent")).to_have_count(0)
    expect(nino.locator('[name="sides.A.thirds"]')).to_have_value("5")
    assert nino.locator("[name=shape]").count() == 1


def test_offline_the_phone_checks_the_shape_in_the_servers_words(table, shots, axe):
    """Offline, a deal the server would refuse for its shape is refused on the phone, in
    the words the server's form says (the description beside the form, from the engine's
    description of the table): 11 points where a deal holds 10 and 2 figures; the last
    trick left blank. Nothing is queued; the deal put right waits to be sent. Before:
    11 points was queued (the bound was the form's own 'da 0 a 10', in other words) and
    a blank last trick was queued too, to be refused on arrival."""
    match = table.tressette
    nino = table.phone(table.people["nino"])
    nino.goto(f"/m/{match.pk}/")
    ready_offline(nino, match.pk)
    nino.goto(f"/m/{match.pk}/deals/new")
    points = nino.locator('[name="sides.A.thirds"]')
    points.fill("11")
    chip(nino, "last_trick", "A")
    nino.locator("#deal-form button[type=submit]").click()  # online: the server's answer
    server = nino.locator("#f-sides-A-thirds-err .error")
    expect(server).to_contain_text("deve essere tra 0 e 10 punti")
    said_online = server.inner_text().strip()
    reaches(nino, "empty")

    go_offline(nino.context)
    nino.goto(f"/m/{match.pk}/deals/new")
    expect(points).to_have_value("11")  # the draft
    save = nino.locator("#deal-form button[type=submit]")
    save.click()
    problem = nino.locator("#shape-problem")
    expect(problem).to_contain_text(said_online)
    expect(points).to_have_attribute("aria-invalid", "true")
    shots(nino, "90-offline-checks-points")
    assert state(nino) == "empty"

    points.fill("6")
    chip(nino, "sides.A.thirds~figures", "2")
    nino.locator("#deal-form").evaluate(
        "f => f.querySelectorAll('[name=last_trick]').forEach(r => { r.checked = false; })"
    )
    save.click()
    expect(problem).to_have_text("Indica chi ha fatto l'ultima presa.")
    axe(nino, "offline: the last trick asked for")
    assert state(nino) == "empty"

    chip(nino, "last_trick", "B")
    save.click()
    expect(problem).to_be_hidden()
    expect(nino.locator("#queue-status")).to_contain_text("1 smazzata in attesa")
    assert state(nino) == "waiting"
    go_online(nino.context)
    eventually(
        lambda: assert_stored(
            match, [(1, {"sides": {"A": {"thirds": 20}, "B": {"thirds": 12}}, "last_trick": "B"})]
        )
    )


def test_sending_holds_the_save_until_the_server_answers(table):
    """empty -(save online)-> sending (the save in the queue, its button disabled, until
    the answer) -(stored)-> empty: a page closed mid-way leaves it to be sent again."""
    match = table.tressette
    nino = table.phone(table.people["nino"])
    nino.goto(f"/m/{match.pk}/deals/new")
    held = []

    def hold(route):
        if route.request.method == "POST" and "/deals/new" in route.request.url:
            held.append(route)  # answered below, once the state is read
        else:
            route.continue_()

    nino.context.route("**/*", hold)
    points, figures, last = 3, 2, "A"
    nino.locator('[name="sides.A.thirds"]').fill(str(points))
    chip(nino, "sides.A.thirds~figures", figures)
    chip(nino, "last_trick", last)
    save = nino.locator("#deal-form button[type=submit]")
    save.click()
    # The route's handler runs only while Playwright is called (its sync API dispatches
    # events then, not during a time.sleep): wait on the page, which lets it run.
    for _ in range(100):
        if held:
            break
        nino.wait_for_timeout(100)
    assert held, "not sent in 10 s"
    assert state(nino) == "waiting"  # sending: kept until the server answers
    expect(save).to_be_disabled()
    assert stored(match) == []
    held[0].continue_()
    nino.wait_for_url(SAVED)
    assert [d.number for d in stored(match)] == [1]
    reaches(nino, "empty")
