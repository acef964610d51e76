from django.apps import AppConfig


class ApiConfig(AppConfig):
    """The REST API, and what only the API needs stored: Idempotency-Keys."""

    name = "api"
    label = "api"
