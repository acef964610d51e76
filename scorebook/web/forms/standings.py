"""A season of the standings."""

import datetime

from django import forms
from django.utils.translation import gettext_lazy as _

from scorebook.web.forms.dates import date_input


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("Name of the season"), max_length=80)
    starts_on = forms.DateField(label=_("First day"), widget=date_input())
    ends_on = forms.DateField(
        label=_("Last day (optional)"),
        required=False,
        widget=date_input(),
    )

    @staticmethod
    def initial_for(today: datetime.date) -> dict[str, object]:
        """The season a club is most likely in: September to August ("2026-27")."""
        year = today.year if today.month >= 9 else today.year - 1
        return {"name": f"{year}-{(year + 1) % 100:02d}", "starts_on": datetime.date(year, 9, 1)}
