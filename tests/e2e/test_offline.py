"""Offline for the whole night (issue 22, step 3), in a real browser at a phone's size:
the service worker keeps the match page and the next deal's form, the deals typed with
no connection wait in IndexedDB (across a reload, a visit to the match page, closing the
browser) and are sent in order when it returns; another phone's deal of the same number
is said in words and opens the conflict choice with nothing lost; a new deploy's worker
takes over. The queue's states one by one: test_offline_queue.py.

Chromium's offline emulation (``context.set_offline``) also cuts the service worker's own
requests here (Playwright 1.65, Chromium 156): the pages below come from its cache, as
the first test checks by changing the match on the server while the phone is offline.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def deal(i):
    """Deal i as the table says it: side A's card points and the figures left over, the
    last trick alternating."""
    thirds = 10 + i
    return thirds // 3, thirds % 3, ("A" if i % 2 else "B")


def engine_deal(i):
    """Deal i as the engine reads it: side B has the rest of the 32 thirds."""
    return {"sides": {"A": {"thirds": 10 + i}, "B": {"thirds": 22 - i}}, "last_trick": deal(i)[2]}


def entered(stored_deal):
    data = stored_deal.input
    return {
        "sides": {s: {"thirds": data["sides"][s]["thirds"]} for s in "AB"},
        "last_trick": data["last_trick"],
    }


def chip(page, name, value):
    page.locator(f'label.chip:has(input[name="{name}"][value="{value}"])').click()


SAVED = re.compile(r"/deals/new\?level=\w+&saved=\d+$")


def stored(match):
    from scorebook.matches.models import Deal

    return list(Deal.objects.filter(match=match).order_by("number", "version"))


def eventually(check, timeout=20.0):
    """Wait for the server to have what the phone sends (it sends in the background)."""
    end = time.monotonic() + timeout
    while True:
        try:
            return check()
        except (AssertionError, pytest.fail.Exception):
            if time.monotonic() > end:
                raise
            time.sleep(0.2)


def served(match):
    """The paths of this match's pages that reach the server from now on."""
    from django.core.signals import request_started

    paths = []

    def seen(sender, environ, **kwargs):
        if environ["PATH_INFO"].startswith(f"/m/{match.pk}/"):
            paths.append(environ["PATH_INFO"])

    request_started.connect(seen, weak=False)
    return paths


def _no_network(route):
    route.abort("internetdisconnected")


def go_offline(context):
    """No connection: Chromium's emulation (``navigator.onLine``, the worker's requests)
    and, so that no request of this phone can reach the server whatever the emulation
    lets through, every request the page makes aborted as a dropped network would."""
    context.set_offline(True)
    context.route("**/*", _no_network)


def go_online(context):
    context.unroute("**/*", _no_network)
    context.set_offline(False)


def ready_offline(page, match_id):
    """The worker controls the page and keeps the match page and its next deal's form."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    has = "async (urls) => (await Promise.all(urls.map(u => caches.match(u)))).every(Boolean)"
    pages = [f"/m/{match_id}/", f"/m/{match_id}/deals/new"]
    # 30 s: the worker's first fetches of the two pages took over 10 s at a load of 12.
    eventually(lambda: page.evaluate(has, pages) or pytest.fail("not cached yet"), timeout=30)


def enter(page, i):
    """The quick form: A's points typed, the figures and the last trick tapped; saved."""
    points, figures, last = deal(i)
    page.locator('[name="sides.A.thirds"]').fill(str(points))
    chip(page, "sides.A.thirds~figures", figures)
    chip(page, "last_trick", last)
    save = page.locator("#deal-form button[type=submit]")
    save.click()
    # The phone tried to send it (and found no connection): the button is back.
    expect(page.locator("#queue-status")).to_contain_text("in attesa")
    expect(save).to_be_enabled()


