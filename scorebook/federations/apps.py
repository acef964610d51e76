from django.apps import AppConfig


class FederationsConfig(AppConfig):
    """Federations, their officers and member clubs, a person across clubs (person links),
    federation numbers."""

    name = "scorebook.federations"
    label = "federations"
