"""Opening a night and adding its tables."""

from django import forms
from django.utils.translation import gettext_lazy as _


class NightForm(forms.Form):
    # A date input takes only ISO dates; the Italian input format (25/11/2026) left it empty.
    date = forms.DateField(
        label=_("Date"), widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"})
    )
    venue = forms.CharField(label=_("Venue"), max_length=120, required=False)


class TableForm(forms.Form):
    number = forms.IntegerField(label=_("Table number"), min_value=1, max_value=999)
    name = forms.CharField(label=_("Name (optional)"), max_length=60, required=False)
