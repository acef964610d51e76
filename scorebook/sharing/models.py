"""A member's private calendar address: a token in the URL that a phone's calendar app
polls without a session (it cannot log in). The token is the only secret, so each
membership has one live token at a time, revocable: rotating it makes a new one and the
old address answers 404 from then on."""

from django.db import models
from django.db.models import Q

from scorebook.clubs.models import Membership


class CalendarFeed(models.Model):
    """A membership's calendar token; ``language`` is the member's language when they
    took the address (a calendar app sends none), for the events' words."""

    membership = models.ForeignKey(
        Membership, on_delete=models.CASCADE, related_name="calendar_feeds"
    )
    token = models.CharField(max_length=64, unique=True)
    language = models.CharField(max_length=8, default="it")
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["membership"],
                condition=Q(revoked_at__isnull=True),
                name="one_live_calendar_feed_per_membership",
            )
        ]

    def __str__(self) -> str:
        return f"calendar of {self.membership}"
