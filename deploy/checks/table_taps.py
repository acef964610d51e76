"""`make table-taps`: how many taps and keystrokes a deal costs at the table, per game,
beside what a paper score sheet costs (docs/table.md, "Paper's count").

A person at a café table, a deck in one hand, enters deals on a phone (390 x 844), in
Italian and in English, through the real pages: the quick form of the next deal, which is
where a save leads. For every game the engine offers, 10 deals are entered one after the
other, each counted from the previous deal saved: a tap is a click (a chip, a field not
already focused, a section or "+ accuso" opened, a select opened and an option chosen
counts 2, the save), a keystroke is one character typed. It prints each deal's count,
then per game the median and the worst beside paper's count and the target it gives
(issue 32): an ordinary deal in at most paper's numbers less those the engine derives as
keystroke fields (two keystrokes each, a tap to reach each after the first) plus 3 taps,
never more than 5 taps + 3 keystrokes; a clean sweep (cappotto) in 2 taps; 2 taps more
per declaration.

The deals: Tressette in pairs and Terziglio by hand (ordinary deals, declarations, a
cappotto), the other games from the engine's own random legal deals
(``Game.random_deal``) and, where the rules know a clean sweep, one of those; entered the
way the quick form asks for them (``plan``). The stored deals must score as the engine
scores the deals themselves. The same code runs in CI as tests/e2e/test_table_taps.py,
which fails when a game's deal exceeds its target.

Runs pytest on that test with its report printed: a throw-away test database, Django's
live server and Debian's /usr/bin/chromium (see tests/e2e/conftest.py).
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

#: (name as the README says it, game, players, rules): one match of each, 10 deals
#: (targets out of reach, so that the match lasts them).
GAMES: list[tuple[str, str, int, dict[str, Any] | None]] = [
    ("Tressette in pairs", "tressette4", 4, {"profile": "accuso_41", "t4.target": 101}),
    ("Tressette for two", "tressette2", 2, {"t2.target": 1000}),
    ("Tressette for three", "tressette3", 3, {"t3.target": 1000}),
    ("Tressette four all against all", "tressette4i", 4, {"t4i.target": 1000}),
    ("Terziglio", "terziglio", 3, {"profile": "chips_1_2_4_8_16", "terz.deals": 20}),
    ("Calabrasella", "calabrasella", 3, None),
    ("Chiamata del Tre", "chiamata", 4, {"cdt.target": 1000}),
    ("Rovescino", "rovescino", 4, {"rov.target": 1000}),
    ("Traversone", "traversone_pairs", 4, {"rov.target": 1000}),
    ("Trappola", "trappola", 2, {"trap.target": 1000}),
    ("Spinado", "spinado", 4, None),
]
FAMILIES = GAMES  # the name issue 22's test used

DOC = ROOT / "docs" / "table.md"


@dataclass(frozen=True)
class Paper:
    """A game's row of docs/table.md's "Paper's count": the numbers a paper scorer writes
    for an ordinary deal and how many of them the engine derives; the target they give."""

    numbers: int
    derived: int

    @property
    def fields(self) -> int:
        return max(0, self.numbers - self.derived)

    @property
    def taps(self) -> int:
        return min(5, 3 + max(0, self.fields - 1))

    @property
    def keys(self) -> int:
        return min(3, 2 * self.fields)

    def target(self, kind: str, declarations: int = 0, setup: int = 0) -> tuple[int, int]:
        """(taps, keystrokes) at most for a deal of ``kind`` (ordinary, sweep, declared);
        a sweep in 2 taps beside the ``setup`` taps of the call or auction."""
        if kind == "sweep":
            return 2 + setup + 2 * declarations, 0
        return self.taps + 2 * declarations, self.keys

    def __str__(self) -> str:
        return (
            f"paper {self.numbers} numbers, {self.derived} derived: "
            f"target {self.taps} taps + {self.keys} keystrokes"
        )


def paper(path: Path = DOC) -> dict[str, Paper]:
    """Paper's count per game (by the engine's name, the table's second column)."""
    text = path.read_text()
    section = text[text.index("## Paper's count") :]
    out: dict[str, Paper] = {}
    for line in section.splitlines()[1:]:
        if line.startswith("## "):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 6 and cells[1].startswith("`") and cells[4].isdigit():
            out[cells[1].strip("`")] = Paper(int(cells[4]), int(cells[5]))
    return out