def enter_online(page, i):
    """As :func:`enter`, with a connection: the save goes straight to the server."""
    points, figures, last = deal(i)
    page.locator('[name="sides.A.thirds"]').fill(str(points))
    chip(page, "sides.A.thirds~figures", figures)
    chip(page, "last_trick", last)
    page.locator("#deal-form button[type=submit]").click()


def queued_count(page):
    return page.evaluate(
        """() => new Promise(resolve => {
            const req = indexedDB.open("scorebook", 1);
            req.onsuccess = () => {
              const get = req.result.transaction("queue").objectStore("queue").count();
              get.onsuccess = () => resolve(get.result);
            };
          })"""
    )


def long_match(night):
    """A Tressette match to 151, so that ten deals do not end it."""
    from scorebook.matches import services

    return services.match_create(
        night=night,
        game="tressette4",
        rules={"profile": "accuso_41", "t4.target": 151},
        seats=night.tressette.seats,
        user=night.people["direttore"],
    )


def refusal_notes(page, words):
    """The engine's note on the refused deal. The server's page puts it by the field; a live
    check that runs on the shown form (a restored draft, a change) moves it beside the save
    button: either is in view, and which one a test sees depends on timing."""
    notes = page.locator("#f-declarations-1-player-err .error, #deal-feedback .verdict .notes")
    return notes.filter(has_text=words)


def test_ten_deals_offline_across_a_reload_and_the_match_page(night, phone, shots, axe):
    from scorebook.rules import start_match

    match = long_match(night)
    nino = phone(night.people["nino"])
    nino.goto(f"/m/{match.pk}/")
    ready_offline(nino, match.pk)
    go_offline(nino.context)
    asked = served(match)
    nino.goto(f"/m/{match.pk}/deals/new")
    for i in range(1, 11):
        expect(nino.locator("h1")).to_have_text(f"Smazzata {i}")
        expect(nino.locator("#deal-form button[type=submit]")).to_have_text(
            f"Salva la smazzata {i}"
        )
        enter(nino, i)
        status = nino.locator("#queue-status")
        expect(status).to_contain_text(
            "1 smazzata in attesa" if i == 1 else f"{i} smazzate in attesa"
        )
        if i == 1:
            axe(nino, "offline, a deal waiting")
            shots(nino, "80-offline-waiting")
        if i == 4:  # a reload: the form again, for the deal after the waiting ones
            nino.reload()
        elif i == 7:  # the match page: the waiting deals, "not sent yet", in the score
            nino.goto(f"/m/{match.pk}/")
            expect(nino.locator("[data-queued] .card.queued")).to_have_count(7)
            expect(nino.locator("[data-queued] .card.queued").first).to_contain_text(
                "Smazzata 7 non ancora inviata"
            )
            expect(nino.locator("[data-queued-note]")).to_contain_text(
                "7 smazzate non ancora inviate"
            )
            expect(nino.locator("p.dealer")).to_be_hidden()  # the dealer is the server's word
            axe(nino, "offline match page")
            shots(nino, "81-offline-match")
            nino.locator(f'a[href$="/m/{match.pk}/deals/new"]').first.click()
        elif i < 10:
            status.get_by_role("link", name="Smazzata successiva").click()
    assert stored(match) == []
    assert queued_count(nino) == 10
    assert asked == []  # every page came from the phone: none reached the server

    go_online(nino.context)
    # Sent in order once the connection is back; the page then opens the next deal's form,
    # the last one saved in a line on top.
    nino.wait_for_url(SAVED, timeout=30_000)
    expect(nino.locator("p.saved")).to_contain_text("Smazzata 10")
    expect(nino.locator("h1")).to_have_text("Smazzata 11")
    deals = stored(match)
    assert [(d.number, d.version) for d in deals] == [(n, 1) for n in range(1, 11)]
    assert [entered(d) for d in deals] == [engine_deal(i) for i in range(1, 11)]
    assert queued_count(nino) == 0
    # The score on the match page is the engine's for these ten deals.
    game, rules, state = start_match("tressette4", {"profile": "accuso_41", "t4.target": 151}, 4)
    for i in range(1, 11):
        game.add_deal(state, engine_deal(i), rules)
    nino.goto(f"/m/{match.pk}/")
    expect(nino.locator(".scoreboard .points")).to_have_text(
        [str(state.totals["A"]), str(state.totals["B"])]
    )
    expect(nino.locator("[data-queued] .card")).to_have_count(0)
    expect(nino.locator("section.card.deal")).to_have_count(10)


