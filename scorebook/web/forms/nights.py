"""Opening a night, adding its tables and closing it."""

from typing import cast

from django import forms
from django.utils.translation import gettext_lazy as _

from scorebook.web.forms.dates import date_input


class NightForm(forms.Form):
    # A date input takes only ISO dates; the Italian input format (25/11/2026) left it empty.
    date = forms.DateField(label=_("Date"), widget=date_input())
    venue = forms.CharField(label=_("Venue"), max_length=120, required=False)


class TableForm(forms.Form):
    number = forms.IntegerField(label=_("Table number"), min_value=1, max_value=999)
    name = forms.CharField(label=_("Name (optional)"), max_length=60, required=False)


class NightCloseForm(forms.Form):
    """The close's one confirmation: the open matches the page listed (each ended as the
    page said) and the reason written on those abandoned."""

    end_open = forms.TypedMultipleChoiceField(
        coerce=int, required=False, widget=forms.MultipleHiddenInput
    )
    reason = forms.CharField(
        label=_("Why the abandoned matches stop (optional)"),
        max_length=200,
        required=False,
        help_text=_("Shown on each abandoned match's page."),
    )

    def __init__(self, *args, match_ids, **kwargs):
        super().__init__(*args, **kwargs)
        field = cast(forms.TypedMultipleChoiceField, self.fields["end_open"])
        field.choices = [(str(pk), str(pk)) for pk in match_ids]
