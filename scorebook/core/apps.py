from django.apps import AppConfig


class CoreConfig(AppConfig):
    """Project-wide plumbing: the Celery app, the health check, the ``<id:...>`` route
    converter (scorebook/core/numbers.py) every route with an object's id uses."""

    name = "scorebook.core"
    label = "core"

    def ready(self) -> None:
        from django.urls import register_converter

        from scorebook import celery  # noqa: F401  (binds the Celery app to Django)
        from scorebook.core.numbers import IdConverter

        register_converter(IdConverter, "id")
