"""Text and JSON from outside, refused at the door when it cannot be stored or echoed
safely: for the API's parsers (api/parsers.py), the pages' pasted JSON and every query
string, path and form field (``BadInputMiddleware`` in scorebook/web/middleware.py).

PostgreSQL's jsonb and text columns cannot hold NUL, a lone surrogate cannot be encoded to
UTF-8 (so an answer echoing one cannot be rendered), and other control characters have no
place in a name, a note or a card. Rather than let one of them reach a service, a stored
Idempotency-Key answer or a renderer (each a 500 before), the whole input is refused with
``input.bad_character`` and the path of the first one found. The same goes for JSON
nested deeper than any request of ours needs (the standard library's parser would raise
RecursionError from ~1,000 levels) and for integers longer than any id (past 4,300 digits
it raises ValueError).
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext_lazy as _

from scorebook.core.refusals import Refusal

#: Deep enough for every body the API reads (a play record is 5 levels deep).
MAX_DEPTH = 32
#: No number the API reads needs more digits than a bigint id (19); the standard library
#: would raise ValueError past 4,300 digits (a 500 before).
MAX_DIGITS = 20
#: Tab, line feed and carriage return are text; every other C0 control, DEL and the
#: surrogates are not.
_ALLOWED_CONTROLS = frozenset("\t\n\r")


class BadCharacter(Refusal):
    code = "input.bad_character"
    message = _(
        "The text at '%(where)s' contains a control character or an invalid one (%(char)s): "
        "remove it and send again."
    )


class NumberTooLarge(Refusal):
    code = "input.number_too_large"
    message = _("A number in the JSON has more than %(digits)s digits.")


class TooDeep(Refusal):
    code = "input.too_deep"
    message = _("The JSON is nested more than %(depth)s levels deep.")


def bad_char(text: str) -> str | None:
    """The first character of ``text`` that has no place in stored text, as ``U+XXXX``."""
    for char in text:
        code = ord(char)
        if (code < 32 and char not in _ALLOWED_CONTROLS) or code == 0x7F:
            return f"U+{code:04X}"
        if 0xD800 <= code <= 0xDFFF:
            return f"U+{code:04X}"
    return None


def _readable(key: str) -> str:
    """A key fit to be echoed: its bad characters written as escapes."""
    return "".join(f"\\u{ord(c):04x}" if bad_char(c) else c for c in key)


def check(data: Any) -> None:
    """Refuse bad characters in any key or string, and nesting beyond ``MAX_DEPTH``; an
    explicit stack, so a deep document cannot exhaust the interpreter's."""
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise TooDeep(depth=MAX_DEPTH)
        if isinstance(value, str):
            found = bad_char(value)
            if found:
                raise BadCharacter(path=path, where=path or "/", char=found)
        elif isinstance(value, dict):
            for key, item in value.items():
                where = f"{path}.{_readable(key)}" if path else _readable(key)
                found = bad_char(key)
                if found:
                    raise BadCharacter(path=where, where=where, char=found)
                stack.append((item, where, depth + 1))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                stack.append((item, f"{path}[{index}]", depth + 1))


class NotJSON(Refusal):
    code = "input.not_json"
    message = _("This is not valid JSON: %(error)s")


def loads(text: str) -> Any:
    """``text`` as JSON, then :func:`check`; a :class:`Refusal` for anything else (bad
    syntax, ``NaN``, nesting past ``MAX_DEPTH``, an integer past ``MAX_DIGITS``)."""
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_int=_bounded_int)
    except RecursionError:
        raise TooDeep(depth=MAX_DEPTH) from None
    except json.JSONDecodeError as bad:
        raise NotJSON(error=bad.msg) from None
    check(data)
    return data


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise NumberTooLarge(digits=MAX_DIGITS)
    return int(text)


def _no_constant(name: str) -> Any:
    raise NotJSON(error=f"{name} is not JSON")
