"""Issue 32 item 3, no scroll: at 390 x 844 and 360 x 740, in Italian and English, each
game's ordinary deal is entered on the quick form without a scroll, the score in view;
after the save, the line saying what was saved and the other side's confirm buttons are
in view; a keyboard (the viewport shortened as one would) does not hide the save button.
From deal 2 on, the deal just saved and the other side's buttons stand on top of the form:
deal 2's form fits under them, and deal 3's once they are tapped.

Screenshots: tests/e2e/artifacts/32-form-<game>-<language>-<width>.png and
32-saved-<game>-<language>-<width>.png (the viewport as the person sees it)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from deploy.checks import table_taps as taps  # noqa: E402 - the repository root first

ARTIFACTS = Path(__file__).parent / "artifacts"
pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: Every game of the engine, with house rules whose target no ten deals reach.
GAMES: list[tuple[str, int, dict | None]] = [
    ("tressette4", 4, {"profile": "accuso_41", "t4.target": 101}),
    ("tressette2", 2, {"t2.target": 1000}),
    ("tressette3", 3, None),
    ("tressette4i", 4, None),
    ("terziglio", 3, {"profile": "chips_1_2_4_8_16", "terz.deals": 20}),
    ("calabrasella", 3, None),
    ("chiamata", 4, {"cdt.target": 1000}),
    ("rovescino", 4, {"rov.target": 1000}),
    ("traversone_pairs", 4, None),
    ("trappola", 2, {"trap.target": 1000}),
    ("spinado", 4, None),
]
SIZES = [(390, 844), (360, 740)]

#: The games whose quick form still holds more than one screen for an ordinary deal, at
#: these sizes (by width, or width and language). None since Terziglio's contracts went
#: on one row (its aggravated solissimo a tap away, "all passed" where the winner is) and
#: the call grid lost its row of column titles (each cell says whose it is). Strict: a
#: game that comes to fit fails here until it is taken off the list.
TOO_TALL: dict[str, set[int | tuple[int, str]]] = {}
#: On the edge (the last field a few pixels over the save bar or not, run to run):
#: expected to fail, not required to.
ON_THE_EDGE: set[tuple[str, int]] = set()

#: Where each of the quick form's steps (deploy/checks/table_taps.py, ``Step``) is tapped.
WHERE = {
    "type": '[name="{name}"]',
    "tens": '[name="{name}"], [data-tens-for="{name}"]',
    "check": '[name="{name}"]',
    "select": '[name="{name}"]',
    "chip": 'label:has(input[name="{name}"][value="{value}"])',
    "accuso": 'details.accuso:has([name="{name}"]) > summary',
    "open": 'details.section:has([name="{name}"]) > summary',
    "more": 'fieldset.with-more:has([name="{name}"]) label.unfold',
}

#: Of ``[[selector, what], ...]``, the elements a person sees (not inside a closed fold)
#: that stick out of the viewport or out of a row that slides sideways, or lie under
#: something else (the save bar), as "what: box".
OUTSIDE = """(pairs) => {
  const out = [];
  for (const [selector, what] of pairs) for (const el of document.querySelectorAll(selector)) {
    if (!el.checkVisibility()) continue;
    const r = el.getBoundingClientRect();
    const row = el.closest(".chip-row");
    const box = row ? row.getBoundingClientRect() : {left: 0, right: window.innerWidth};
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    const covered = !hit || !(el.contains(hit) || hit.contains(el) || el.control === hit);
    if (r.top < 0 || r.bottom > window.innerHeight || r.left < Math.max(0, box.left) - 1
        || r.right > Math.min(window.innerWidth, box.right) + 1 || covered)
      out.push(`${what || el.textContent.trim().slice(0, 30)}: ${Math.round(r.left)},`
               + `${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`);
  }
  return out;
}"""
SAVE = "#deal-form button[type=submit]"
#: The typed fields whose value is wider than the field shows (Trappola's "24" was cut
#: when the points' field narrowed to two digits at 360 px).
CUT = """() => [...document.querySelectorAll('#deal-form input[type=text]')]
  .filter(el => el.checkVisibility() && el.value && el.scrollWidth > el.clientWidth)
  .map(el => `${el.name}: "${el.value}" cut`)"""


def _match(players, game, count, rules):
    from scorebook.clubs import services as clubs
    from scorebook.clubs.models import Player
    from scorebook.matches import services
    from scorebook.rules import get_game

    director = players["direttore"]
    club_id = director.memberships.get().club_id
    night = services.night_open(club_id=club_id, date="2026-11-27", venue="", user=director)
    people = list(Player.objects.filter(club_id=club_id).order_by("name"))
    while len(people) < count:
        people.append(clubs.player_create(club=night.club, name=f"Ospite {len(people)}",
                                          user=director))  # fmt: skip
    engine = get_game(game)
    seats = engine.seats(engine.rules(rules), count)
    by_seat = dict(zip(seats, (p.pk for p in people), strict=False))
    return services.match_create(night=night, game=game, rules=rules, seats=by_seat,
                                 user=director)  # fmt: skip


def _ordinary(match, game, count, rules):
    """The first deal of the match as a table most often plays it: of the engine's random
    first deals that are ordinary (no clean sweep, no declaration, nothing folded: its
    points typed and its last trick tapped), the one the quick form takes in the fewest
    steps. A sweep would leave the points and the last trick out: a cappotto fitted on
    the screen where an ordinary deal's last trick did not (Calabrasella at 360)."""
    from scorebook.rules import start_match
    from scorebook.web import preview

    engine, _, state = start_match(game, rules, count)
    table = preview.table(match)
    best = None
    for seed in range(12):
        deal = taps.in_turn(taps.random_deals(game, count, rules, n=1, seed=seed)[0],
                            engine.dealt_in(state))  # fmt: skip
        steps = taps.plan(table, deal)
        if steps is None or taps.kind(deal, steps)[0] != "ordinary":
            continue
        if best is None or len(steps) < len(best):
            best = steps
    assert best is not None, f"the quick form of {game} holds none of its ordinary first deals"
    return best


