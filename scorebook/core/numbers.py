"""One reader for every number a person or program sends: path ids, query parameters and
form fields, for the API and the pages alike.

``int()`` accepts far more than a number field should: ``"²"`` passes ``str.isdigit()``
and then makes ``int()`` raise, ``" 7 "``, ``"1_000"`` and ``"٣"`` are numbers to it, 4,400
digits raise ``ValueError`` and 20 digits overflow a database column. Each of those was a
500 somewhere. Here a number is ASCII digits, at most one leading minus where negatives
are allowed, within stated bounds; anything else is "not a number" (``None``) for the
caller to treat as it treats a missing value: a 404 for an id (the same answer as an id
that does not exist, or exists in another club), a 400 in words for a field.
"""

from __future__ import annotations

import re
from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _

from scorebook.core.refusals import Refusal

#: The largest id a database column holds (bigint); ids start at 1.
MAX_ID = 2**63 - 1
#: Digits only (``[0-9]``, never ``\d``, which matches ``٣`` and friends), bounded so a
#: 4,400-digit string is refused before ``int()`` sees it.
_NUMBER = re.compile(r"-?[0-9]{1,20}")
#: The pattern a path segment holding an id must match (URL converter and API router).
ID_PATTERN = "[0-9]{1,19}"


def parse_int(value: Any, *, low: int, high: int) -> int | None:
    """``value`` as an int within ``low..high``, or ``None`` when it is not one.

    ``value`` may be a str (a path, query or form field) or already an int (JSON); a bool,
    a float or anything else is not a number. Surrounding spaces are not tolerated: a form
    field is stripped by its form, not here."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and _NUMBER.fullmatch(value):
        number = int(value)
    else:
        return None
    return number if low <= number <= high else None


def parse_id(value: Any) -> int | None:
    """An object id (1..2^63-1), or ``None``: the caller answers as for a missing object."""
    return parse_int(value, low=1, high=MAX_ID)


def parse_ids(value: Any) -> list[int] | None:
    """A comma-separated list of ids (``?players=3,5``), or ``None`` when any is not one."""
    if not isinstance(value, str) or len(value) > 2000:
        return None
    ids = [parse_id(part) for part in value.split(",")]
    return None if any(i is None for i in ids) else [i for i in ids if i is not None]


class NotANumber(Refusal):
    """A field that must be a whole number within bounds was something else."""

    code = "input.not_a_number"
    message = _("'%(field)s' must be a whole number from %(low)s to %(high)s.")


def require_int(value: Any, *, field: str, low: int, high: int) -> int:
    """``parse_int`` or a :class:`NotANumber` refusal naming ``field`` and the bounds."""
    number = parse_int(value, low=low, high=high)
    if number is None:
        raise NotANumber(path=field, field=field, low=low, high=high)
    return number


class IdConverter:
    """``<id:pk>`` in a route: an id as :func:`parse_id` reads it; anything else (``²``, 0,
    twenty digits) matches no route, so it is the same 404 as an id that is not there."""

    regex = ID_PATTERN

    def to_python(self, value: str) -> int:
        number = parse_id(value)
        if number is None:
            raise ValueError(value)
        return number

    def to_url(self, value: Any) -> str:
        return str(int(value))


def object_or_404(klass: Any, value: Any, **filters: Any) -> Any:
    """``get_object_or_404(klass, pk=value, **filters)`` for an id sent by a person or a
    program: one that is not an id is the same 404 as one that does not exist, or exists
    in another club (``get_object_or_404`` raised ValueError on ``abc``: a 500)."""
    number = parse_id(value)
    if number is None:
        raise Http404
    return get_object_or_404(klass, pk=number, **filters)
