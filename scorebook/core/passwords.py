"""Django's minimum-length password check, with its message in our own catalogue.

Django 5.2's Italian catalogue lacks the plural message this validator gives ("This
password is too short..."), so an Italian user saw it in English on the join page."""

from __future__ import annotations

from django.contrib.auth import password_validation
from django.utils.translation import ngettext


class MinimumLengthValidator(password_validation.MinimumLengthValidator):
    def get_error_message(self) -> str:
        return ngettext(
            "This password is too short: it needs at least %(min_length)d character.",
            "This password is too short: it needs at least %(min_length)d characters.",
            self.min_length,
        ) % {"min_length": self.min_length}
