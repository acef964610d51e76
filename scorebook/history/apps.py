from django.apps import AppConfig
from django.core import checks


class HistoryConfig(AppConfig):
    """A club's paper years brought in: the import template, its preview and the import."""

    name = "scorebook.history"
    label = "history"

    def ready(self) -> None:
        from .checks import xlsx_reader_is_defused

        checks.register(xlsx_reader_is_defused)
