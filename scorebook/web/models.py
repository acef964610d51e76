"""What the pages keep for themselves."""

from django.conf import settings
from django.db import models


class TablePin(models.Model):
    """A short PIN a player types on another player's phone to confirm a deal there (the
    phone handed across the table). Stored hashed, like a password; a run of wrong tries
    locks it until the owner sets it again."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_pin"
    )
    pin_hash = models.CharField(max_length=128)
    failures = models.PositiveSmallIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"PIN of {self.user}"
