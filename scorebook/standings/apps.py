from django.apps import AppConfig


class StandingsConfig(AppConfig):
    """Leaderboards, ratings and league standings."""

    name = "scorebook.standings"
    label = "standings"
