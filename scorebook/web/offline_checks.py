"""What the phone checks with no connection (issue 32 item 4): the deal form's shape, from
the engine's description of the table and the engine's own answers, in the words the
server's form says them.

The description (``describe``) travels with the form as JSON; ``queue.js`` reads it for any
game (it holds no game key and no rule):

* ``numbers``: each typed card-points field, in the table's unit (``scale``: a point is 3
  thirds, the figures tapped beside it add to it), with the bounds of one deal's piles
  (the engine's ``TableShape.whole``), and the words the form says for a value outside
  them (the engine's ``input.out_of_range`` placed on the field by ``check.place``; the
  value is ``VALUE``); the other whole numbers typed (Trappola's points and first
  player's tricks, Spinado's cards left) with the engine's own bounds (asked of it with a
  value far above any), ``pile`` false: outside the piles' sum;
* ``rest``: where several piles are typed, the scorer the server computes as the rest (the
  whole minus the others), with the words the server's form says on it when the typed
  piles add up past the whole (asked of the engine with a legal deal of the match);
* ``required``: the choices the engine asks for when the form leaves them blank (the
  engine asked with every figure at 0 and every choice blank: ``*.missing``, or a value
  None refused, as Trappola's last trick), each with the engine's words placed on it,
  and ``unless``: the choice that forces it (every trick taken forces the last one)
  where the engine then asks it no more.

The engine still judges every deal when it arrives; this only spares the phone a save
the server would refuse for its shape.
"""

from __future__ import annotations

import copy
import random
import re
from typing import Any

from django.utils.translation import get_language

from scorebook.rules import Rejection, get_game
from scorebook.rules.errors import problem
from scorebook.web import deal_forms as forms
from scorebook.web.deal_forms.form import DealForm, Input

#: The value the words carry in place of the value typed (the phone puts it in).
VALUE = -987654
#: The fields whose choice may force others (every trick taken: the last one too).
FORCING = ("all_tricks",)
#: Legal deals tried for one the form can hold.
SEEDS = 20
#: Legal deals tried, at most, to reach a number the engine bounds (one usually does).
BASES = 4


def describe(table: forms.Table, level: str) -> dict[str, Any]:
    """The offline checks of the form ``level`` for the next deal of ``table``."""
    if level not in ("quick", "totals", "cards"):
        return {}
    shape = table.shape
    form = forms.build(table, level)
    inputs = list(form.inputs())
    out: dict[str, Any] = {"numbers": [], "rest": None, "required": [], "value": VALUE}
    if shape.whole is not None:
        typed = [i for i in inputs if i.kind in ("points", "number") and _pile(i.name)]
        scale = 3 if shape.unit == "thirds" else 1
        for inp in typed:
            words = _said(table, level, inp.name, shape.whole, VALUE)
            out["numbers"].append(
                {
                    "name": inp.name,
                    "figures": f"{inp.name}~figures" if inp.kind == "points" else "",
                    "scale": scale if inp.kind == "points" else 1,
                    "high": shape.whole,
                    "words": words,
                }
            )
        rest = next((i for i in inputs if i.kind == "shown" and _pile(i.name)), None)
        words = _rest_words(table, level, typed, rest, shape.whole, scale) if rest else ""
        if rest is not None and len(typed) > 1 and words:
            # One typed pile above the whole is said on it; several may add up past it.
            out["rest"] = {"name": rest.name, "whole": shape.whole, "words": words}
    out["numbers"] += _bounds(table, level, inputs)
    out["required"] = _required(table, level, inputs)
    out["tally"] = tally(table, level, inputs)
    return out