def _outside(page, selector, what=""):
    return page.evaluate(OUTSIDE, [[selector, what]])


class _Table:
    """The phone as taps.enter drives it, but the save is tapped where it is: Playwright's
    click first scrolls a sticky button to its place in the page, a finger does not. What
    is out of view is noted first (``at_save``); a covered button is noted there too."""

    def __init__(self, page, at_save):
        self._page, self._at_save = page, at_save

    def __getattr__(self, name):
        return getattr(self._page, name)

    def locator(self, selector, **kwargs):
        found = self._page.locator(selector, **kwargs)
        if selector != SAVE:
            return found
        table = self

        class Save:
            def click(self):
                table._at_save()
                found.dispatch_event("click")

        return Save()


def _pairs(steps):
    """The score, the save button and where each of the deal's steps is tapped."""
    pairs = [[".scoreline", "the score"], [SAVE, "the save button"]]
    for step in steps:
        pairs.append([WHERE[step.how].format(name=step.name, value=step.value), step.name])
    return pairs


@pytest.mark.parametrize("language", ["it", "en"])
@pytest.mark.parametrize(("width", "height"), SIZES, ids=["390", "360"])
@pytest.mark.parametrize(("game", "count", "rules"), GAMES, ids=[g[0] for g in GAMES])
def test_an_ordinary_deal_needs_no_scroll(request, players, phone, game, count, rules,
                                          width, height, language):  # fmt: skip
    if {width, (width, language)} & TOO_TALL.get(game, set()):
        request.applymarker(pytest.mark.xfail(reason="the form is taller than the phone",
                                              strict=True))  # fmt: skip
    elif (game, width) in ON_THE_EDGE:
        request.applymarker(pytest.mark.xfail(reason="on the edge of the screen"))
    match = _match(players, game, count, rules)
    steps = _ordinary(match, game, count, rules)
    page = phone(players["nino"], language)
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"/m/{match.pk}/deals/new")
    name = f"{game}-{language}-{width}"
    page.screenshot(path=f"tests/e2e/artifacts/32-form-{name}.png", full_page=True)
    out = page.evaluate(OUTSIDE, _pairs(steps))

    def at_save():
        out.extend(page.evaluate(OUTSIDE, _pairs(steps)))
        out.extend(page.evaluate(CUT))

    taps.enter(_Table(page, at_save), steps)
    page.screenshot(path=f"tests/e2e/artifacts/32-saved-{name}.png", full_page=True)
    saved = _outside(page, "p.saved", "the saved line")
    saved += _outside(page, "section.confirm-here button", "")
    assert not out, f"{name}: out of view on the form: {out}"
    assert not saved, f"{name}: out of view after the save: {saved}"


