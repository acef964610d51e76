"""`make table-taps` in CI (issues 22 and 32): 10 deals of every game the engine offers
entered through the real quick form on a phone, each counted from the previous deal saved,
stored as the engine scores them, and each within its target from paper's count
(docs/table.md): an ordinary deal, a clean sweep, 2 taps more per declaration. The
counting code is deploy/checks/table_taps.py; with TABLE_TAPS_REPORT=1 the counts are
printed, per game the median and the worst beside paper's count."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from deploy.checks import table_taps as taps  # noqa: E402 - the repository root first

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _match(players, game, count, rules):
    from scorebook.clubs.models import Player
    from scorebook.matches import services
    from scorebook.rules import get_game

    director = players["direttore"]
    club_id = director.memberships.get().club_id
    night = services.night_open(club_id=club_id, date="2026-11-27", venue="", user=director)
    people = list(Player.objects.filter(club_id=club_id).order_by("name"))
    while len(people) < count:
        from scorebook.clubs import services as clubs

        people.append(clubs.player_create(club=night.club, name=f"Ospite {len(people)}",
                                          user=director))  # fmt: skip
    engine = get_game(game)
    resolved = engine.rules(rules)
    seats = engine.seats(resolved, count)
    return services.match_create(
        night=night, game=game, rules=rules, seats=dict(zip(seats, (p.pk for p in people),
                                                            strict=False)), user=director,
    )  # fmt: skip


def _enter_all(page, match, deals, rules, director):
    """Enter ``deals`` through the quick form, one after the other; returns the counts of
    those the quick form holds (with what sort of deal each is) and checks each stored
    deal scores as the engine says."""
    from scorebook.matches.models import Deal
    from scorebook.rules import start_match
    from scorebook.web import preview

    engine, resolved, state = start_match(match.game, rules, len(match.seats))
    page.goto(f"/m/{match.pk}/deals/new")
    rows, kinds = [], []
    for number, deal in enumerate(deals, start=1):
        match.refresh_from_db()
        deal = taps.in_turn(deal, engine.dealt_in(state))
        # entered as paper has it (whole points) where that scores the same
        steps = taps.plan(preview.table(match), taps.as_paper(engine, resolved, state, deal))
        expected = engine.add_deal(state, deal, resolved).as_dict()
        if steps is None:  # only the detailed form holds it: entered there, not counted
            from scorebook.matches import services

            services.deal_create(match=match, data=deal, expected_number=number, user=director)
            page.goto(f"/m/{match.pk}/deals/new")
            continue
        count = taps.enter(page, steps)
        stored = Deal.objects.get(match=match, number=number, is_current=True)
        assert stored.result["points"] == expected["points"], (number, deal, stored.input)
        assert stored.result.get("units") == expected.get("units"), (number, deal)
        rows.append((f"deal {number}", count))
        kinds.append(taps.kind(deal, steps))
    return rows, kinds


def _report(name, game, rows, kinds, entered=10):
    paper = taps.paper()[game]
    if os.environ.get("TABLE_TAPS_REPORT"):
        print(f"\n{name}: {len(rows)} of {entered} deals on the quick form")
        for (row, count), (sort, declared, _setup) in zip(rows, kinds, strict=True):
            more = f" ({sort}{f', {declared}' if declared else ''})" if sort != "ordinary" else ""
            print(f"  {row}: {count.taps} taps + {count.keys} keystrokes{more}")
        ordinary = [sort for sort, _n, _s in kinds]
        print(f"  ordinary: {taps.summary(rows, ordinary)}" if rows else "  (none)")
        print(f"  {paper}")


def _over(game, rows, kinds):
    """The deals over their target (paper's count, docs/table.md)."""
    paper = taps.paper()[game]
    over = []
    for (name, counted), (sort, declared, setup) in zip(rows, kinds, strict=True):
        if sort == "other":
            continue  # a folded part opened: not an ordinary deal
        most_taps, most_keys = paper.target(sort, declared, setup)
        if counted.taps > most_taps or counted.keys > most_keys:
            over.append((name, sort, counted.taps, counted.keys, most_taps, most_keys))
    return over


def test_every_game_has_paper_s_count():
    """docs/table.md's table names every game the engine offers, with its numbers."""
    from scorebook.rules import games

    assert set(taps.paper()) == set(games()) == {g for _n, g, _c, _r in taps.GAMES}


#: Issue 32: every game meets its target in both languages (the form's words differ, its
#: taps should not).
LANGUAGES = ("it", "en")


@pytest.mark.parametrize("language", LANGUAGES)
def test_tressette_in_pairs_meets_the_targets(players, phone, axe, language):
    """Issue 22's targets, from the previous deal saved: an ordinary deal in <= 3 taps +
    2 keystrokes, a napoletana 2 taps more, a cappotto in 2 taps (the piles and the last
    trick are the sweep's). The quick form with a player's "+ accuso" open passes axe and
    fits the phone's width."""
    name, game, count, rules = taps.GAMES[0]
    match = _match(players, game, count, rules)
    page = phone(players["nino"], language)
    # the session's first page: the live server's first answer took over 10 s at load 20
    page.goto(f"/m/{match.pk}/deals/new", timeout=60_000)
    page.locator("details.accuso summary").first.click()
    axe(page, "quick entry, + accuso open")
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    rows, kinds = _enter_all(page, match, taps.T4_DEALS, rules, players["direttore"])
    after = page.locator("p.saved").inner_text()
    assert "+" in after and "·" in after  # the last deal in a line: "+11 Nino & Salvo · 66–43"
    _report(f"{name} ({language})", game, rows, kinds)
    assert len(rows) == len(taps.T4_DEALS)
    assert kinds[-1] == ("sweep", 0, 0) and rows[-1][1].taps <= 2 and rows[-1][1].keys == 0
    assert not _over(game, rows, kinds)


@pytest.mark.parametrize("language", LANGUAGES)
def test_terziglio_hands(players, phone, axe, shots, language):
    """Ten Terziglio hands, chiamo and solo, each within paper's target. A chiamo took
    6-7: the contract, the card and who held it were three taps; the card called now says
    the contract, and one tap on the call's grid names the card and who held it."""
    name, game, count, rules = next(f for f in taps.GAMES if f[1] == "terziglio")
    match = _match(players, game, count, rules)
    page = phone(players["nino"], language)
    page.goto(f"/m/{match.pk}/deals/new")
    grid = page.locator("fieldset.callgrid")
    words = {
        "it": ("Carta chiamata e chi l'aveva", "tre di coppe: monte"),
        "en": ("Card called and who held it", "3 of cups: monte"),
    }[language]
    expect(grid.locator("legend")).to_have_text(words[0])
    grid.locator('label:has(input[value="3c@monte"])').click()
    expect(grid.locator("input:checked + span + small")).to_have_text(words[1])
    if language == "it":  # the checks of the page and the photographs: once
        axe(page, "quick entry, Terziglio's call")
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        grid.scroll_into_view_if_needed()
        shots(page, "22-terziglio-call-grid")
        page.set_viewport_size({"width": 360, "height": 780})  # the smallest phone named
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        shots(page, "22-terziglio-call-grid-360")
        page.set_viewport_size({"width": 390, "height": 844})
    rows, kinds = _enter_all(page, match, taps.T3_DEALS, rules, players["direttore"])
    _report(f"{name} (chiamo and solo, {language})", game, rows, kinds)
    assert len(rows) == len(taps.T3_DEALS)
    for _name, counted in rows:
        assert counted.taps <= 5 and counted.keys <= 2, (_name, counted)


def test_terziglio_a_pass_out_and_the_rarer_contracts(players, phone):
    """Terziglio's contracts on one row at 360 px (issue 32 item 3): "all passed" is said
    where the winner is (one tap, as it was one on the contracts' row), solissimo is on
    the row, and the aggravated solissimo a tap on "more…" away (one more than before);
    each stored as the engine scores the deal itself."""
    name, game, count, rules = next(f for f in taps.GAMES if f[1] == "terziglio")
    match = _match(players, game, count, rules)
    page = phone(players["nino"], "it")
    page.set_viewport_size({"width": 360, "height": 740})
    passed = {"bids": [{"player": p, "bid": "pass"} for p in ("P1", "P2", "P3")]}
    deals = [
        passed,
        taps._terziglio("P2", "solissimo", 20, "soloist"),
        taps._terziglio("P3", "solissimo_dividete", 20, "soloist"),
    ]
    rows, kinds = _enter_all(page, match, deals, rules, players["direttore"])
    assert [k[0] for k in kinds] == ["ordinary", "ordinary", "other"]
    assert (rows[0][1].taps, rows[0][1].keys) == (2, 0)  # "all passed", save
    assert rows[2][1].taps == rows[1][1].taps + 1 and rows[2][1].keys == rows[1][1].keys
    more = page.locator("#f-auction-bid-more")
    expect(more).to_be_hidden()  # the next deal's form: the rarer contracts out of the way
    page.locator("fieldset.with-more label.unfold").click()
    expect(more.locator("label")).to_have_text(
        ["solissimo aggravato, dividete", "solissimo aggravato, scegliete"]
    )


#: The games whose ordinary deal still costs more than paper's target, and why (issue 32
#: left open): each is xfail(strict), so a game that comes within its target fails here
#: until it leaves this list.
OVER_TARGET: dict[str, str] = {}


def _games():
    for language in LANGUAGES:
        for entry in taps.GAMES:
            if entry[1] in ("tressette4", "terziglio"):
                continue  # by hand above
            reason = OVER_TARGET.get(entry[1])
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            yield pytest.param(*entry, language, marks=marks, id=f"{entry[1]}-{language}")


@pytest.mark.parametrize("name,game,count,rules,language", list(_games()))
def test_every_game_within_paper_s_target(
    players, phone, shots, name, game, count, rules, language
):
    """Ten legal deals of the engine per game (and a clean sweep where the rules know
    one), in Italian and in English: the quick form holds most of them, stores each as
    the engine scores it, and each costs no more than its target from paper's count. The
    empty form is photographed at 390 px (tests/e2e/artifacts/32-form-<game>.png, and
    32-form-<game>-en.png)."""
    match = _match(players, game, count, rules)
    page = phone(players["nino"], language)
    page.goto(f"/m/{match.pk}/deals/new")
    shots(page, f"32-form-{game}" + ("" if language == "it" else f"-{language}"))
    deals = taps.random_deals(game, count, rules)
    sweep = taps.sweep_of(game, count, rules, deals[-1]) if deals else None
    if sweep is not None:
        deals[-1] = sweep
    rows, kinds = _enter_all(page, match, deals, rules, players["direttore"])
    _report(f"{name} ({language})", game, rows, kinds, len(deals))
    assert rows, f"the quick form of {name} held none of its deals"
    assert not _over(game, rows, kinds), _over(game, rows, kinds)