def tally(table: forms.Table, level: str, inputs: list[Input]) -> dict[str, Any] | None:
    """What a waiting deal of the quick form adds to each scorer, for ``tally.js``: the
    engine's :class:`~scorebook.rules.table.Tally` (its rounding, the last trick's point,
    the piles below which and the sweep above which the engine alone scores) with the
    form's inputs it reads: each typed pile (whole points and the figures tapped) by its
    scorer, the rest (the whole less the typed piles), where the score reads whole points
    only the chip of the points the figures left over lost in all, the last trick's chip
    (its value a scorer) and every other input, which must be blank (a declaration, a
    sweep, a claim: the engine's to score). None where the engine alone scores a deal
    (the phone says the deal is not counted yet)."""
    shape = table.shape
    count = shape.tally
    if level != "quick" or count is None or shape.unit != "thirds" or shape.whole is None:
        return None
    piles: list[dict[str, Any]] = []
    rest = None
    last = lost = ""
    blank: list[str] = []
    for inp in inputs:
        head = re.split(r"[.~\[]", inp.name, maxsplit=1)[0]
        if _pile(inp.name) and inp.name.endswith(".thirds"):
            scorer = inp.name.split(".")[1]
            if inp.kind == "points":
                piles.append({"scorer": scorer, "name": inp.name, "figures": f"{inp.name}~figures"})
            elif inp.kind == "shown" and rest is None:
                rest = {"scorer": scorer, "name": inp.name}
            else:
                return None  # a pile the phone cannot read
        elif inp.name.endswith("~figures") and inp.feeds:
            continue  # read with its pile
        elif inp.name.endswith(forms.LOST) and inp.kind == "chips":
            lost = inp.name  # the points the figures left over lost in all
        elif inp.name == "last_trick" and inp.kind == "chips":
            last = inp.name
        elif head not in count.reads or inp.kind not in ("chips", "chipset", "check"):
            blank.append(inp.name)
    if not piles or not last:
        return None
    return {
        "piles": piles,
        "rest": rest,
        "whole": shape.whole,
        "last": last,
        "lost": lost,
        "blank": blank,
        "rounding": count.rounding,
        "points": count.points,
        "last_trick": count.last_trick,
        "least": count.least,
        "sweep_event": count.sweep_event,
    }


def _bounds(table: forms.Table, level: str, inputs: list[Input]) -> list[dict[str, Any]]:
    """The other whole numbers typed (Trappola's points and tricks, the second's tricks
    their rest; Spinado's cards left, the one who went out's zero written by the form):
    the engine's bounds, asked of it with each one far above any (the rest of a legal deal
    filled in), and the words the server's form says for a value outside them. ``pile``
    false: not part of the piles' sum."""
    if level != "quick":
        return []
    out: list[dict[str, Any]] = []
    bases = [*_legals(table, level), {}]  # the engine bounds a number before the rules
    for inp in inputs:
        if inp.kind != "number" or (_pile(inp.name) and table.shape.whole is not None):
            continue
        for base in bases:
            found = _range(table, level, {**base, inp.name: [str(FAR)]})
            if found is None or found[0] != inp.name:  # another's (Spinado's held: the holder's)
                continue
            path, field, low, high = found
            words = _placed(
                table,
                level,
                inp.name,
                [
                    problem(
                        "input.out_of_range", path, field=field, low=low, high=high, value=VALUE
                    ).as_dict(_lang())
                ],
            )
            out.append(
                {"name": inp.name, "figures": "", "scale": 1, "low": low, "high": high,
                 "words": words, "pile": False}
            )  # fmt: skip
            break
    return out


#: A value above any a deal's number may have (the form reads up to six digits).
FAR = 999999


def _range(
    table: forms.Table, level: str, data: dict[str, list[str]]
) -> tuple[str, str, int, int] | None:
    """The engine's ``input.out_of_range`` for the value ``FAR`` in ``data``: its path,
    field and bounds."""
    _form, deal = forms.read(table, level, data)
    game = get_game(table.game)
    try:
        game.add_deal(copy.deepcopy(table.state), deal, game.rules(dict(table.rules)))
    except Rejection as rejection:
        for error in forms.problems(rejection, _lang()):
            params = error.get("params") or {}
            if error.get("code") == "input.out_of_range" and params.get("value") == FAR:
                low, high = params.get("low"), params.get("high")
                if isinstance(low, int) and isinstance(high, int):
                    path = str(error.get("path") or "")
                    return path, str(params.get("field") or ""), low, high
    return None


def _pile(name: str) -> bool:
    """A scorer's card points: ``sides.A.thirds``, ``players.N.points``."""
    return name.endswith((".thirds", ".points")) and name.count(".") == 2


def _said(table: forms.Table, level: str, name: str, whole: int, value: int) -> str:
    """The words the server's form puts on ``name`` for card points outside a deal's."""
    field = name.rsplit(".", 1)[-1]
    found = problem("input.out_of_range", name, field=field, low=0, high=whole, value=value)
    return _placed(table, level, name, [found.as_dict(_lang())])