def _pairs(a: int, last: str, **more: Any) -> dict[str, Any]:
    return {"sides": {"A": {"thirds": a}, "B": {"thirds": 32 - a}}, "last_trick": last, **more}


def _napoletana(seat: str, suit: str) -> list[dict[str, str]]:
    return [{"player": seat, "type": "napoletana", "suit": suit}]


#: Ten deals of Tressette in pairs as a table plays them: most ordinary, two with a
#: napoletana, one with a three of a kind, one cappotto (the rules' "all the tricks").
T4_DEALS: list[dict[str, Any]] = [
    _pairs(20, "A"),  # "6 e 2" against "4 e 0"
    _pairs(14, "B"),
    _pairs(17, "A", declarations=_napoletana("N", "c")),
    _pairs(9, "B"),
    _pairs(21, "B"),
    _pairs(12, "A", declarations=_napoletana("E", "d")),
    _pairs(18, "A"),
    _pairs(16, "B", declarations=[{"player": "S", "type": "three", "rank": "3", "missing": "b"}]),
    _pairs(11, "A"),
    _pairs(32, "A", all_tricks="A"),
]


def _terziglio(winner: str, bid: str, thirds: int, last: str, **more: Any) -> dict[str, Any]:
    """A hand won at auction by ``winner``; the bids are put in speaking order by
    ``in_turn`` once the dealer is known."""
    bids = [{"player": p, "bid": bid if p == winner else "pass"} for p in ("P1", "P2", "P3")]
    sides = {"soloist": {"thirds": thirds}, "coalition": {"thirds": 32 - thirds}}
    return {"bids": bids, "sides": sides, "last_trick": last, **more}


#: Ten Terziglio hands (three players): the soloist calls a 3 (chiamo) or plays solo.
T3_DEALS: list[dict[str, Any]] = [
    _terziglio("P1", "chiamo", 22, "soloist", called="3c", called_from="P2"),
    _terziglio("P2", "solo", 20, "soloist"),
    _terziglio("P3", "chiamo", 14, "coalition", called="3d", called_from="P1"),
    _terziglio("P1", "solo", 12, "coalition"),
    _terziglio("P2", "chiamo", 24, "soloist", called="3s", called_from="P3"),
    _terziglio("P3", "solo", 21, "soloist"),
    _terziglio("P1", "chiamo", 19, "soloist", called="3b", called_from="monte"),
    _terziglio("P2", "solo", 18, "coalition"),
    _terziglio("P3", "chiamo", 23, "soloist", called="2c", called_from="P2"),
    _terziglio("P1", "solo", 27, "soloist"),
]


def in_turn(deal: dict[str, Any], speakers: tuple[str, ...]) -> dict[str, Any]:
    """``deal`` with its bids in the order the players speak this deal."""
    if "bids" not in deal:
        return deal
    said = {b["player"]: b["bid"] for b in deal["bids"]}
    return {**deal, "bids": [{"player": p, "bid": said[p]} for p in speakers if p in said]}


@dataclass
class Step:
    """One thing the person does: type into a field, tap a chip, open a fold, tick a box,
    choose in a select."""

    #: type | tens (a number: its tens a chip, the unit typed) | chip | open | check |
    #: select | accuso | more (the chip that shows a row's rarer chips)
    how: str
    name: str
    value: str = ""
    setup: bool = False  # a choice outside the piles every deal asks (the call, the auction)


@dataclass
class Count:
    taps: int = 0
    keys: int = 0
    notes: list[str] = field(default_factory=list)


