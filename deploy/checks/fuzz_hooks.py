"""schemathesis hooks for `make fuzz` (loaded through SCHEMATHESIS_HOOKS): besides the
values it derives from the schema, every query parameter of an operation may get one of
the values that answered 500 before (issue 23): ``²`` (``str.isdigit()`` accepts it,
``int()`` does not), 4,400 digits (past ``int()``'s limit), 2^63 (past a bigint), a NUL
(PostgreSQL refuses it in text), 10,000 characters. A lone surrogate cannot be sent in a
URL by the client library, so the pages' fuzzer (fuzz_pages.py) sends that one."""

from __future__ import annotations

from typing import Any

import schemathesis
from hypothesis import strategies as st

HOSTILE = [
    "²", "٣", "9" * 4400, "9223372036854775808", "-9223372036854775809", "-1", "0", "1.5",
    "", "\x00", "a\x00b", "x" * 10_000,
]  # fmt: skip


def _names(context: Any, query: dict[str, Any]) -> list[str]:
    names = set(query)
    operation = getattr(context, "operation", None)
    for parameter in getattr(operation, "query", None) or []:
        name = getattr(parameter, "name", None)
        if isinstance(name, str):
            names.add(name)
    return sorted(names)


@schemathesis.hook
def flatmap_query(context: Any, query: dict[str, Any] | None) -> st.SearchStrategy:
    names = _names(context, dict(query or {}))
    if not names:
        return st.just(query)
    query = dict(query or {})
    hostile = st.builds(
        lambda name, value: {**query, name: value},
        st.sampled_from(names),
        st.sampled_from(HOSTILE),
    )
    return st.one_of(hostile, st.just(query))
