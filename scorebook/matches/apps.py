from django.apps import AppConfig


class MatchesConfig(AppConfig):
    """Club nights, tables, matches, deals, corrections and confirmations."""

    name = "scorebook.matches"
    label = "matches"
