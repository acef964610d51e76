from django.apps import AppConfig


class SharingConfig(AppConfig):
    """The club's results outside the app: share texts, calendar feeds, notice-board PDFs."""

    name = "scorebook.sharing"
    label = "sharing"
