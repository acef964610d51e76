"""The upload of a club's history (docs/import.md)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

#: How often the page asks for the import's progress, in seconds.


class ImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("File (CSV or XLSX)"),
        help_text=gettext_lazy(
            "One row per deal or per match with its final score, in the template's columns "
            "(an abandoned match with its reason in the abandoned column); at most 10 MB."
        ),
    )
