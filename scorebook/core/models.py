"""What every app shares: the audit log of writes that are not versioned rows."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class AuditEvent(models.Model):
    """Who changed what, when and why, for writes that are not versioned rows.

    The table keeps the name it had in the matches app, where the model started."""

    club = models.ForeignKey("clubs.Club", null=True, on_delete=models.PROTECT, related_name="+")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    verb = models.CharField(max_length=40)
    object_type = models.CharField(max_length=40)
    object_id = models.CharField(max_length=40)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "matches_auditevent"
        ordering = ["-at"]

    def __str__(self) -> str:
        return f"{self.verb} {self.object_type} {self.object_id}"
