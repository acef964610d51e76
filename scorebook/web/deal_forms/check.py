"""The check: the engine's problems (or a service's refusal) placed next to the inputs
they are about, in the words a player reads on the form.

The engine's words are the API's: they speak of the deal JSON ("'tricks' is required",
"remove 'called'", "not None", "opponents (P2, P1)"). On the form a player reads the form's
words instead (issue 32 item 5): the field's or the section's label, the players' names,
what to do. Per problem code the form has its own sentence (``ON_THE_FORM``); otherwise
the engine's sentence with its keys as the form's labels and its seats and sides as names;
and a note that still holds a developer's word is said plainly, naming its section
(``_plainly``; the engine's words logged at debug)."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from scorebook.rules import Rejection
from scorebook.web.deal_forms.form import PICK, DealForm, Input, Section
from scorebook.web.deal_forms.reading import CALL_FILLS
from scorebook.web.seats import seat_letter, seated

logger = logging.getLogger(__name__)

#: The live check (while the deal is typed) puts next to a field only what is wrong with
#: what was typed in it: a value out of its range. The rest (what is not filled in yet,
#: the deal as a whole: "fill in the last trick", "the points do not add up") it says
#: beside the save button only: notes over the fields still to fill pushed them down out
#: of the screen at every keystroke (issue 32 item 3). A save places every problem.
IN_PLACE_LIVE = frozenset({"input.out_of_range"})

_CHOOSE = _("Choose «%(what)s» from the choices the form offers.")
_CLEAR = _("Everybody passed, so the deal was not played: clear «%(what)s».")

#: Engine problems whose words speak of the deal format: on the form, what to do.
#: ``%(what)s`` is the input's label, or its section's title for a path no input has.
ON_THE_FORM = {
    "input.missing": _("Fill in «%(what)s»."),
    "input.not_integer": _("«%(what)s» must be a whole number."),
    "input.not_object": _("«%(what)s» cannot be read as sent: fill it in again."),
    "terz.shares": _("With scegliete, write how many monte cards each opponent chose."),
    "terz.called_missing": _("With chiamo, say which card was called and who held it."),
    "terz.bids_missing": _("Fill in «%(what)s»: who won the auction and with what contract."),
    "terz.pass_out_with_play": _CLEAR,
    "terz.nothing_to_give_back": _(
        "Only a chiamo whose called card came from an opponent has a card to give back: "
        "clear «%(what)s»."
    ),
    "cav.bids": _("Fill in «%(what)s»: who won the auction, or that everybody passed."),
    "cav.void_with_play": _CLEAR,
    "capture.missing_scorer": _("Fill in «%(what)s»: every side's points are needed."),
    "match.finished": _("The match is already over: no further deal can be entered."),
    "capture.all_tricks_with_counts": _(
        "Fill in either each side's tricks or «%(what)s», not both."
    ),
    "spin.out_first_missing": _("Fill in «%(what)s»: the Game pot is always won."),
    "spin.player": _CHOOSE,
    "decl.extra_field": _("Leave «%(what)s» empty for this declaration."),
    "trap.redraws": _(
        "«%(what)s»: the non-dealer redraws at most twice, then the dealer from what is left; "
        "together no more than the 18 cards of the stock."
    ),
    "trap.two_trick": _(
        "Fill in «%(what)s»: who won the trick with a 2 and which trick (1-9), each trick once."
    ),
    "trap.decl": _("Fill in «%(what)s»: who declared, the rank, and three or four."),
}

#: Problems with a value the form never offers (a program's post): if the engine's words
#: still read as the deal format once keys and seats are in words, the form's choice.
CHOOSE = frozenset({
    "decl.bad_type", "decl.bad_player", "decl.bad_rank", "decl.bad_suit", "decl.bad_missing",
    "last_trick.unknown", "capture.all_tricks_bad_side", "cav.last_trick", "cav.revoke",
    "cav.called", "cav.called_from", "cav.discards", "t4.claim_bad_side",
    "t4.annul_bad_player", "t4.counters_alone_bad_seat", "cdt.partner.unknown",
    "cdt.call.bad_suit", "terz.bid_unknown", "terz.bid_turn", "terz.shares_player",
    "rov.removed",
})  # fmt: skip

#: The last guard: a note with any of these still speaks of the deal JSON.
_DEVELOPER = re.compile(
    r"'[A-Za-z_~.\[\]0-9]+'|\bNone\b|\bnull\b|[{}]|\bJSON\b|\btrue\b|\bfalse\b"
    r"|\b[a-z]+_[a-z_]+\b"
)


@dataclass
class _Note:
    words: str
    code: str
    target: Input | None
    section: Section | None
    exact: bool  # the path is the target input's own name
    asked: bool  # the form has an input at or below the path


def place(form: DealForm, errors: Iterable[Mapping[str, Any]], live: bool = False) -> None:
    """Put each problem (``path``, ``message``: the engine's, or a refusal's ``errors()``)
    next to the input whose name is its path, else the nearest input, else its section,
    else at the top of the form, in the form's words; ``live`` (the check while typing):
    only a typed value out of its range in place, the rest beside the save button
    (``DealForm.pending``)."""
    inputs = list(form.inputs())
    names = [i.name for i in inputs]
    found: list[_Note] = []
    for error in errors:
        path = _local(str(error.get("path") or ""))
        code = str(error.get("code") or "")
        given = error.get("params")
        params: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
        target = _owner(inputs, names, path)
        section = _section(form, path, target)
        exact = target is not None and (target.name == path or _fills(target, path))
        what = _what(path, target, section, exact)
        words = _in_points(code, params, target) or _said_on_the_form(form, code, what)
        if not words:
            message = _own_key(str(error["message"]), path, target, exact)
            message = _with_names(message, params, form)
            words = _keys_in_words(message, form)
            if code in CHOOSE and _developer(words, form):
                words = str(_CHOOSE) % {"what": what}
        asked = exact or any(n == path or n.startswith((path + ".", path + "[")) for n in names)
        found.append(_Note(_plainly(form, words, section), code, target, section, exact, asked))
    for note in _needed(found):
        _put(form, note, live)
    _once(form)


def _needed(found: list[_Note]) -> list[_Note]:
    """A value no input of the form has ("'tricks' is required" on a seat of the quick
    form, which asks for points only) is missing because something the form asks is: when
    another note in its section says what, that one is enough."""

    def vague(note: _Note) -> bool:
        return note.code == "input.missing" and not note.asked

    said = {id(n.section) for n in found if not vague(n) and n.section is not None}
    return [n for n in found if not (vague(n) and id(n.section) in said)]


def _put(form: DealForm, note: _Note, live: bool) -> None:
    target = note.target
    if target is not None:
        typed = target.value not in ("", None, [])
        held = live and not (note.code in IN_PLACE_LIVE and typed)
        (form.pending if held else target.errors).append(note.words)
        return
    if live:
        form.pending.append(note.words)
        return
    section = note.section
    (section.errors if section is not None else form.errors).append(note.words)
    if section is not None:
        section.open = True


def _once(form: DealForm) -> None:
    """A note said twice at one place (two seats' "fill in «The deal»") is said once."""
    form.errors[:] = list(dict.fromkeys(form.errors))
    form.pending[:] = list(dict.fromkeys(form.pending))
    for section in form.sections:
        section.errors[:] = list(dict.fromkeys(section.errors))
        for inp in section.inputs:
            inp.errors[:] = list(dict.fromkeys(inp.errors))


def _section(form: DealForm, path: str, target: Input | None) -> Section | None:
    if target is not None:
        return next((s for s in form.sections if target in s.inputs), None)
    return next(
        (
            s
            for s in form.sections
            if path and any(path == c or path.startswith((c + ".", c + "[")) for c in s.claims)
        ),
        None,
    )


def _what(path: str, target: Input | None, section: Section | None, exact: bool) -> str:
    """The input's label, or for a path no input has, the title of its section."""
    if target is not None and exact:
        return str(target.label)
    if section is not None:
        return str(section.title)
    return str(target.label) if target is not None else ""


def _said_on_the_form(form: DealForm, code: str, what: str) -> str:
    words = ON_THE_FORM.get(code)
    if code == "capture.missing_scorer" and not form.sides:
        words = _("Fill in «%(what)s»: every player's points are needed.")
    if words is None or not what and "%(what)s" in str(words):
        return ""
    return str(words) % {"what": what} if "%(what)s" in str(words) else str(words)


def _in_points(code: str, params: Any, target: Input | None) -> str:
    """A points field's range in points, as the player typed them (issue 32 item 5: the
    engine's "'thirds' must be between 0 and 35; it is 36" spoke of thirds)."""
    if target is None or code != "input.out_of_range" or target.kind != "points":
        return ""
    low, high = params.get("low"), params.get("high")
    if not isinstance(low, int) or not isinstance(high, int):
        return ""
    words = _("«%(what)s» must be between %(low)d and %(high)d points.")
    return str(words) % {"what": target.label, "low": low // 3, "high": high // 3}


def _ids(params: Mapping[str, Any], known: Iterable[str]) -> set[str]:
    """The seats and sides a problem's parameters name: alone, in a list, or listed in
    words ("P1, P2, P3")."""
    known = set(known)
    found: set[str] = set()
    for value in params.values():
        items = value if isinstance(value, list) else [value]
        for item in items:
            if isinstance(item, str):
                found.update(part.strip() for part in item.split(","))
    return found & known


def _with_names(message: str, params: Mapping[str, Any], form: DealForm) -> str:
    """The seats a problem names with the players' names ("N ha accusato napoletana di
    denari e E ha accusato ...": E reads as the word "e"), its sides as the form says them
    ("the soloist"); a list of seats in brackets by name alone; no "not None"."""
    message = re.sub(r",? (?:not|non) None(?=[.;)]|$)", "", message)
    message = re.sub(r" ?\((?:got|ricevuto) [^)]*\)", "", message)
    who = {s: seated(s, n) for s, n in form.names.items()}
    who.update(form.sides)
    ids = _ids(params, who)
    ids |= {s for s in who if len(s) > 1 and re.search(rf"\b{re.escape(s)}\b", message)}
    if not ids:
        return message
    alt = "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))
    short = {s: form.names.get(s) or who[s] for s in ids}
    message = re.sub(
        rf"\(((?:{alt})(?:, (?:{alt}))+)\)",
        lambda m: "(" + ", ".join(short[i] for i in m.group(1).split(", ")) + ")",
        message,
    )
    pattern = rf"'({alt})'|(?<![\w«])({alt})(?![\w»])"

    named = {v for k, v in params.items() if k in ("scorer", "side", "player", "by")}

    def said(m: re.Match[str]) -> str:
        seat = m.group(1) or m.group(2)
        if m.start() == 0 and len(seat) == 1 and seat in form.sides and seat not in named:
            return seat  # "A forfeited deal...": the word, not side A
        return who[seat]

    message = re.sub(pattern, said, message)
    return _grammar(message[:1].upper() + message[1:])


#: A side's words begin with their article ("the soloist", "il giocatore solo"): the
#: engine's own article before them goes, and Italian joins "di il" as "del".
_JOINED = [
    (r"\b([Tt])he (?=the )", ""),
    (r"\bdi il\b", "del"), (r"\bdi gli\b", "degli"), (r"\bdi i\b", "dei"),
    (r"\bda il\b", "dal"), (r"\bda gli\b", "dagli"), (r"\bda i\b", "dai"),
    (r"\ba il\b", "al"), (r"\ba gli\b", "agli"), (r"\ba i\b", "ai"),
    (r"\bi assi\b", "gli assi"),
    (r"\b(\w*[^\Ws])' (?=points\b)", r"\1's "),  # "the bidder' points"
]  # fmt: skip


def _grammar(message: str) -> str:
    for pattern, joined in _JOINED:
        message = re.sub(pattern, joined, message)
    return message[:1].upper() + message[1:]


def _own_key(message: str, path: str, target: Input | None, exact: bool) -> str:
    """The engine names a field by its JSON key ('thirds', 'tricks', a seat's 'P2'); next
    to the field the player reads its label instead, in their language."""
    if target is None or not exact:
        return message
    key = re.sub(r"\[\d+\]$", "", path.rsplit(".", 1)[-1])
    return message.replace(f"'{key}'", f"«{target.label}»")


def _keys_in_words(message: str, form: DealForm) -> str:
    """The other keys the engine names as the form's labels (a section's title for a key
    of no one input), and a choice's value as the form's chip says it."""

    def label(m: re.Match[str]) -> str:
        key = m.group(1)
        for inp in form.inputs():
            if inp.name == key or inp.name.split("~")[0].rsplit(".", 1)[-1] == key:
                if inp.kind != "shown":
                    return f"«{inp.label}»"
        for section in form.sections:
            if key in section.claims:
                return f"«{section.title}»"
        return m.group(0)

    message = re.sub(r"'([a-z_]+)'(?:: true)?", label, message)
    chosen = {  # a choice's value in the engine's words ("solissimo_scegliete")
        str(value): str(text)
        for inp in form.inputs()
        for value, text in inp.choices
        if re.fullmatch(r"[a-z]+_[a-z_]+", str(value))
    }
    for value, text in chosen.items():
        message = re.sub(rf"\b{value}\b", text, message)
    return message


def _developer(words: str, form: DealForm) -> bool:
    """``words`` still speak of the deal JSON, once the form's own words are set aside:
    its seats with their names, its sides, what was typed (quoted back)."""
    plain = words
    for inp in form.inputs():
        for value in inp.value if isinstance(inp.value, list) else [inp.value]:
            if value not in ("", None):
                plain = plain.replace(f"'{value}'", "").replace(f'"{value}"', "")
    for seat, name in form.names.items():
        letter = seat_letter(seat)
        plain = plain.replace(f"{name} ({letter})", "").replace(f"{letter} · {name}", "")
    for text in form.sides.values():
        plain = re.sub(re.escape(text), "", plain, flags=re.IGNORECASE)
    for section in form.sections:  # the form's own words (a seat's label without a name)
        plain = plain.replace(f"«{section.title}»", "")
        for inp in section.inputs:
            plain = plain.replace(f"«{inp.label}»", "")
    if _DEVELOPER.search(plain):
        return True
    if any(re.search(rf"\b{re.escape(seat)}\b", plain) for seat in form.names if len(seat) > 1):
        return True  # a seat's id where the form names its player
    raw = [side for side, text in form.sides.items() if len(side) > 1 and side != text]
    return any(re.search(rf"\b{re.escape(side)}\b", plain) for side in raw)


def _plainly(form: DealForm, words: str, section: Section | None) -> str:
    """The last guard: a note still in the deal format's words said plainly, naming its
    section; the engine's words go to the log (debug)."""
    if not _developer(words, form):
        return words
    logger.debug("deal form %s/%s: a note in developer words: %s", form.game, form.level, words)
    if section is not None:
        plain = _("«%(section)s»: this deal is not possible as entered; check the values.")
        return str(plain) % {"section": section.title}
    return str(_("This deal is not possible as entered; check the values."))


def problems(rejection: Rejection, language: str | None) -> list[dict[str, Any]]:
    """The engine's problems as ``errors()`` entries in the user's language."""
    lang = "it" if (language or "en").startswith("it") else "en"
    return [p.as_dict(lang) for p in rejection.problems]


def _fills(inp: Input, path: str) -> bool:
    """The quick form's one-tap inputs fill engine paths of other names: a ``call`` cell
    the card called and where it was, a ``pick`` chip the path its value names."""
    if inp.kind == "call":
        return path in CALL_FILLS
    if inp.kind == "pick":
        return any(str(value).startswith(path + PICK) for value, _t in inp.choices)
    return False


def _local(path: str) -> str:
    """Inside a match the engine prefixes ``deals[n].``: the form speaks of one deal."""
    return re.sub(r"^deals\[\d+\]\.?", "", path)


def _owner(inputs: list[Input], names: list[str], path: str) -> Input | None:
    if not path:
        return None
    if path in names:
        return inputs[names.index(path)]
    filler = next((i for i in inputs if _fills(i, path)), None)
    if filler is not None:
        return filler
    below = [i for i in inputs if i.name.startswith(path + ".") or i.name.startswith(path + "[")]
    if below:
        return below[0]
    above = [i for i in inputs if path.startswith(i.name + ".") or path.startswith(i.name + "[")]
    return max(above, key=lambda i: len(i.name)) if above else None
