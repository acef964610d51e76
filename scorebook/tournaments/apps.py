from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """One-night pairs tournaments: registration, pairing, rounds, standings, prizes."""

    name = "scorebook.tournaments"
    label = "tournaments"