def _chips_for(form: Any, deal: Mapping[str, Any]) -> list[tuple[str, str]] | None:
    """Each declaration (or trick won with a 2) of ``deal`` as (chipset input, chip), or
    None when a chip cannot say one of them (the detailed form's)."""
    from scorebook.web import deal_forms as forms

    sets = [inp for inp in form.inputs() if inp.kind == "chipset"]
    out: list[tuple[str, str]] = []
    for target in ("declarations", "twos"):
        for entry in deal.get(target) or ():
            chip = forms.chip_of(target, entry)
            seat = str(entry.get("player"))
            inp = next(
                (i for i in sets if i.name.endswith(f".{seat}") and chip in dict(i.choices)),
                None,
            )
            if chip is None or inp is None:
                return None
            out.append((inp.name, chip))
    return out


def _swept(shape: Any, flat: dict[str, Any]) -> set[str]:
    """The keys a clean sweep writes itself (``TableShape.sweep``), when ``flat`` has them
    as the sweep would: the piles' points and the last trick."""
    taker = flat.get("all_tricks")
    if not shape.sweep or not isinstance(taker, str) or shape.whole is None:
        return set()
    taker = taker if taker in shape.scorers else shape.side_of(taker)
    group = shape.scored_by
    keys = {
        f"{group}.{s}.{shape.unit}"
        for s in shape.scorers
        if flat.get(f"{group}.{s}.{shape.unit}") == (shape.whole if s == taker else 0)
    }
    return keys | ({"last_trick"} if flat.get("last_trick") == taker else set())


def _unasked(shape: Any, flat: dict[str, Any], names: set[str]) -> set[str]:
    """The keys the quick form leaves out because the description says no score reads
    them: the cards left nobody pays for, the kings when kings are not paid, the redraws."""
    left, kings = shape.part("cards_left"), shape.part("kings_played")
    auction, redraws = shape.part("auction"), shape.part("redraws")
    out = set()
    if redraws is not None and redraws.get("scores") is False:
        out |= {k for k in flat if k.startswith("redraws.")}  # folded away: a sheet writes none
    if auction is not None and auction.get("discards_score") is False and "discards" in flat:
        out.add("discards")  # folded away: no score reads how many
    for key, value in flat.items():
        if kings is not None and not kings.get("scores", True) and key.startswith("kings_"):
            out.add(key)  # folded away: no payment reads them
        if key in names:
            continue
        if left is not None and key.startswith("cards_left."):
            seat = key.split(".", 1)[1]
            needed = left.get("needed", "all")
            if seat == flat.get(str(left.get("zero", ""))) and value == 0:
                out.add(key)  # who went out holds none: the form writes it
            elif needed == "none" or (needed == "held" and seat != flat.get("spinado_held_by")):
                out.add(key)
    return out


