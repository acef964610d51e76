"""What the API stores for itself."""

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models


class IdempotencyKey(models.Model):
    """A POST's Idempotency-Key with the first response, replayed on a retry.

    The table keeps the name it had in the matches app, where the model started."""

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
