"""The check: the engine's problems (or a service's refusal) placed next to the inputs
they are about, in the words a player reads on the form."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from scorebook.rules import Rejection
from scorebook.web.deal_forms.form import DealForm, Input


def place(form: DealForm, errors: Iterable[Mapping[str, Any]]) -> None:
    """Put each problem (``path``, ``message``: the engine's, or a refusal's ``errors()``)
    next to the input whose name is its path, else the nearest input, else its section,
    else at the top of the form."""
    inputs = list(form.inputs())
    names = [i.name for i in inputs]
    for error in errors:
        message = _with_names(str(error["message"]), error.get("params"), form.names)
        path = _local(str(error.get("path") or ""))
        target = _owner(inputs, names, path)
        if target is not None:
            code = str(error.get("code") or "")
            said = _in_points(code, error.get("params"), target) or _said_on_the_form(
                form, code, path, target
            )
            target.errors.append(said or _in_words(message, path, target))
            continue
        section = next(
            (s for s in form.sections if path and any(path.startswith(c) for c in s.claims)),
            None,
        )
        (section.errors if section is not None else form.errors).append(message)
        if section is not None:
            section.open = True


#: Engine problems whose words speak of the deal format ("'sides' is required", "give
#: how many each took ('monte_shares', e.g. {"P1": 3})"): on the form, what to fill in.
ON_THE_FORM = {
    "input.missing": _("Fill in «%(what)s»."),
    "terz.shares": _("With scegliete, write how many monte cards each opponent chose."),
    "terz.called_missing": _("With chiamo, say which card was called and who held it."),
    "capture.missing_scorer": _("Fill in «%(what)s»: every side's points are needed."),
}


def _in_points(code: str, params: Any, target: Input) -> str:
    """A points field's range in points, as the player typed them (issue 32 item 5: the
    engine's "'thirds' must be between 0 and 35; it is 36" spoke of thirds)."""
    if code != "input.out_of_range" or target.kind != "points" or not isinstance(params, dict):
        return ""
    low, high = params.get("low"), params.get("high")
    if not isinstance(low, int) or not isinstance(high, int):
        return ""
    words = _("«%(what)s» must be between %(low)d and %(high)d points.")
    return str(words) % {"what": target.label, "low": low // 3, "high": high // 3}


def _with_names(message: str, params: Any, names: Mapping[str, str]) -> str:
    """The seats a problem names, with the players' names: the engine says "N ha accusato
    napoletana di denari e E ha accusato ...", where E reads as the word "e"."""
    seats = {
        value for value in (params or {}).values() if isinstance(value, str) and value in names
    }
    if not seats:
        return message
    pattern = r"(?<![\w(])(" + "|".join(re.escape(s) for s in sorted(seats)) + r")(?![\w)])"
    return re.sub(pattern, lambda m: f"{names[m.group(1)]} ({m.group(1)})", message)


def _said_on_the_form(form: DealForm, code: str, path: str, target: Input) -> str:
    words = ON_THE_FORM.get(code)
    if words is None:
        return ""
    what = target.label
    if target.name != path:  # a group ('sides'): the section that holds it
        what = next((s.title for s in form.sections if target in s.inputs), target.label)
    return str(words) % {"what": what} if "%(what)s" in str(words) else str(words)


def _in_words(message: str, path: str, target: Input) -> str:
    """The engine names a field by its JSON key ('thirds', 'tricks'); next to the field on
    a page the player reads its label instead, in their language."""
    if target.name != path:
        return message
    key = re.sub(r"\[\d+\]$", "", path.rsplit(".", 1)[-1])
    return message.replace(f"'{key}'", f"«{target.label}»")


def problems(rejection: Rejection, language: str | None) -> list[dict[str, Any]]:
    """The engine's problems as ``errors()`` entries in the user's language."""
    lang = "it" if (language or "en").startswith("it") else "en"
    return [p.as_dict(lang) for p in rejection.problems]


def _local(path: str) -> str:
    """Inside a match the engine prefixes ``deals[n].``: the form speaks of one deal."""
    return re.sub(r"^deals\[\d+\]\.?", "", path)


def _owner(inputs: list[Input], names: list[str], path: str) -> Input | None:
    if not path:
        return None
    if path in names:
        return inputs[names.index(path)]
    below = [i for i in inputs if i.name.startswith(path + ".") or i.name.startswith(path + "[")]
    if below:
        return below[0]
    above = [i for i in inputs if path.startswith(i.name + ".") or path.startswith(i.name + "[")]
    return max(above, key=lambda i: len(i.name)) if above else None
