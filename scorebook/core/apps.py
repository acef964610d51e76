from django.apps import AppConfig


class CoreConfig(AppConfig):
    """Project-wide plumbing: the Celery app, the health check."""

    name = "scorebook.core"
    label = "core"

    def ready(self) -> None:
        from scorebook import celery  # noqa: F401  (binds the Celery app to Django)
