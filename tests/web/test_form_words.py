"""No developer words on the deal form (issue 32 item 5): whatever a player posts, the notes
the check places (live, beside the save button, and after a save, by the fields) speak of
the form (its labels, the players' names, what to do), never of the deal JSON: no key in
quotes, no None, no JSON, no seat or side id on its own.

Every game's quick and totals form is built without a database and posted many times: the
fillings a form can post (each input's own choices, numbers in range, a call grid's row x
column) and garbage (a program can post anything). The engine judges each, ``place`` puts
its problems on the form, live and not, in Italian and English."""

from __future__ import annotations

import copy
import logging
import random
import re
from collections import Counter
from typing import Any

from django.http import QueryDict
from django.utils import translation

from scorebook.rules import Rejection, start_match
from scorebook.rules.games import REGISTRY
from scorebook.web import deal_forms as forms
from scorebook.web.deal_forms import CALL_SEP, DealForm, Input, Table
from scorebook.web.seats import seat_letter

#: Words of the deal format: a key in quotes, None, JSON, a seat list of ids.
DEVELOPER = re.compile(
    r"'[a-z_~.\[\]0-9]+'|\bNone\b|\bnull\b|[{}]|\bJSON\b|must be an? (object|list)"
    r"|\((?:P\d|[NESW])(?:, (?:P\d|[NESW]))+\)"
)
GARBAGE = ["None", "{}", "-1", "999999", "abc", "'x'", "P9", "3c@P9", "null", "[1]", "1.5", "🂡"]
ROUNDS = 24


def developer_words(note: str, form: DealForm, typed: frozenset[str] = frozenset()) -> str:
    """What in ``note`` is a developer's word, once the form's own seat words ("Nome (P2)",
    "P2 · Nome") and the values typed, in quotes, are set aside."""
    plain = note
    for value in sorted(typed, key=len, reverse=True):  # what was typed, said back
        plain = plain.replace(f"'{value}'", "«…»").replace(f'"{value}"', "«…»")
        plain = plain.replace(value, "«…»") if len(value) > 2 else plain
    for seat, name in form.names.items():
        letter = seat_letter(seat)
        plain = plain.replace(f"{name} ({letter})", name).replace(f"{letter} · {name}", name)
    sides = getattr(form, "sides", {})  # (main before issue 32 item 5 had none)
    for words in sides.values():
        plain = plain.replace(words, "")
    found = DEVELOPER.search(plain)
    for side in sides:  # a side's id where the form writes its words ("the soloist")
        if found is None and len(side) > 1:
            found = re.search(rf"(?<![Tt]he )\b{side}\b", plain)
    if found is None:
        found = re.search(r"(?<![\w·])P\d\b", plain)  # a seat id without its player
    return found.group(0) if found else ""


def notes(form: DealForm) -> list[str]:
    out = list(form.errors) + list(form.pending)
    for section in form.sections:
        out += section.errors
        for inp in section.inputs:
            out += inp.errors
    return [str(n) for n in out]


def realistic(inp: Input, rng: random.Random) -> list[str]:
    """A value the form itself can post for ``inp``."""
    if inp.kind == "call":
        row = rng.choice(inp.rows)[0]
        return [f"{row}{CALL_SEP}{rng.choice(inp.cols)[0]}"]
    if inp.kind == "chipset":
        return [v for v, _t in inp.choices if rng.random() < 0.2]
    if inp.kind == "cards":
        return [c["code"] for suit in inp.grid() for c in suit["cards"] if rng.random() < 0.1]
    if inp.choices:
        return [str(rng.choice(inp.choices)[0])]
    if inp.kind == "check":
        return ["on"]
    if inp.kind == "shown":
        return []
    if inp.kind == "points":
        return [str(rng.randint(0, inp.high or 11))]
    return [str(rng.randint(0, inp.high or 12))]


def posts(inputs: list[Input], level: str, rng: random.Random, garbage: bool) -> QueryDict:
    q = QueryDict(mutable=True)
    q["level"] = level
    for inp in inputs:
        if rng.random() < 0.45:
            continue
        if garbage and rng.random() < 0.5:
            q.setlist(inp.name, [rng.choice(GARBAGE)])
        else:
            q.setlist(inp.name, realistic(inp, rng))
    return q


def tables() -> list[tuple[Any, Any, Table, str]]:
    found = []
    for key, game in REGISTRY.items():
        for count in game.player_counts:
            g, rules, state = start_match(key, None, count)
            names = {s: f"Nome{s}" for s in state.seats}
            values = rules.values if hasattr(rules, "values") else {}
            table = Table(game=key, rules=values, state=state, names=names)
            for level in ("quick", "totals"):
                if level == "quick" or level in g.levels:
                    found.append((g, rules, table, level))
    return found


def explore(seed: int = 7, rounds: int = ROUNDS) -> Counter[tuple[str, ...]]:
    found: Counter[tuple[str, ...]] = Counter()
    rng = random.Random(seed)
    for g, rules, table, level in tables():
        empty, _ = forms.read(table, level, QueryDict())
        inputs = list(empty.inputs())
        for n in range(rounds):
            garbage = n % 3 == 2
            q = posts(inputs, level, rng, garbage)
            typed = frozenset(v for values in q.lists() for v in values[1] if garbage)
            for lang in ("it", "en"):
                with translation.override(lang):
                    for live in (True, False):
                        form, data = forms.read(table, level, q)
                        if not data or form.errors:
                            continue
                        try:
                            g.add_deal(copy.deepcopy(table.state), data, rules)
                        except Rejection as r:
                            forms.place(form, forms.problems(r, lang), live=live)
                        for note in notes(form):
                            word = developer_words(note, form, typed)
                            if word:
                                kind = "garbage" if garbage else "form"
                                found[(table.game, level, kind, lang, word, note[:140])] += 1
    return found


def test_no_developer_words_on_the_deal_form(caplog):
    """No note in developer words, and none of them only because the last guard said it
    plainly: what the form can post gets the form's own words for its problem."""
    caplog.set_level(logging.DEBUG, logger="scorebook.web.deal_forms.check")
    found = explore()
    report = "\n".join(f"{v} {k}" for k, v in sorted(found.items()))
    assert not found, report
    plainly = [r.getMessage() for r in caplog.records if "developer words" in r.getMessage()]
    assert not plainly, plainly[:20]


def test_the_check_sees_developer_words():
    """The checker itself: it would catch what the engine says of the deal JSON."""
    form = DealForm(game="x", level="quick", sections=[], names={"P2": "Nino", "N": "Ada"})
    form.sides = {"soloist": "the soloist", "coalition": "the other two"}
    assert developer_words("'tricks' è obbligatorio", form)
    assert developer_words("non None", form)
    assert developer_words("avversari (P2, P1)", form)
    assert developer_words("sides must be a JSON object.", form)
    assert developer_words("soloist won no trick", form)
    assert developer_words("P2 went out", form)
    assert not developer_words("Nino (P2) went out first.", form)
    assert not developer_words("Ada (N) e Nino (P2)", form)
    assert not developer_words("the soloist won no trick", form)