def test_offline_phone_meets_another_phones_deal(night, phone, shots, axe):
    """Nino enters deals 1-3 with no connection while Ettore enters deal 1 online. Back
    online, Nino's deal 1 opens the conflict choice (his values there); he corrects the
    stored deal with his, and his deals 2 and 3 follow: nothing lost."""
    match = night.tressette
    nino = phone(night.people["nino"])
    nino.goto(f"/m/{match.pk}/")
    ready_offline(nino, match.pk)
    go_offline(nino.context)
    asked = served(match)
    nino.goto(f"/m/{match.pk}/deals/new")
    for i in (1, 2, 3):
        expect(nino.locator("h1")).to_have_text(f"Smazzata {i}")
        enter(nino, i)
        expect(nino.locator("#queue-status")).to_contain_text("in attesa")
        nino.locator("#queue-status").get_by_role("link", name="Smazzata successiva").click()
    expect(nino.locator("h1")).to_have_text("Smazzata 4")
    assert stored(match) == []
    assert asked == []  # nothing of Nino's reached the server while he was offline

    ettore = phone(night.people["ettore"])
    ettore.goto(f"/m/{match.pk}/deals/new")
    ettore.locator('[name="sides.A.thirds"]').fill("6")
    chip(ettore, "sides.A.thirds~figures", "2")
    chip(ettore, "last_trick", "A")
    expect(ettore.locator("#deal-feedback .verdict.ok")).to_be_visible()
    ettore.locator("#deal-form button[type=submit]").click()
    ettore.wait_for_url(SAVED)
    assert [d.number for d in stored(match)] == [1]

    go_online(nino.context)
    # Said in words first (issue 31 item 9), the comparison one tap away.
    review = nino.locator("#queue-review")
    expect(review).to_contain_text("Smazzata 1: un altro telefono", timeout=20_000)
    review.get_by_role("button", name="Confronta, e correggi quella salvata con la mia").click()
    expect(nino.locator("[data-conflict]")).to_be_visible(timeout=20_000)
    expect(nino.locator(".compare")).to_contain_text("La tua")
    axe(nino, "offline deal meets another phone's")
    shots(nino, "82-offline-conflict")
    assert queued_count(nino) == 3  # nothing dropped: deal 1 waits for the choice
    assert [d.number for d in stored(match)] == [1]
    nino.locator("form[action*='/correct'] button[type=submit]").click()
    nino.wait_for_url(re.compile(r"/d/\d+/$"))

    def all_there():
        deals = stored(match)
        assert [(d.number, d.version) for d in deals] == [(1, 1), (1, 2), (2, 1), (3, 1)]
        return deals

    deals = eventually(all_there)
    assert deals[0].input["sides"]["A"]["thirds"] == 20  # Ettore's, kept in the history
    assert [entered(d) for d in deals[1:]] == [engine_deal(i) for i in (1, 2, 3)]
    expect(nino.locator("#queue-status")).to_be_hidden()
    assert queued_count(nino) == 0


