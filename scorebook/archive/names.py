"""A person's names as they are written in free text: in any case and with any separator
between their words (``Zebulon Quixote``, ``zebulon_quixote.csv``, ``ZebulonQuixote``,
``zebulon-quixote``, ``Zebulon.Quixote``), and the rewrite of each to the pseudonym.

A name is its words (runs of letters and digits); between two words a text may put up to
three other characters (a space, ``_``, ``-``, ``.``, ``#``...) or none. A name matches
only as a whole: not inside a longer word (``Nino`` is not in ``Ninotchka``), though a
digit may follow a name that ends in a letter (``zebulon_quixote2024.csv``). Another
player's name that contains the erased one (``Nino B`` beside ``Nino``) is matched first
and left as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

#: A name's words: its runs of letters and digits.
WORDS = re.compile(r"[^\W_]+")
#: What a text may put between two words of a name.
GAP = r"[\W_]{0,3}"
_LETTER = r"[^\W\d_]"
#: Where a capital follows a small letter, whatever the expression's case (camelCase).
_CAMEL = r"(?-i:(?<=[a-zà-ÿ])(?=[A-ZÀ-Þ]))"


def spelled(name: str) -> str | None:
    """The regular expression of ``name`` in any spelling (case aside), with its edges;
    None for a name without a letter or a digit (it names nobody in a text)."""
    words = WORDS.findall(name)
    if not words:
        return None
    body = GAP.join(re.escape(word) for word in words)
    if words[0][0].isdigit():
        before = r"(?<!\d)"
    else:  # not inside a word, unless a capital starts it (MrZebulon)
        before = rf"(?:(?<!{_LETTER})|{_CAMEL})"
    if words[-1][-1].isdigit():
        after = r"(?!\d)"
    else:  # not inside a word, unless a capital starts the next (ZebulonQuixoteJr)
        after = rf"(?:(?!{_LETTER})|{_CAMEL})"
    return before + body + after


def _folded(names: Iterable[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for name in names:
        key = " ".join(WORDS.findall(name)).casefold()
        if key:
            out.setdefault(key, name)
    return out


def pattern(names: Iterable[str], keep: Iterable[str] = ()) -> re.Pattern[str] | None:
    """One expression for every spelling of ``names`` and of ``keep``; a match of one of
    ``names`` has its group's name starting ``n``, of ``keep`` with ``k``. Longer names
    are tried first, so a kept name that contains an erased one wins. None when no name
    has a letter or a digit."""
    wanted = _folded(names)
    kept = {k: v for k, v in _folded(keep).items() if k not in wanted}
    alternatives = [(n, "n") for n in wanted.values()] + [(k, "k") for k in kept.values()]
    alternatives.sort(key=lambda pair: -len(" ".join(WORDS.findall(pair[0]))))
    parts = []
    for index, (name, kind) in enumerate(alternatives):
        source = spelled(name)
        if source is not None:
            parts.append(f"(?P<{kind}{index}>{source})")
    if not wanted:
        return None
    return re.compile("|".join(parts), re.IGNORECASE)


def rewriter(
    names: Iterable[str], replacement: str, keep: Iterable[str] = ()
) -> Callable[[Any], Any]:
    """A function that writes ``replacement`` for each of ``names`` (any spelling) in a
    string, or in every key and string of a JSON value; anything else comes back as it
    was, and so does a value with none of the names (the same object)."""
    found = pattern(names, keep)

    def text(value: str) -> str:
        if found is None:
            return value
        return found.sub(
            lambda m: replacement if (m.lastgroup or "").startswith("n") else m.group(0), value
        )

    def rewrite(value: Any) -> Any:
        if isinstance(value, str):
            return text(value)
        if isinstance(value, list):
            return [rewrite(v) for v in value]
        if isinstance(value, dict):
            return {rewrite(k) if isinstance(k, str) else k: rewrite(v) for k, v in value.items()}
        return value

    return rewrite
