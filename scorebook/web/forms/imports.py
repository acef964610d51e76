"""The upload of a club's history (docs/import.md)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

from scorebook.history.template import max_bytes


class ImportForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("File (CSV or XLSX)"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        size = f"{max_bytes() / (1024 * 1024):.1f}".rstrip("0").rstrip(".")
        self.fields["file"].help_text = format_lazy(
            gettext_lazy(
                "One row per deal or per match with its final score, in the template's "
                "columns (an abandoned match with its reason in the abandoned column); at "
                "most {} MB."
            ),
            size,
        )