def test_the_queue_survives_closing_the_browser(
    night, playwright, browser_type_launch_args, live_server, tmp_path
):
    """A deal saved with no connection, the browser closed; opened again (still offline)
    the match page shows it waiting; online, it is stored once."""
    from django.conf import settings
    from django.test import Client

    match = night.tressette
    client = Client()
    client.force_login(night.people["nino"])
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    profile = tmp_path / "profile"

    def open_phone(offline):
        context = playwright.chromium.launch_persistent_context(
            str(profile),
            **browser_type_launch_args,
            viewport=PHONE,
            locale="it-IT",
            base_url=live_server.url,
            offline=offline,
        )
        context.set_default_timeout(10_000)
        return context, context.pages[0] if context.pages else context.new_page()

    context, page = open_phone(offline=False)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": session,
                "url": live_server.url,
                "expires": time.time() + 3600,
            }
        ]
    )
    page.goto(f"/m/{match.pk}/")
    ready_offline(page, match.pk)
    context.set_offline(True)
    page.goto(f"/m/{match.pk}/deals/new")
    enter(page, 1)
    expect(page.locator("#queue-status")).to_contain_text("1 smazzata in attesa")
    context.close()

    context, page = open_phone(offline=True)
    try:
        page.goto(f"/m/{match.pk}/")
        expect(page.locator("[data-queued] .card.queued")).to_contain_text(
            "Smazzata 1 non ancora inviata"
        )
        assert stored(match) == []
        context.set_offline(False)

        def sent():
            assert [(d.number, entered(d)) for d in stored(match)] == [(1, engine_deal(1))]

        eventually(sent)
        # The match page shows it stored, not waiting (it reloads once the queue is sent).
        expect(page.locator("section.card.deal:not(.queued)")).to_have_count(1)
        expect(page.locator("[data-queued] .card")).to_have_count(0)
    finally:
        context.close()


def test_a_new_deploy_takes_over(night, phone, settings):
    """A deploy (another BUILD_ID, or changed static files) makes a new worker: it takes
    over the open pages (they reload) and its old caches are gone."""
    from scorebook.web.views.offline import worker_version

    match = night.tressette
    nino = phone(night.people["nino"])
    nino.goto(f"/m/{match.pk}/")
    ready_offline(nino, match.pk)
    ask = """() => new Promise(resolve => {
        const channel = new MessageChannel();
        channel.port1.onmessage = event => resolve(event.data.version);
        navigator.serviceWorker.controller.postMessage({ask: "version"}, [channel.port2]);
      })"""
    first = worker_version()
    assert nino.evaluate(ask) == first

    settings.BUILD_ID = "the next deploy"
    second = worker_version()
    assert second != first
    nino.evaluate("() => { window.oldPage = true; }")
    # The browser looks for a new worker on each page (here: asked at once).
    nino.evaluate("() => navigator.serviceWorker.getRegistration().then(r => r.update())")
    nino.wait_for_function("() => window.oldPage === undefined")  # the page reloaded
    nino.wait_for_function("() => navigator.serviceWorker.controller !== null")

    # The page reloaded under the new worker: its caches alone are left, and it keeps
    # the pages again.
    def taken_over():
        assert nino.evaluate(ask) == second
        names = nino.evaluate("caches.keys()")
        assert names and all(name.endswith(second) for name in names), names
        assert nino.evaluate("async (m) => !!(await caches.match(m))", f"/m/{match.pk}/deals/new")

    eventually(taken_over)


