from django.apps import AppConfig


class LedgerConfig(AppConfig):
    """Stake entries and the settlement of a night."""

    name = "scorebook.ledger"
    label = "ledger"
