"""What an erasure leaves behind: the pseudonym's number, who erased and when, never the
name that was erased."""

from django.conf import settings
from django.db import models

from scorebook.clubs.models import Club, Player


class Erasure(models.Model):
    """A player whose personal data was erased. The player row stays (the record's matches,
    deals, ledger and standings point at it) under the pseudonym "Erased player #n", ``n``
    counted per club; the audit log says the same, with the eraser and the time."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+")
    player = models.OneToOneField(Player, on_delete=models.PROTECT, related_name="erasure")
    number = models.PositiveIntegerField()
    #: The account that erased (a director, or the person themselves).
    erased_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    by_the_person = models.BooleanField(default=False)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "number"]
        constraints = [
            models.UniqueConstraint(fields=["club", "number"], name="erasure_number_unique")
        ]

    def __str__(self) -> str:
        return f"erased player #{self.number} ({self.club_id})"
