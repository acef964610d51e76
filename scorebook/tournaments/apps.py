from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """One-night pairs tournaments: registration, pairing, rounds, standings, prizes."""

    name = "scorebook.tournaments"
    label = "tournaments"

    def ready(self) -> None:
        from scorebook.matches import services as matches

        from .selectors import night_close_waits_for

        if night_close_waits_for not in matches.NIGHT_CLOSE_CHECKS:
            matches.NIGHT_CLOSE_CHECKS.append(night_close_waits_for)
