from django.apps import AppConfig


class ArchiveConfig(AppConfig):
    """Exports of a club's record and of a person's data, and erasure of a person."""

    name = "scorebook.archive"
    label = "archive"