def _rest_words(
    table: forms.Table, level: str, typed: list[Input], rest: Input, whole: int, scale: int
) -> str:
    """What the server's form says on the rest when the typed piles add up past a deal's:
    the first holds the whole, the second one unit more (every other part of a legal deal
    filled in, so that the engine reaches the piles)."""
    if len(typed) < 2:
        return ""
    data = _legal(table, level)
    for n, inp in enumerate(typed):
        amount = whole if n == 0 else (1 if n == 1 else 0)
        if inp.kind == "points":
            data[inp.name] = [str(amount // scale)]
            data[f"{inp.name}~figures"] = [str(amount % scale)]
        else:
            data[inp.name] = [str(amount)]
    data.pop(rest.name, None)
    form, deal = forms.read(table, level, data)
    game = get_game(table.game)
    try:
        game.add_deal(copy.deepcopy(table.state), deal, game.rules(dict(table.rules)))
    except Rejection as rejection:
        return _placed(table, level, rest.name, forms.problems(rejection, _lang()), only=True)
    return ""


def _legal(table: forms.Table, level: str) -> dict[str, list[str]]:
    """A legal deal of this match (the engine's own, of a fixed seed) as the form posts it."""
    return next(iter(_legals(table, level, 1)), {})


def _legals(table: forms.Table, level: str, most: int = BASES) -> list[dict[str, list[str]]]:
    """Up to ``most`` legal deals of this match (the engine's own, of fixed seeds) as the
    form posts them: the first the form can hold (a deal's rarer parts: not)."""
    game = get_game(table.game)
    rules = game.rules(dict(table.rules))
    out: list[dict[str, list[str]]] = []
    for seed in range(SEEDS):
        deal = game.random_deal(random.Random(seed), rules, copy.deepcopy(table.state), "totals")
        fields = forms.prefill(table, level, deal)
        if fields is not None:
            out.append({k: v if isinstance(v, list) else [str(v)] for k, v in fields.items()})
            if len(out) >= most:
                break
    return out


def _placed(
    table: forms.Table, level: str, name: str, errors: list[dict[str, Any]], only: bool = False
) -> str:
    """The words ``errors`` get on the input ``name`` (else the form's, unless ``only``)."""
    form: DealForm = forms.build(table, level)
    forms.place(form, errors)
    target = next((i for i in form.inputs() if i.name == name), None)
    said = target.errors if target is not None and target.errors else []
    if not said and not only:
        said = form.errors
    return " ".join(str(e) for e in said)


def _lang() -> str:
    return "it" if (get_language() or "en").startswith("it") else "en"


def _missing(table: forms.Table, level: str, data: dict[str, list[str]]) -> dict[str, str]:
    """What the engine asks for (``*.missing``) on the form read from ``data``: by the
    chips field it lands on, in the form's words."""
    form, deal = forms.read(table, level, data)
    if form.errors:
        return {}
    game = get_game(table.game)
    rules = game.rules(dict(table.rules))
    try:
        game.add_deal(copy.deepcopy(table.state), deal, rules)
    except Rejection as rejection:
        found = forms.problems(rejection, _lang())
    else:
        return {}
    out: dict[str, str] = {}
    chips = {i.name: i for i in form.inputs() if i.kind == "chips"}
    for error in found:
        path = str(error.get("path") or "")
        params = error.get("params") or {}
        blank = str(error.get("code", "")).endswith((".missing", "_missing")) or (
            "value" in params and params["value"] is None  # Trappola's last trick: "not None"
        )
        if blank and path in chips and not data.get(path):
            out[path] = _placed(table, level, path, [error])
    return out


def _required(table: forms.Table, level: str, inputs: list[Input]) -> list[dict[str, str]]:
    """The choices the engine asks for when left blank, and the choice that forces each."""
    if level != "quick":
        return []
    # Every pile at 0 (Spinado has none: the deal as it is, every choice blank).
    zero = {i.name: ["0"] for i in inputs if i.kind in ("points", "number") and _pile(i.name)}
    asked = _missing(table, level, zero)
    unless: dict[str, str] = {}
    for force in FORCING:
        inp = next((i for i in inputs if i.name == force and i.kind == "chips"), None)
        choice = next((c for c, _text in inp.choices if c), None) if inp else None
        if choice is None:
            continue
        still = _missing(table, level, {**zero, force: [choice]})
        unless.update({name: force for name in asked if name not in still})
    return [
        {"name": name, "words": words, "unless": unless.get(name, "")}
        for name, words in asked.items()
    ]
