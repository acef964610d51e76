"""Rejections a player can understand: a stable code, the field at fault, and words.

Every problem found in an entry is collected, so a rejection lists them all at once.
Message templates live in one catalogue per module (registered with :func:`messages`),
in English and Italian, and name the cards, players and numbers involved.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

_CATALOGUE: dict[str, tuple[str, str]] = {}


def messages(catalogue: Mapping[str, tuple[str, str]]) -> None:
    """Register ``code -> (english, italian)`` templates; a code may be defined once."""
    for code, pair in catalogue.items():
        if code in _CATALOGUE and _CATALOGUE[code] != pair:
            raise ValueError(f"message code {code!r} defined twice")
        _CATALOGUE[code] = pair


def catalogue() -> dict[str, tuple[str, str]]:
    return dict(_CATALOGUE)


@dataclass(frozen=True)
class Problem:
    code: str
    path: str
    en: str
    it: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def message(self, lang: str = "en") -> str:
        return self.it if lang == "it" else self.en

    def as_dict(self, lang: str | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "path": self.path}
        if lang is None:
            out["message"] = {"en": self.en, "it": self.it}
        else:
            out["message"] = self.message(lang)
        out["params"] = {k: _plain(v) for k, v in self.params.items()}
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, (str, int, bool)) or value is None:
        return value
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(v) for v in value]
    return str(value)


class _Localized(dict[str, Any]):
    """Format parameters: values may be ``{"en": ..., "it": ...}`` pairs or plain values."""

    def __init__(self, params: Mapping[str, Any], lang: str) -> None:
        super().__init__()
        for key, value in params.items():
            if isinstance(value, Localized):
                self[key] = value.it if lang == "it" else value.en
            else:
                self[key] = value


@dataclass(frozen=True)
class Localized:
    """A parameter value that reads differently in each language (a card name, a bid)."""

    en: str
    it: str

    def __str__(self) -> str:
        return self.en


def problem(code: str, path: str, **params: Any) -> Problem:
    try:
        en, it = _CATALOGUE[code]
    except KeyError:  # a programming error: every code needs words
        raise KeyError(f"no message for problem code {code!r}") from None
    return Problem(
        code=code,
        path=path,
        en=en.format_map(_Localized(params, "en")),
        it=it.format_map(_Localized(params, "it")),
        params={k: (v.en if isinstance(v, Localized) else v) for k, v in params.items()},
    )


class Rejection(Exception):
    """The entry is refused; ``problems`` says every reason."""

    def __init__(self, problems: list[Problem] | tuple[Problem, ...]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(f"{p.path}: {p.en}" for p in self.problems))

    def as_dict(self, lang: str | None = None) -> dict[str, Any]:
        return {"ok": False, "errors": [p.as_dict(lang) for p in self.problems]}


class Problems:
    """Collects problems while an entry is checked, then rejects once with all of them."""

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def add(self, code: str, path: str, **params: Any) -> None:
        self.items.append(problem(code, path, **params))

    def extend(self, other: Rejection | Problems) -> None:
        self.items.extend(other.problems if isinstance(other, Rejection) else other.items)

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self) -> None:
        if self.items:
            raise Rejection(self.items)
