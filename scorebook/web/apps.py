from django.apps import AppConfig


class WebConfig(AppConfig):
    """The phone-first pages."""

    name = "scorebook.web"
    label = "web"

    def ready(self) -> None:
        from scorebook.archive.services import account_erased

        account_erased.connect(_drop_pin, dispatch_uid="web.drop_pin_of_erased_account")


def _drop_pin(sender, user, **kwargs) -> None:
    """An erased account's table PIN goes with it (the pages keep it; the erasure below
    them cannot name it)."""
    from .models import TablePin

    TablePin.objects.filter(user=user).delete()