@pytest.mark.parametrize(("width", "height", "keyboard"), [(390, 844, 330), (360, 740, 300)])
def test_the_keyboard_does_not_hide_the_save_button(players, phone, shots, width, height,
                                                    keyboard):  # fmt: skip
    """The phone's keyboard, as a page sees it (Chrome with interactive-widget=
    resizes-content; iOS through visualViewport): the viewport shortened by its height
    while a points field is typed in. The save button stays on screen above it, over the
    form; before, it sat at the foot of the form, under the keyboard."""
    game, count, rules = GAMES[0]
    match = _match(players, game, count, rules)
    page = phone(players["nino"], "it")
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"/m/{match.pk}/deals/new")
    field = page.locator('[name="sides.A.thirds"]')
    assert page.evaluate("() => document.activeElement.name") == "sides.A.thirds"
    page.set_viewport_size({"width": width, "height": height - keyboard})
    page.keyboard.type("6")
    field.evaluate("el => el.scrollIntoView({block: 'nearest'})")
    shots(page, f"32-keyboard-{width}")
    out = page.evaluate(
        OUTSIDE, [[SAVE, "the save button"], ['[name="sides.A.thirds"]', "the field"]]
    )
    assert not out, f"under the keyboard at {width} x {height}: {out}"


@pytest.mark.parametrize("game", ["tressette2", "traversone_pairs", "tressette4"])
def test_the_save_button_holds_its_place_from_the_first_tap_to_the_save(players, phone,
                                                                       game):  # fmt: skip
    """The save button is where the finger finds it at the start, and still there when the
    live check's verdict has come in. In the flow it moved down as the form grew and the
    verdict came (Tressette in due at 390 x 844: from 269 to 533 px, where the verdict
    then stood), under a finger on its way to it."""
    _, count, rules = next(g for g in GAMES if g[0] == game)
    match = _match(players, game, count, rules)
    steps = _ordinary(match, game, count, rules)
    page = phone(players["nino"], "it")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/m/{match.pk}/deals/new")
    box = f"() => document.querySelector('{SAVE}').getBoundingClientRect().toJSON()"
    first = page.evaluate(box)
    seen = []
    taps.enter(_Table(page, lambda: seen.append(page.evaluate(box))), steps)
    assert first["bottom"] > 844 - 80, f"{game}: the save button starts at {first}"
    assert seen and seen[0] == first, f"{game}: it moved from {first} to {seen}"


def _ordinary_next(match, game):
    """As ``_ordinary``, for the match's next deal (from its stored state): the deal 2 of a
    table that has saved its first."""
    from scorebook.matches.models import Match
    from scorebook.web import preview

    match = Match.objects.get(pk=match.pk)
    engine, resolved, state = preview.state_before(match)
    table = preview.table(match, state)
    best = None
    for seed in range(12):
        deal = engine.random_deal(random.Random(seed), resolved, state, "totals")
        deal = taps.in_turn(deal, engine.dealt_in(state))
        steps = taps.plan(table, deal)
        if steps is None or taps.kind(deal, steps)[0] != "ordinary":
            continue
        if best is None or len(steps) < len(best):
            best = steps
    assert best is not None, f"the quick form of {game} holds none of its ordinary deals"
    return best


