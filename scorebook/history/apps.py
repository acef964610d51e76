from django.apps import AppConfig


class HistoryConfig(AppConfig):
    """A club's paper years brought in: the import template, its preview and the import."""

    name = "scorebook.history"
    label = "history"
