from django.apps import AppConfig


class ClubsConfig(AppConfig):
    """Clubs, members and their roles, players."""

    name = "scorebook.clubs"
    label = "clubs"
