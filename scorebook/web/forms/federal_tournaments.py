"""The federal tournaments' forms (issue 34 item 4): announcing one (officers),
registering a pair (persons), opening it (the host's director), calling it off."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scorebook.core.dates import today
from scorebook.federations.models import TournamentLevel
from scorebook.federations.services.federal_tournaments import CAP_MOST
from scorebook.matches.refusals import STAKE_CURRENCIES
from scorebook.tournaments.models import Tournament
from scorebook.web.forms.tournaments import pairs_games


def _numeric(form: forms.Form, *names: str) -> None:
    for name in names:
        form.fields[name].widget.attrs["inputmode"] = "numeric"


class AnnounceForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    host = forms.ChoiceField(label=_("Host club"))
    level = forms.ChoiceField(
        label=_("Level"), choices=TournamentLevel.choices, initial=TournamentLevel.PROVINCIAL
    )
    game = forms.ChoiceField(label=_("Game"), choices=pairs_games)
    format = forms.ChoiceField(
        label=_("Format"), choices=Tournament.Format.choices, initial=Tournament.Format.SWISS
    )
    rounds = forms.IntegerField(
        label=_("Rounds"), min_value=1, max_value=20, initial=3, help_text=_("Swiss rounds.")
    )
    cap = forms.IntegerField(
        label=_("Most pairs"),
        min_value=2,
        max_value=CAP_MOST,
        initial=16,
        help_text=_("Past it, pairs wait on a waiting list."),
    )
    fee = forms.DecimalField(
        label=_("Fee of each player"),
        min_value=0,
        max_value=10000,
        decimal_places=2,
        required=False,
    )
    federation_share = forms.DecimalField(
        label=_("The federation's share of each fee"),
        min_value=0,
        max_value=10000,
        decimal_places=2,
        required=False,
        help_text=_("Booked in the host club's ledger as what it owes the federation."),
    )
    currency = forms.ChoiceField(
        label=_("Currency"), choices=[(c, c) for c in STAKE_CURRENCIES], initial="EUR"
    )

    def __init__(self, *args: Any, clubs: Any = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        host = self.fields["host"]
        assert isinstance(host, forms.ChoiceField)
        host.choices = [(c.slug, c.name) for c in clubs]
        self.fields["date"].initial = today()
        _numeric(self, "rounds", "cap")
        for name in ("fee", "federation_share"):
            self.fields[name].widget.attrs["inputmode"] = "decimal"

    def values(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        fee = data.get("fee") or 0
        data["fee"] = fee
        data["federation_share"] = data.get("federation_share") or 0
        data["currency"] = data["currency"] if fee else ""
        data["rules"] = {}
        return data


class RegisterForm(forms.Form):
    partner = forms.CharField(
        label=_("Your partner's username"),
        max_length=150,
        help_text=_("A person of a member club, as you are."),
    )


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Why"), max_length=200)
