"""`make table-taps`: how many taps and keystrokes a deal costs at the table.

A person at a café table, a deck in one hand, enters deals on a phone (390 x 844) through
the real pages: the quick form of the next deal, which is where a save leads. For each
game family, 10 representative deals are entered one after the other, each counted from
the previous deal saved: a tap is a click (a chip, a field not already focused, a section
or "+ accuso" opened, a select opened and an option chosen counts 2, the save), a
keystroke is one character typed. It prints each deal's count, then the median and the
worst per family.

The deals: Tressette in pairs by hand (ordinary deals, a napoletana, a cappotto), the
other families from the engine's own random legal deals (``Game.random_deal``), entered
the way the quick form asks for them (``plan``). The stored deals must score as the
engine scores the deals themselves. The same code runs in CI as
tests/e2e/test_table_taps.py, which asserts the targets of issue 22.

Runs pytest on that test with its report printed: a throw-away test database, Django's
live server and Debian's /usr/bin/chromium (see tests/e2e/conftest.py).
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

#: (family, game, players, rules): one match of each, 10 deals (targets out of reach, so
#: that the match lasts them).
FAMILIES: list[tuple[str, str, int, dict[str, Any] | None]] = [
    ("Tressette in pairs", "tressette4", 4, {"profile": "accuso_41", "t4.target": 101}),
    ("Tressette, each for himself", "tressette2", 2, {"t2.target": 1000}),
    ("Terziglio", "terziglio", 3, {"profile": "chips_1_2_4_8_16", "terz.deals": 20}),
    ("Calabrasella", "calabrasella", 3, None),
    ("Chiamata del tre", "chiamata", 4, {"cdt.target": 1000}),
    ("Rovescino", "rovescino", 4, {"rov.target": 1000}),
    ("Trappola", "trappola", 2, {"trap.target": 1000}),
    ("Spinado", "spinado", 4, None),
]


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

    how: str  # type | chip | open | check | select | accuso
    name: str
    value: str = ""


@dataclass
class Count:
    taps: int = 0
    keys: int = 0
    notes: list[str] = field(default_factory=list)


def _chip(declaration: Mapping[str, Any]) -> str | None:
    """A declaration as the quick form's chip, or None when only the detailed form can
    say it (a decima, a declaration gone wrong)."""
    kind = declaration.get("type")
    extra = set(declaration) - {"player", "type", "suit", "rank", "missing"}
    if extra:
        return None
    if kind in ("napoletana", "decima"):
        return f"{kind}:{declaration.get('suit')}"
    if kind == "four":
        return f"four:{declaration.get('rank')}"
    if kind == "three":
        return f"three:{declaration.get('rank')}:{declaration.get('missing')}"
    return None


def plan(table: Any, deal: Mapping[str, Any]) -> list[Step] | None:
    """What the quick form of ``table`` takes to enter ``deal`` (an engine totals deal),
    in the page's order; None when the quick form cannot hold it."""
    from scorebook.web import deal_forms as forms

    form = forms.build(table, "quick")
    shape = table.shape
    body = {k: v for k, v in deal.items() if k not in ("dealer", "level")}
    bids = body.pop("bids", None)
    declarations = body.pop("declarations", None) or []
    flat = forms.flatten(body)
    used: set[str] = set()
    if shape.trick_counts == "all_or_none":
        counts = {k: v for k, v in flat.items() if k.endswith(".tricks")}
        used |= set(counts)
        everyone = [k.split(".")[1] for k, v in counts.items() if v == shape.tricks]
        if everyone and "all_tricks" not in flat:
            flat["all_tricks"] = everyone[0]
    said = [b for b in bids or () if isinstance(b, dict) and b.get("bid") != "pass"]
    auction = shape.part("auction")
    if bids is not None and auction is not None:
        if said:
            flat["auction.winner"] = said[-1]["player"]
            if auction.get("contracts"):
                flat["auction.bid"] = said[-1]["bid"]
        elif auction.get("contracts"):
            flat["auction.bid"] = "pass"
        else:
            flat["auction.winner"] = "pass"
    chips: dict[str, list[str]] = {}
    for declaration in declarations:
        chip = _chip(declaration)
        if chip is None:
            return None
        chips.setdefault(str(declaration.get("player")), []).append(chip)
    called_by = auction.get("call_contract") if auction is not None else None
    steps: list[Step] = []
    for section in form.sections:
        opened = section.open
        for inp in section.inputs:
            wanted: list[Step] = []
            if inp.kind == "shown":
                used.add(inp.name)
            elif inp.kind == "points":
                thirds = flat.get(inp.name)
                used.add(inp.name)
                if thirds is not None:
                    wanted.append(Step("type", inp.name, str(thirds // 3)))
                    if thirds % 3:
                        wanted.append(Step("chip", f"{inp.name}~figures", str(thirds % 3)))
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
                    wanted.append(Step("chip", inp.name, value))
            elif inp.name == "auction.bid" and flat.get(inp.name) == called_by and called_by:
                if "called" in flat:  # the card called says the contract: no tap
                    used.add(inp.name)
            elif inp.kind == "chipset":
                seat = inp.name.rsplit(".", 1)[-1]
                if chips.get(seat):
                    wanted.append(Step("accuso", inp.name))
                    wanted += [Step("chip", inp.name, c) for c in chips.pop(seat)]
            elif inp.name in flat:
                value = flat[inp.name]
                used.add(inp.name)
                if inp.kind in ("chips", "choice"):
                    value = value[0] if inp.many and isinstance(value, list) else value
                    if str(value) not in {str(c[0]) for c in inp.choices}:
                        return None  # a choice the quick form leaves to the detailed one
                if inp.kind == "chips":
                    if str(value) != str(inp.value or ""):
                        wanted.append(Step("chip", inp.name, str(value)))
                elif inp.kind == "check":
                    if value:
                        wanted.append(Step("check", inp.name))
                elif inp.kind == "choice":
                    wanted.append(Step("select", inp.name, str(value)))
                elif inp.kind == "cards":
                    return None
                else:
                    wanted.append(Step("type", inp.name, str(value)))
            if wanted and not opened:
                steps.append(Step("open", inp.name))
                opened = True
            steps += wanted
    if chips or any(k not in used for k in flat):
        return None  # something the quick form does not ask: the detailed form's
    return steps


def enter(page: Any, steps: list[Step]) -> Count:
    """Do ``steps`` on the quick form in ``page`` and save; count taps and keystrokes."""
    count = Count()
    # The person types first where the cursor already is (the form's first field).
    focused = page.evaluate("() => document.activeElement && document.activeElement.name")
    steps = sorted(steps, key=lambda s: not (s.how == "type" and s.name == focused))

    def field(name: str) -> Any:
        return page.locator(f'[name="{name}"]')

    for step in steps:
        if step.how == "type":
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
    before = page.url
    page.locator("#deal-form button[type=submit]").click()
    count.taps += 1
    # Saved: the next deal's form, this one in a line on top (a new address each time).
    page.wait_for_url(lambda url: url != before and "saved=" in url, timeout=30_000)
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


def summary(rows: list[tuple[str, Count]]) -> str:
    taps = [c.taps for _, c in rows]
    keys = [c.keys for _, c in rows]
    worst = max(rows, key=lambda r: (r[1].taps + r[1].keys, r[1].taps))
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
