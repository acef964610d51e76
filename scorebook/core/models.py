"""What every app shares: the audit log of writes that are not versioned rows, and the
store of Idempotency-Keys (the API's and the pages' saves, see ``core.idempotency``)."""

from __future__ import annotations

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
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


class IdempotencyKey(models.Model):
    """A POST's Idempotency-Key with the first response, replayed on a retry.

    The table keeps the name it had in the matches app, where the model started (then
    the api app; core since the pages use it too)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    method = models.CharField(max_length=8)
    path = models.CharField(max_length=255)
    body_hash = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField(null=True)
    response = models.JSONField(null=True, encoder=DjangoJSONEncoder)
    #: The answer's headers a retry must see again (ETag, Location).
    headers = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "matches_idempotencykey"
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_unique")
        ]

    def __str__(self) -> str:
        return f"{self.method} {self.path} {self.key}"
