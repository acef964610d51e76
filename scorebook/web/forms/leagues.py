"""A league's forms: its settings, entries, forfeits and their undoing, the knockout stage
after a table, a fixture's planned night, the match that counts for a fixture."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorebook.clubs.models import Club, Player
from scorebook.rules import games
from scorebook.standings.models import League
from scorebook.web.forms.dates import date_input
from scorebook.web.scores import game_name

GAME_CHOICES = [("", gettext_lazy("any game"))]


class LeagueForm(forms.ModelForm):
    class Meta:
        model = League
        fields = [
            "name", "kind", "game", "format", "seeding", "legs", "series", "series_games",
            "points_win", "points_draw", "points_loss", "points_per_game", "count_games_won",
            "forfeit_points", "withdrawals",
        ]  # fmt: skip
        labels = {
            "name": gettext_lazy("Name"),
            "kind": gettext_lazy("Entries are"),
            "game": gettext_lazy("Game"),
            "format": gettext_lazy("Format"),
            "seeding": gettext_lazy("Knockout seeds"),
            "legs": gettext_lazy("Round robin"),
            "series": gettext_lazy("A fixture is played as"),
            "series_games": gettext_lazy("Games in the series (N)"),
            "points_win": gettext_lazy("Points for a win"),
            "points_draw": gettext_lazy("Points for a draw"),
            "points_loss": gettext_lazy("Points for a loss"),
            "points_per_game": gettext_lazy("Points per game won (fixed series)"),
            "count_games_won": gettext_lazy(
                "A best of N counts points per game won, not win, draw or loss points"
            ),
            "forfeit_points": gettext_lazy("Game points per game for a forfeit's winner"),
            "withdrawals": gettext_lazy("When an entry withdraws"),
        }
        widgets = {"legs": forms.Select(choices=[(1, "1"), (2, "2")])}
        # the model's help texts are English only: the form says them in both languages,
        # or not at all where the choices say it in words
        help_texts = {
            "legs": "",
            "seeding": "",
            "points_per_game": "",
            "count_games_won": "",
            "forfeit_points": gettext_lazy("Blank: the game's target (21 in Tressette)."),
            "series_games": gettext_lazy(
                "Best of N: decided at more than N/2 games won. A knockout round left "
                "level is decided by one more game (la bella)."
            ),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"] = forms.ChoiceField(
            label=_("Game"),
            required=False,
            choices=GAME_CHOICES + [(key, game_name(key)) for key in sorted(games())],
        )
        self.fields["legs"].widget = forms.Select(
            choices=[(1, _("single")), (2, _("double (home and away)"))]
        )
        for name in OPTIONAL_WITH_DEFAULT:  # a form from before them still creates a league
            self.fields[name].required = False

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for name in OPTIONAL_WITH_DEFAULT:
            if cleaned.get(name) in (None, ""):
                field = League._meta.get_field(name)
                assert isinstance(field, models.Field)
                cleaned[name] = field.get_default()
        return cleaned


OPTIONAL_WITH_DEFAULT = ("format", "seeding", "series", "series_games", "points_per_game")


class EntryForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=80)
    players = forms.ModelMultipleChoiceField(
        label=gettext_lazy("Players"),
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, club: Club, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = self.fields["players"]
        assert isinstance(players, forms.ModelMultipleChoiceField)
        players.queryset = Player.objects.filter(club=club, active=True).order_by("name")


class ForfeitForm(forms.Form):
    fixture = forms.IntegerField(widget=forms.HiddenInput)
    entry = forms.IntegerField(label=gettext_lazy("Forfeited by"))
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=200)


class UndoForfeitForm(forms.Form):
    fixture = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=200)


class KnockoutStageForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name of the knockout"), max_length=80)
    top = forms.IntegerField(label=gettext_lazy("How many of the table go through"), min_value=2)
    series = forms.ChoiceField(
        label=gettext_lazy("A fixture is played as"), choices=League.SeriesKind.choices
    )
    series_games = forms.IntegerField(
        label=gettext_lazy("Games in the series (N)"), min_value=1, initial=1
    )


class PlanForm(forms.Form):
    fixture = forms.IntegerField(widget=forms.HiddenInput)
    day = forms.DateField(
        label=gettext_lazy("Planned for"),
        required=False,
        widget=date_input(),
    )


class LinkForm(forms.Form):
    fixture = forms.IntegerField(widget=forms.HiddenInput)
    match = forms.IntegerField(label=gettext_lazy("Match number"), min_value=1)
