from django.apps import AppConfig


class WebConfig(AppConfig):
    """The phone-first pages."""

    name = "scorebook.web"
    label = "web"