def plan(table: Any, deal: Mapping[str, Any]) -> list[Step] | None:
    """What the quick form of ``table`` takes to enter ``deal`` (an engine totals deal),
    in the page's order; None when the quick form cannot hold it."""
    from scorebook.web import deal_forms as forms

    form = forms.build(table, "quick")
    shape = table.shape
    body = {k: v for k, v in deal.items() if k not in ("dealer", "level")}
    bids = body.pop("bids", None)
    chips = _chips_for(form, body)
    if chips is None:
        return None
    body.pop("declarations", None)
    body.pop("twos", None)
    flat = forms.flatten(body)
    used: set[str] = set()
    if shape.trick_counts == "optional":  # nobody counts them at the table
        used |= {k for k in flat if k.endswith(".tricks")}
    if shape.trick_counts == "all_or_none":
        counts = {k: v for k, v in flat.items() if k.endswith(".tricks")}
        used |= set(counts)
        everyone = [k.split(".")[1] for k, v in counts.items() if v == shape.tricks]
        if everyone and "all_tricks" not in flat:
            flat["all_tricks"] = everyone[0]
    used |= _swept(shape, flat)
    used |= _unasked(shape, flat, {inp.name for inp in form.inputs()})
    said = [b for b in bids or () if isinstance(b, dict) and b.get("bid") != "pass"]
    auction = shape.part("auction")
    winner = next((i for i in form.inputs() if i.name == "auction.winner"), None)
    if bids is not None and auction is not None:
        if said:
            flat["auction.winner"] = said[-1]["player"]
            if auction.get("contracts"):
                flat["auction.bid"] = said[-1]["bid"]
        elif winner is not None and "pass" in dict(winner.choices):
            flat["auction.winner"] = "pass"  # "all passed" where the winner is
        else:
            flat["auction.bid"] = "pass"
    called_by = auction.get("call_contract") if auction is not None else None
    names = {inp.name for inp in form.inputs()}
    steps: list[Step] = []
    for section in form.sections:
        opened = section.open
        for inp in section.inputs:
            wanted: list[Step] = []
            if inp.kind == "shown":
                used.add(inp.name)
            elif inp.name in used:
                continue
            elif inp.kind == "points":
                thirds = flat.get(inp.name)
                used.add(inp.name)
                if thirds is not None:
                    wanted.append(Step("type", inp.name, str(thirds // 3)))
                    if thirds % 3 and f"{inp.name}~figures" in names:
                        wanted.append(Step("chip", f"{inp.name}~figures", str(thirds % 3)))
            elif inp.name.endswith(forms.LOST):  # the points the figures lost in all
                found = [flat.get(f"{inp.feeds}.{s}.{shape.unit}") for s in shape.scorers]
                piles = [t for t in found if isinstance(t, int)]
                if shape.whole is not None and len(piles) == len(found):
                    lost = (sum(t % 3 for t in piles) - shape.whole % 3) // 3
                    if str(lost) != str(inp.value):
                        wanted.append(Step("chip", inp.name, str(lost)))
            elif inp.kind == "pick":
                for value, _text in inp.choices:
                    path, _sep, picked = str(value).partition(forms.PICK)
                    if path in flat and flat[path] == (True if picked == "on" else picked):
                        used.add(path)
                        wanted.append(Step("chip", inp.name, str(value)))
            elif inp.feeds == "cards_left":  # the Spinado holder's count
                key = f"cards_left.{flat.get('spinado_held_by')}"
                if key in flat:
                    used.add(key)
                    wanted.append(Step("type", inp.name, str(flat[key])))
            elif inp.feeds:
                continue
            elif inp.kind == "call":
                if "called" in flat:
                    where = flat.get("called_from", "")
                    if where == forms.OWN_HAND:  # the soloist's own column
                        where = flat.get("auction.winner", "")
                    value = f"{flat['called']}{forms.CALL_SEP}{where}"
                    cells = {c["value"] for row in inp.matrix() for c in row["cells"]}
                    if value not in cells:
                        return None  # a call the grid has no cell for: the detailed form's
                    used |= {"called", "called_from"}
                    ranks = [group["rank"] for group in inp.ranked()]
                    if len(ranks) > 1 and flat["called"][:-1] != ranks[0]:  # the grid's switch
                        rank = flat["called"][:-1]
                        wanted.append(Step("chip", f"{inp.name}{forms.RANK_SWITCH}", rank))
                    wanted.append(Step("chip", inp.name, value))
            elif inp.name == "auction.bid" and flat.get(inp.name) == called_by and called_by:
                if "called" in flat:  # the card called says the contract: no tap
                    used.add(inp.name)
            elif inp.kind == "chipset":
                mine = [chip for name, chip in chips if name == inp.name]
                if mine:
                    wanted.append(Step("accuso", inp.name))
                    wanted += [Step("chip", inp.name, c) for c in mine]
            elif inp.name in flat:
                value = flat[inp.name]
                used.add(inp.name)
                if inp.kind in ("chips", "choice"):
                    value = value[0] if inp.many and isinstance(value, list) else value
                    if str(value) not in {str(c[0]) for c in inp.choices}:
                        return None  # a choice the quick form leaves to the detailed one
                if inp.kind == "chips":
                    if str(value) in inp.more:  # on the row the chip "more…" shows
                        wanted.append(Step("more", inp.name))
                    if str(value) != str(inp.value or ""):
                        wanted.append(Step("chip", inp.name, str(value)))
                elif inp.kind == "check":
                    if value:
                        wanted.append(Step("check", inp.name))
                elif inp.kind == "choice":
                    wanted.append(Step("select", inp.name, str(value)))
                elif inp.kind == "cards":
                    return None
                elif inp.tens and isinstance(value, int) and value // 10 * 10 in inp.tens:
                    wanted.append(Step("tens", inp.name, str(value)))
                else:
                    wanted.append(Step("type", inp.name, str(value)))
            if wanted and not opened:
                steps.append(Step("open", inp.name))
                opened = True
            for step in wanted:
                outside = shape.scored_by not in section.claims and inp.kind != "chipset"
                step.setup = outside and step.how not in ("accuso", "type")
            steps += wanted
    if any(k not in used for k in flat):
        return None  # something the quick form does not ask: the detailed form's
    return steps


def kind(deal: Mapping[str, Any], steps: list[Step]) -> tuple[str, int, int]:
    """What sort of deal it is for its target: a clean sweep, one with declarations (and
    tricks won with a 2: Trappola's bonuses), one that needs a folded section or a row's
    "more…" (not an ordinary deal), or ordinary; with its declarations and its setup taps
    (the call or the auction a game asks every deal, which a sweep asks too)."""
    declared = len(deal.get("declarations") or ()) + len(deal.get("twos") or ())
    setup = sum(1 for s in steps if s.setup)
    piles = (deal.get("sides") or {}).values()
    if deal.get("all_tricks") is not None or any(
        isinstance(p, dict) and p.get("tricks") == 0 for p in piles
    ):
        return "sweep", declared, setup
    if declared:
        return "declared", declared, setup
    if any(s.how in ("open", "more") for s in steps):
        return "other", 0, setup
    return "ordinary", 0, setup


def as_paper(engine: Any, rules: Any, state: Any, deal: dict[str, Any]) -> dict[str, Any]:
    """``deal`` as a paper scorer has it: whole points, the figures left over dropped
    (the last pile the rest), where that scores the same; else ``deal`` itself."""
    shape = engine.table_shape(rules.values, state.seats)
    group, piles = shape.scored_by, deal.get(shape.scored_by)
    if shape.unit != "thirds" or shape.whole is None or not isinstance(piles, dict):
        return deal
    if not all(isinstance(p, dict) and "thirds" in p for p in piles.values()):
        return deal
    typed = [s for s in shape.scorers[:-1] if s in piles]
    plain = {s: {**piles[s], "thirds": 3 * (piles[s]["thirds"] // 3)} for s in typed}
    last = shape.scorers[-1]
    if last not in piles or plain == {s: piles[s] for s in typed}:
        return deal
    rest = shape.whole - sum(p["thirds"] for p in plain.values())
    candidate = {**deal, group: {**piles, **plain, last: {**piles[last], "thirds": rest}}}
    try:
        same = engine.score_deal(candidate, rules, state).as_dict()
        true = engine.score_deal(deal, rules, state).as_dict()
    except Exception:  # the engine refuses it (points that no longer fit the tricks)
        return deal
    keep = ("points", "units")
    return candidate if all(same.get(k) == true.get(k) for k in keep) else deal


def sweep_of(game: str, players: int, rules: Any, deal: Mapping[str, Any]) -> dict[str, Any] | None:
    """``deal`` as a clean sweep by its first scorer, where the rules know one
    (``TableShape.sweep``): every trick, every card and the last trick."""
    from scorebook.rules import start_match

    engine, resolved, state = start_match(game, rules, players)
    shape = engine.table_shape(resolved.values, state.seats)
    group = shape.scored_by
    if not shape.sweep or not isinstance(deal.get(group), dict) or shape.whole is None:
        return None
    taker = shape.scorers[0]
    piles = {
        s: {
            shape.unit: shape.whole if s == taker else 0,
            "tricks": shape.tricks if s == taker else 0,
        }
        for s in shape.scorers
    }
    return {**deal, group: piles, "last_trick": taker}


def enter(page: Any, steps: list[Step]) -> Count:
    """Do ``steps`` on the quick form in ``page`` and save; count taps and keystrokes."""
    count = Count()
    # The page's queue has restored its draft and made its save key (queue.js): a person
    # reads the form first; a test typing sooner raced it under load.
    page.wait_for_function("() => document.documentElement.dataset.queueReady === '1'")
    answers: list[str] = []

    def answered(response: Any) -> None:
        if response.request.method == "POST" and "/deals/new" in response.url:
            where = response.headers.get("location", "")
            answers.append(f"{response.status} {response.url} -> {where}")

    def failed(request: Any) -> None:  # a send given up (queue.js: 20 s) or cut
        if request.method == "POST" and "/deals/new" in request.url:
            answers.append(f"failed {request.url}: {request.failure}")

    def sent(request: Any) -> None:
        if request.method == "POST" and "/deals/new" in request.url:
            answers.append(f"sent at {time.monotonic() - began:.1f} s")

    began = time.monotonic()
    # The live check's answers swapped in so far (counted from here on).
    checks = page.evaluate(
        """() => {
            if (!window.__sbCounting) {
                window.__sbCounting = true;
                document.body.addEventListener("htmx:afterSettle", (e) => {
                    const mine = e.target.id === "deal-feedback";
                    if (mine) window.__sbChecks = (window.__sbChecks || 0) + 1;
                });
            }
            return window.__sbChecks || 0;
        }"""
    )
    page.on("response", answered)
    page.on("requestfailed", failed)
    page.on("request", sent)
    # The person types first where the cursor already is (the form's first field).
    focused = page.evaluate("() => document.activeElement && document.activeElement.name")
    steps = sorted(steps, key=lambda s: not (s.how in ("type", "tens") and s.name == focused))

    def field(name: str) -> Any:
        return page.locator(f'[name="{name}"]')

    for step in steps:
        if step.how == "tens":  # a number with its tens as chips: typed whole where the
            # cursor is, else its tens tapped (the cursor follows) and the unit typed
            focused = page.evaluate("() => document.activeElement && document.activeElement.name")
            if focused != step.name:
                tens = int(step.value) // 10 * 10
                page.locator(f'[data-tens-for="{step.name}"][data-tens="{tens}"]').click()
                count.taps += 1
                step = Step("type", step.name, step.value[-1])
            page.keyboard.type(step.value)
            count.keys += len(step.value)
        elif step.how == "type":
            focused = page.evaluate("() => document.activeElement && document.activeElement.name")
            if focused != step.name:
                field(step.name).click()
                count.taps += 1
            page.keyboard.type(step.value)
            count.keys += len(step.value)
        elif step.how == "chip":
            chip = f'label:has(input[name="{step.name}"][value="{step.value}"])'
            page.locator(chip).click()
            count.taps += 1
        elif step.how == "accuso":
            page.locator("details.accuso", has=field(step.name)).locator("summary").click()
            count.taps += 1
        elif step.how == "more":
            page.locator(f"fieldset.with-more:has([name='{step.name}']) label.unfold").click()
            count.taps += 1
        elif step.how == "open":
            section = page.locator("details.section", has=field(step.name).first)
            section.locator("summary").first.click()
            count.taps += 1
        elif step.how == "check":
            field(step.name).click()
            count.taps += 1
        elif step.how == "select":
            field(step.name).select_option(step.value)
            count.taps += 2
    # A person taps "save" once the live check under the form has answered (it swaps the
    # verdict in, 600 ms after the last keystroke). While the save button sat in the flow
    # the taller verdict moved it, and a tap racing the swap landed beside it (1 loop in
    # ~24); the button is fixed at the bottom now, and the wait stays so that what the
    # no-scroll tests measure at the save is the form with its verdict, as a person sees it.
    try:
        page.wait_for_function(
            """(seen) => (window.__sbChecks || 0) > seen
                && !document.querySelector("#deal-form.htmx-request")""",
            arg=checks,
            timeout=10_000,
        )
    except Exception:  # no check asked (nothing changed on the form): tap at once
        pass
    before = page.url
    page.locator("#deal-form button[type=submit]").click()
    count.taps += 1
    # Saved: the next deal's form, this one in a line on top (a new address each time).
    try:
        page.wait_for_url(lambda url: url != before and "saved=" in url, timeout=30_000)
    except Exception as stuck:  # the page's own words say why it stayed (a refusal, a wait)
        said = page.evaluate(
            """() => ["#form-errors", "#deal-feedback", "#queue-status", "#queue-review"]
                .map(s => document.querySelector(s))
                .filter(Boolean).map(e => e.innerText.trim()).filter(Boolean).join(" | ")"""
        )
        state = page.evaluate(
            """() => new Promise(done => {
                const button = document.querySelector("#deal-form button[type=submit]");
                const form = document.querySelector("#deal-form");
                const invalid = form ? [...form.elements]
                    .filter(e => e.willValidate && !e.checkValidity())
                    .map(e => `${e.name}=${e.value}: ${e.validationMessage}`) : [];
                const shown = `save button ${button && button.disabled ? "disabled" : "enabled"}`
                    + `, invalid: ${invalid.join("; ") || "none"}`;
                const req = indexedDB.open("scorebook", 1);
                req.onerror = () => done(`${shown}, queue unreadable`);
                req.onsuccess = () => {
                    const all = req.result.transaction("queue").objectStore("queue").getAll();
                    all.onsuccess = () => done(`${shown}, ${all.result.length} in the queue`);
                };
                setTimeout(() => done(`${shown}, queue blocked`), 3000);
            })"""
        )
        raise AssertionError(
            f"not saved after 30 s at {page.url} ({state}): {said or 'nothing said'}; "
            f"the saves (from the first step, {time.monotonic() - began:.1f} s ago): "
            f"{answers or 'none sent'}"
        ) from stuck
    return count


def random_deals(game: str, players: int, rules: Any, n: int = 10, seed: int = 22) -> list[Any]:
    """``n`` legal deals in a row of a match, from the engine (totals level)."""
    from scorebook.rules import start_match

    engine, resolved, state = start_match(game, rules, players)
    rng = random.Random(seed)
    deals: list[Any] = []
    tries = 0
    while len(deals) < n and not state.finished and tries < 50 * n:
        tries += 1
        deal = engine.random_deal(rng, resolved, state, "totals")
        deals.append(deal)
        engine.add_deal(state, deal, resolved)
    return deals


def summary(rows: list[tuple[str, Count]], kinds: Sequence[str] = ()) -> str:
    """The median and the worst of ``rows`` (of the ordinary deals where ``kinds`` says)."""
    picked = [r for r, k in zip(rows, kinds, strict=True) if k == "ordinary"] if kinds else rows
    picked = picked or rows
    taps = [c.taps for _, c in picked]
    keys = [c.keys for _, c in picked]
    worst = max(picked, key=lambda r: (r[1].taps + r[1].keys, r[1].taps))
    return (
        f"median {statistics.median(taps):g} taps + {statistics.median(keys):g} keystrokes; "
        f"worst {worst[1].taps} taps + {worst[1].keys} keystrokes ({worst[0]})"
    )


def main() -> int:
    env = {**os.environ, "TABLE_TAPS_REPORT": "1"}
    test = "tests/e2e/test_table_taps.py"
    args = [sys.executable, "-m", "pytest", test, "-q", "-s", "-p", "no:cacheprovider"]
    return subprocess.call(args, cwd=ROOT, env=env)


if __name__ == "__main__":
    raise SystemExit(main())
