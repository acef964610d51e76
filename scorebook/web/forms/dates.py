"""The pages' date input: ISO (a date input takes only ISO dates; the Italian input
format, 25/11/2026, left it empty) and bounded by the dates Scorebook keeps, so the
phone's date picker offers none outside them (``core.dates``; the service refuses one
in words all the same)."""

from django import forms

from scorebook.core.dates import DATE_MAX, DATE_MIN


def date_input() -> forms.DateInput:
    return forms.DateInput(
        format="%Y-%m-%d",
        attrs={"type": "date", "min": DATE_MIN.isoformat(), "max": DATE_MAX.isoformat()},
    )
