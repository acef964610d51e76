"""The championships' forms (issue 34 item 3): an officer creates one (its game and house
rules switch by switch from the engine's description, the tables a fixture has, the
substitutes, the format, the calendar), a club's director enters a team (its regulars in
table order, its substitutes, its captain), an officer records a forfeit, an officer or
the home club's director moves a fixture's night. The services check the rest and refuse
in words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorebook.clubs.models import Club, Membership, Player
from scorebook.core.dates import DATE_MAX, DATE_MIN
from scorebook.federations.models import Championship, ChampionshipFixture
from scorebook.web.forms.dates import date_input
from scorebook.web.forms.house_rules import HouseRulesFields


def _numeric(form: forms.Form, *names: str) -> None:
    for name in names:
        form.fields[name].widget.attrs["inputmode"] = "numeric"


def _in_range(form: forms.Form, name: str) -> None:
    day = form.cleaned_data.get(name)
    if day is not None and not DATE_MIN <= day <= DATE_MAX:
        form.add_error(
            name,
            _("Choose a date from %(first)s to %(last)s.")
            % {"first": DATE_MIN.isoformat(), "last": DATE_MAX.isoformat()},
        )


class ChampionshipForm(HouseRulesFields, forms.Form):
    """The championship's settings and one field per house-rule switch of its game
    (``rules.<key>``, from the engine's description, set to the profile's values)."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    season = forms.CharField(
        label=gettext_lazy("Season"), max_length=20, help_text=gettext_lazy("E.g. 2026/27.")
    )
    tables = forms.IntegerField(
        label=gettext_lazy("Tables a fixture has"),
        min_value=1,
        max_value=8,
        initial=2,
        help_text=gettext_lazy("A team fields one side at each table."),
    )
    substitutes = forms.IntegerField(
        label=gettext_lazy("Substitutes a roster may add"), min_value=0, max_value=8, initial=2
    )
    format = forms.ChoiceField(
        label=gettext_lazy("Format"),
        choices=Championship.Format.choices,
        initial=Championship.Format.ROUND_ROBIN,
    )
    legs = forms.TypedChoiceField(
        label=gettext_lazy("Round robin"),
        coerce=int,
        choices=[(2, gettext_lazy("home and away")), (1, gettext_lazy("one leg"))],
        initial=2,
    )
    groups = forms.IntegerField(
        label=gettext_lazy("Groups"),
        min_value=1,
        max_value=8,
        initial=2,
        help_text=gettext_lazy("Groups then knockout only."),
    )
    advance = forms.IntegerField(
        label=gettext_lazy("Teams of each group that go on"),
        min_value=1,
        max_value=4,
        initial=2,
        help_text=gettext_lazy("Groups then knockout only."),
    )
    first_day = forms.DateField(
        label=gettext_lazy("First night"), required=False, widget=date_input()
    )
    every_days = forms.IntegerField(
        label=gettext_lazy("Days between rounds"), min_value=1, max_value=60, initial=7
    )

    def __init__(self, *args: Any, game: dict[str, Any], profile: str = "", **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.add_house_rules(game, profile)
        _numeric(self, "tables", "substitutes", "groups", "advance", "every_days")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        _in_range(self, "first_day")
        return data

    def setting_fields(self) -> list[forms.BoundField]:
        return [self[n] for n in self.fields if not n.startswith("rules.")]

    def switch_fields(self) -> list[forms.BoundField]:
        return [self[f"rules.{s['key']}"] for s in self.game["switches"]]

    def switch_errors(self) -> bool:
        return any(name.startswith("rules.") for name in self.errors)

    def values(self) -> dict[str, Any]:
        """The service's keywords."""
        data = self.cleaned_data
        return {
            "name": data["name"],
            "season": data["season"],
            "game": self.game["key"],
            "rules_spec": self.rules_spec(),
            "tables": data["tables"],
            "substitutes": data["substitutes"],
            "format": data["format"],
            "legs": data["legs"],
            "groups": data["groups"],
            "advance": data["advance"],
            "first_day": data.get("first_day"),
            "every_days": data["every_days"],
        }


class TeamForm(forms.Form):
    """A club's team: its name, its regulars in table order (one field per seat of the
    team's side at each table), its substitutes and its captain (a member of the club)."""

    name = forms.CharField(label=gettext_lazy("Team name"), max_length=80)

    def __init__(
        self, *args: Any, club: Club, tables: int, side: int, substitutes: int, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.tables, self.side, self.most = tables, side, substitutes
        players = Player.objects.filter(club=club, active=True, erased=False).order_by("name")
        self.names = {str(p.pk): p.name for p in players}
        choose = [("", _("— choose —")), *self.names.items()]
        for table in range(1, tables + 1):
            for seat in range(1, side + 1):
                label = (
                    _("Table %(table)s, player %(seat)s") % {"table": table, "seat": seat}
                    if side > 1
                    else _("Table %(table)s") % {"table": table}
                )
                self.fields[f"player.{table}.{seat}"] = forms.ChoiceField(
                    label=label, choices=choose
                )
        self.fields["substitutes"] = forms.MultipleChoiceField(
            label=_("Substitutes (at most %(most)s)") % {"most": substitutes},
            choices=list(self.names.items()),
            required=False,
            widget=forms.CheckboxSelectMultiple,
        )
        members = (
            Membership.objects.filter(club=club).select_related("user").order_by("user__username")
        )
        self.fields["captain"] = forms.ChoiceField(
            label=_("Captain"),
            choices=[("", _("you"))] + [(str(m.user_id), m.user.username) for m in members],
            required=False,
            help_text=_("Confirms the team's away results."),
        )

    def regular_names(self) -> list[str]:
        return [
            f"player.{t}.{s}" for t in range(1, self.tables + 1) for s in range(1, self.side + 1)
        ]

    def regular_fields(self) -> list[forms.BoundField]:
        return [self[n] for n in self.regular_names()]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        seen: dict[str, str] = {}
        for name in self.regular_names():
            pid = data.get(name)
            if not pid:
                continue
            if pid in seen:
                self.add_error(
                    name,
                    _("%(player)s is already on the team.") % {"player": self.names.get(pid)},
                )
            seen[pid] = name
        subs = data.get("substitutes") or []
        for pid in subs:
            if pid in seen:
                self.add_error(
                    "substitutes",
                    _("%(player)s is already a regular.") % {"player": self.names.get(pid)},
                )
        if len(subs) > self.most:
            self.add_error(
                "substitutes",
                _("At most %(most)s substitutes.") % {"most": self.most},
            )
        return data

    def player_ids(self) -> list[int]:
        return [int(self.cleaned_data[n]) for n in self.regular_names()]

    def substitute_ids(self) -> list[int]:
        return [int(pid) for pid in self.cleaned_data.get("substitutes") or []]

    def captain_id(self) -> int | None:
        value = self.cleaned_data.get("captain")
        return int(value) if value else None


class ForfeitForm(forms.Form):
    """An officer: which team forfeits the fixture, and why."""

    team = forms.TypedChoiceField(label=gettext_lazy("Forfeited by"), coerce=int)
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=200)

    def __init__(self, *args: Any, fixture: ChampionshipFixture, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "forfeit")
        super().__init__(*args, **kwargs)
        team = self.fields["team"]
        assert isinstance(team, forms.ChoiceField)
        team.choices = [(fixture.home_id, fixture.home.name), (fixture.away_id, fixture.away.name)]


class PlanForm(forms.Form):
    """An officer or the home club's director: the fixture's new night (a postponement)."""

    day = forms.DateField(label=gettext_lazy("New night"), widget=date_input())
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=200)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "plan")
        super().__init__(*args, **kwargs)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        _in_range(self, "day")
        return data


