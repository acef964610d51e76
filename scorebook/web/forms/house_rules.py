"""A game's house rules on a page form: one field per switch of the engine's description
(``rules.<key>``), set to the chosen profile's values, and back to a rules spec that keeps
only what the user changed. The match form and the championship form both use it."""

from __future__ import annotations

from typing import Any

from django import forms

from scorebook.rules import get_game
from scorebook.web.switches import choice_label, switch_label


def _value(switch: dict[str, Any], text: Any) -> Any:
    """The switch value a form's text stands for (values may be numbers)."""
    for value in switch.get("values", []):
        if str(value) == text:
            return value
    return text


class HouseRulesFields:
    """Mixed into a ``forms.Form``: ``add_house_rules`` in ``__init__``, ``rules_spec``
    once it is valid."""

    fields: dict[str, forms.Field]
    cleaned_data: dict[str, Any]

    def add_house_rules(self, game: dict[str, Any], profile: str) -> None:
        self.game, self.profile = game, profile
        #: each house-rule field's value under the profile (or the game's defaults)
        self.profile_values: dict[str, Any] = {}
        resolved = get_game(game["key"]).rules({"profile": profile} if profile else {})
        for switch in game["switches"]:
            name = f"rules.{switch['key']}"
            current = resolved.values.get(switch["key"], switch["default"])
            if "values" in switch:
                self.fields[name] = forms.ChoiceField(
                    choices=[(str(v), choice_label(switch, v)) for v in switch["values"]],
                    initial=str(current),
                    label=switch_label(switch),
                )
            else:
                self.fields[name] = forms.IntegerField(
                    min_value=switch["min"],
                    max_value=switch["max"],
                    initial=current,
                    label=switch_label(switch),
                )
                self.fields[name].widget.attrs["inputmode"] = "numeric"
            self.profile_values[name] = current

    def rules_spec(self) -> dict[str, Any]:
        """The profile plus only the switches changed from it."""
        spec: dict[str, Any] = {"profile": self.profile} if self.profile else {}
        for switch in self.game["switches"]:
            name = f"rules.{switch['key']}"
            value = self.cleaned_data[name]
            value = _value(switch, value) if "values" in switch else value
            if value != self.profile_values[name]:
                spec[switch["key"]] = value
        return spec