#: The lowest of the elements a person taps, in px from the top of the page.
LOWEST = """(selectors) => Math.round(Math.max(...selectors.flatMap(s =>
  [...document.querySelectorAll(s)].filter(el => el.checkVisibility())
    .map(el => el.getBoundingClientRect().bottom + window.scrollY))))"""


#: Where the form starts (under what stands on top of it) and where the save button is.
ROOM = """() => `form at ${Math.round(document.querySelector('.entry-head')
  .getBoundingClientRect().top)} px, save at ${Math.round(document.querySelector(
  '#deal-form button[type=submit]').getBoundingClientRect().top)} px`"""


#: The games whose deal 2 does not fit with the other side's buttons on top, by width:
#: Terziglio at 360 px, its deal 1 already within 10 px of the save button (the call grid,
#: the contract and the auction's rows), the saved line and the buttons about 120 px more.
#: Strict: a game that comes to fit fails here until it is taken off the list.
UNDER_THE_BUTTONS_TOO_TALL: dict[str, set[int]] = {"terziglio": {360}}


@pytest.mark.parametrize("language", ["it", "en"])
@pytest.mark.parametrize(("width", "height"), SIZES, ids=["390", "360"])
@pytest.mark.parametrize(("game", "count", "rules"), GAMES, ids=[g[0] for g in GAMES])
def test_deal_two_under_the_confirm_block_needs_no_scroll(request, players, phone, axe, game,
                                                          count, rules, width, height,
                                                          language):  # fmt: skip
    """From deal 2 on, the deal just saved and the other side's "Confermiamo" stand on top
    of the next deal's form: the saved line, the confirm buttons, the score, every field of
    an ordinary deal 2 and the save button are all in view at once, no scroll; once the
    other side has confirmed (the page says so on top), deal 3's form too.

    Screenshots: tests/e2e/artifacts/32-deal2-<game>-<language>-<width>.png (with the
    confirm block) and 32-deal3-... (after the confirmation)."""
    if width in UNDER_THE_BUTTONS_TOO_TALL.get(game, set()):
        request.applymarker(pytest.mark.xfail(reason="deal 2 is taller than the phone",
                                              strict=True))  # fmt: skip
    match = _match(players, game, count, rules)
    page = phone(players["nino"], language)
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"/m/{match.pk}/deals/new")
    taps.enter(page, _ordinary(match, game, count, rules))
    name = f"{game}-{language}-{width}"
    assert page.locator("section.confirm-here button").count(), f"{name}: no confirm block"
    steps = _ordinary_next(match, game)
    pairs = [*_pairs(steps), ["p.saved", "the saved line"],
             ["section.confirm-here button", "Confermiamo"]]  # fmt: skip
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=f"tests/e2e/artifacts/32-deal2-{name}.png")
    lowest = page.evaluate(LOWEST, [p[0] for p in pairs if p[0] != SAVE])
    room = page.evaluate(ROOM)
    out = page.evaluate(OUTSIDE, pairs)
    axe(page, f"deal 2 of {name}")

    def at_save():
        out.extend(page.evaluate(OUTSIDE, _pairs(steps)))
        out.extend(page.evaluate(CUT))

    with (ARTIFACTS / "32-deal2-room.txt").open("a") as figures:  # the figures, run by run
        figures.write(f"{name}: lowest at {lowest} px, {room}\n")
    taps.enter(_Table(page, at_save), steps)
    assert not out, f"{name}: lowest at {lowest} px ({room}); out of view on deal 2: {out}"
    # The other side confirms deal 2 with one tap; deal 3's form, the confirmation said.
    button = page.locator("section.confirm-here button").first
    with page.expect_navigation():
        button.dispatch_event("click")
    steps = _ordinary_next(match, game)
    page.screenshot(path=f"tests/e2e/artifacts/32-deal3-{name}.png")
    out = page.evaluate(OUTSIDE, _pairs(steps))
    lowest = page.evaluate(LOWEST, [p[0] for p in _pairs(steps) if p[0] != SAVE])
    assert not out, f"{name}: lowest at {lowest} px; out of view on deal 3, confirmed: {out}"