def test_offline_shape_check_and_the_engines_refusal_after_the_fact(night, phone, shots, axe):
    """Offline the form checks its shape only (something entered, a number within the
    deal's total, in the server's words); a deal the engine refuses on arrival is said in
    words, opens the form with the values typed and its notes, and stays on the phone
    until it is put right."""
    match = night.tressette
    nino = phone(night.people["nino"])
    nino.goto(f"/m/{match.pk}/")
    ready_offline(nino, match.pk)
    nino.goto(f"/m/{match.pk}/deals/new?level=totals")  # the detailed form, kept too
    go_offline(nino.context)
    nino.goto(f"/m/{match.pk}/deals/new")
    save = nino.locator("#deal-form button[type=submit]")
    save.click()
    problem = nino.locator("#shape-problem")
    expect(problem).to_have_text("Senza connessione: compila la smazzata prima di salvarla.")
    points = nino.locator('[name="sides.A.thirds"]')
    points.fill("12")  # 32 thirds in the cards: 10 points and 2 figures at most
    save.click()
    # the server's words for it (scorebook/web/offline_checks.py), in points (issue 32 item 5)
    expect(problem).to_contain_text("deve essere tra 0 e 10 punti.")
    expect(points).to_have_attribute("aria-invalid", "true")
    shots(nino, "83-offline-shape")
    assert queued_count(nino) == 0
    # TV05: two declarations holding the same 3 of swords; the engine alone sees it.
    nino.goto(f"/m/{match.pk}/deals/new?level=totals")
    nino.locator('[name="sides.A.thirds"]').fill("14")
    nino.locator('[name="sides.A.tricks"]').fill("4")
    nino.locator('[name="last_trick"]').select_option("B")
    nino.locator("details.section").evaluate_all("all => all.forEach(d => { d.open = true; })")
    for name, value in {
        "declarations[0].player": "N",
        "declarations[0].type": "four",
        "declarations[0].rank": "3",
        "declarations[1].player": "E",
        "declarations[1].type": "napoletana",
        "declarations[1].suit": "s",
    }.items():
        nino.locator(f'[name="{name}"]').select_option(value)
    nino.locator("#deal-form button[type=submit]").click()
    expect(nino.locator("#shape-problem")).to_be_hidden()
    expect(nino.locator("#queue-status")).to_contain_text("1 smazzata in attesa")

    go_online(nino.context)
    review = nino.locator("#queue-review")
    expect(review).to_contain_text("Smazzata 1 è stata rifiutata:", timeout=20_000)
    review.get_by_role("button", name="Correggila").click()
    expect(refusal_notes(nino, "tre di spade")).not_to_have_count(0, timeout=20_000)
    expect(nino.locator('[name="sides.A.thirds"]')).to_have_value("14")
    axe(nino, "offline deal refused on arrival")
    shots(nino, "84-offline-refused")
    assert stored(match) == []
    assert queued_count(nino) == 1  # kept until put right
    for key in ("player", "type", "suit"):
        nino.locator(f'[name="declarations[1].{key}"]').select_option("")
    nino.locator("#deal-form button[type=submit]").click()
    nino.wait_for_url(SAVED)
    (saved,) = stored(match)
    assert saved.input["declarations"] == [{"player": "N", "type": "four", "rank": "3"}]
    assert queued_count(nino) == 0


def sign_in(context, user, live_server):
    """This phone's session becomes ``user``'s (as after a log-in on it)."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])


def test_a_phone_passed_around_sends_each_players_deals_as_theirs(night, phone, live_server):
    """Nino saves a deal with no connection; Ettore signs in on the same phone, online:
    Nino's deal is neither sent as Ettore's nor shown as his. Nino signs in again: it is
    sent, entered by him."""
    match = night.tressette
    page = phone(night.people["nino"])
    context = page.context
    page.goto(f"/m/{match.pk}/")
    ready_offline(page, match.pk)
    context.set_offline(True)
    page.goto(f"/m/{match.pk}/deals/new")
    enter(page, 1)
    page.close()  # Nino's page goes; Ettore signs in on the phone

    sign_in(context, night.people["ettore"], live_server)
    context.set_offline(False)
    page = context.new_page()
    page.goto(f"/m/{match.pk}/")
    expect(page.locator("[data-queued]")).to_be_hidden()
    expect(page.locator("#queue-status")).to_have_count(0)
    page.wait_for_timeout(1500)  # the page's first sending round, had it any to send
    assert stored(match) == []
    assert queued_count(page) == 1  # still on the phone, Nino's

    sign_in(context, night.people["nino"], live_server)
    page.goto(f"/m/{match.pk}/")

    def sent():
        saved = stored(match)
        assert [(d.entered_by, entered(d)) for d in saved] == [
            (night.people["nino"], engine_deal(1))
        ]

    eventually(sent)
    expect(page.locator("section.card.deal:not(.queued)")).to_have_count(1)