class LineupForm(forms.Form):
    """The home club's director: who sits for each team at each table tonight (each
    roster's players, substitutes included; the regulars in table order at first)."""

    def __init__(
        self, *args: Any, fixture: ChampionshipFixture, tables: int, side: int, **kwargs: Any
    ) -> None:
        kwargs.setdefault("prefix", "lineup")
        super().__init__(*args, **kwargs)
        self.tables, self.side = tables, side
        self.teams = {"home": fixture.home, "away": fixture.away}
        for key, team in self.teams.items():
            roster = list(team.roster.select_related("player"))
            choices = [(str(r.player_id), r.player.name) for r in roster]
            regulars = [r.player_id for r in roster if not r.substitute]
            for index, name in enumerate(self.names(key)):
                table, seat = divmod(index, side)
                self.fields[name] = forms.ChoiceField(
                    label=_("Table %(table)s, player %(seat)s")
                    % {"table": table + 1, "seat": seat + 1},
                    choices=choices,
                    initial=str(regulars[index]) if index < len(regulars) else None,
                )

    def names(self, key: str) -> list[str]:
        return [f"{key}.{i}" for i in range(self.tables * self.side)]

    def team_fields(self) -> list[tuple[Any, list[forms.BoundField]]]:
        return [(team, [self[n] for n in self.names(key)]) for key, team in self.teams.items()]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for key in self.teams:
            seen: set[str] = set()
            for name in self.names(key):
                pid = data.get(name)
                if pid and pid in seen:
                    self.add_error(name, _("A player sits at one place only."))
                seen.add(pid or "")
        return data

    def lineups(self) -> dict[str, Sequence[int]]:
        return {key: [int(self.cleaned_data[n]) for n in self.names(key)] for key in self.teams}


class WithdrawForm(forms.Form):
    """An officer: which team leaves the championship once it has started, and why."""

    team = forms.TypedChoiceField(label=gettext_lazy("Team"), coerce=int)
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=200)

    def __init__(self, *args: Any, teams: Sequence[Any] = (), **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "withdraw")
        super().__init__(*args, **kwargs)
        team = self.fields["team"]
        assert isinstance(team, forms.ChoiceField)
        team.choices = [(t.pk, t.name) for t in teams]


class UndoForfeitForm(forms.Form):
    """An officer: why a forfeit recorded by mistake is undone."""

    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=200)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "undo")
        super().__init__(*args, **kwargs)
