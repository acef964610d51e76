"""House-rule switches and profiles.

Every point where the sources disagree (section 3 of the reference) is a :class:`Switch`
with its allowed values and the reference's default. A match is defined by a game key plus
a house-rule spec: an optional named profile plus explicit switch values. The resolved
:class:`Rules` is a plain snapshot that the match record stores.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import Problems, messages

messages(
    {
        "rules.not_an_object": (
            "House rules must be an object of switch names and values.",
            "Le regole della casa devono essere un oggetto di nomi e valori.",
        ),
        "rules.unknown_profile": (
            "There is no profile '{profile}' for {game}; profiles: {allowed}.",
            "Non esiste il profilo '{profile}' per {game}; profili: {allowed}.",
        ),
        "rules.unknown_switch": (
            "'{switch}' is not a house rule of {game}; its rules are: {allowed}.",
            "'{switch}' non è una regola della casa di {game}; le sue regole sono: {allowed}.",
        ),
        "rules.bad_value": (
            "{value!r} is not allowed for '{switch}'; allowed: {allowed}.",
            "{value!r} non è ammesso per '{switch}'; valori ammessi: {allowed}.",
        ),
    }
)


@dataclass(frozen=True)
class Switch:
    """One house rule. ``choices`` lists the allowed values; ``between`` bounds integers."""

    key: str
    default: Any
    choices: tuple[Any, ...] = ()
    between: tuple[int, int] | None = None
    help: str = ""
    #: What each value sets, where a value names a rule book's table (``PEN``: cappotto
    #: x2, ...): ``{value: {item: number}}``, so a page can say it instead of the code.
    tables: Mapping[Any, Mapping[str, Any]] = field(default_factory=dict, compare=False)

    def accepts(self, value: Any) -> bool:
        if self.between is not None:
            low, high = self.between
            return type(value) is int and low <= value <= high
        return any(type(value) is type(c) and value == c for c in self.choices)

    def allowed_text(self) -> str:
        if self.between is not None:
            return f"an integer from {self.between[0]} to {self.between[1]}"
        return ", ".join(repr(c) for c in self.choices)

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"key": self.key, "default": self.default, "help": self.help}
        if self.between is not None:
            out["min"], out["max"] = self.between
        else:
            out["values"] = list(self.choices)
        if self.tables:
            out["tables"] = {str(v): dict(t) for v, t in self.tables.items()}
        return out


def choice(
    key: str,
    default: Any,
    *others: Any,
    help: str = "",
    tables: Mapping[Any, Mapping[str, Any]] | None = None,
) -> Switch:
    """A switch whose first listed value is the default (``tables``: see :class:`Switch`)."""
    return Switch(
        key=key, default=default, choices=(default, *others), help=help, tables=tables or {}
    )


@dataclass(frozen=True)
class Rules:
    """A resolved snapshot: every switch of the game with its value."""

    game: str
    values: Mapping[str, Any] = field(default_factory=dict)
    profile: str | None = None

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "profile": self.profile, "values": dict(self.values)}


def resolve(
    game: str,
    switches: tuple[Switch, ...],
    profiles: Mapping[str, Mapping[str, Any]],
    spec: Any,
    path: str = "rules",
    problems: Problems | None = None,
) -> Rules:
    """Defaults, then the named profile, then explicit values; unknown names are refused."""
    own = problems if problems is not None else Problems()
    by_key = {s.key: s for s in switches}
    values = {s.key: s.default for s in switches}
    if spec is None:
        spec = {}
    if not isinstance(spec, Mapping):
        own.add("rules.not_an_object", path)
        own.raise_if_any()
    profile = spec.get("profile")
    if profile is not None:
        if not isinstance(profile, str) or profile not in profiles:
            own.add(
                "rules.unknown_profile",
                f"{path}.profile",
                profile=profile,
                game=game,
                allowed=", ".join(profiles) or "none",
            )
        else:
            values.update(profiles[profile])
    for key, value in spec.items():
        if key == "profile":
            continue
        switch = by_key.get(key)
        if switch is None:
            own.add(
                "rules.unknown_switch",
                f"{path}.{key}",
                switch=key,
                game=game,
                allowed=", ".join(by_key),
            )
        elif not switch.accepts(value):
            own.add(
                "rules.bad_value",
                f"{path}.{key}",
                switch=key,
                value=value,
                allowed=switch.allowed_text(),
            )
        else:
            values[key] = value
    if problems is None:
        own.raise_if_any()
    return Rules(game=game, values=values, profile=profile if isinstance(profile, str) else None)
