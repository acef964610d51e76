"""The federation's rating (issue 34 item 5), as stored results; imported by ``models.py``.

A :class:`FederationRating` is a person's openskill rating in one game across the
federation's member clubs, replayed from the clubs' finished matches by
``ratings.federation_rerate`` (on the bulk queue, never in a request). It is derived: a
rebuild replaces every row of the federation. :class:`RatingFreshness` says when the rows
were last brought up to date and whether a change waits for the next refresh; its row is
also the lock that lets one refresh of a federation run at a time.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class FederationRating(models.Model):
    """A person's rating in one game across the federation's member clubs (Plackett-Luce,
    as the clubs' own). ``display`` is the conservative mu - 3 sigma; ``matches`` the
    rated matches behind it; ``clubs`` at how many member clubs they were played."""

    federation = models.ForeignKey(
        "federations.Federation", on_delete=models.CASCADE, related_name="ratings"
    )
    game = models.CharField(max_length=40)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="federation_ratings"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    display = models.FloatField()
    matches = models.PositiveIntegerField(default=0)
    clubs = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["federation", "game", "-display", "user_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "game", "user"], name="federation_rating_unique"
            )
        ]
        indexes = [
            models.Index(fields=["federation", "game", "-display"], name="federation_rating_page")
        ]

    def __str__(self) -> str:
        return f"{self.federation_id} {self.game} {self.user_id} {self.display:.1f}"


class RatingFreshness(models.Model):
    """When the federation's ratings were last replayed (``built_at``) and when a change
    last asked for it (``requested_at``): pending while the request is the later."""

    federation = models.OneToOneField(
        "federations.Federation", on_delete=models.CASCADE, related_name="rating_freshness"
    )
    requested_at = models.DateTimeField(null=True, blank=True)
    built_at = models.DateTimeField(null=True, blank=True)
    matches = models.PositiveIntegerField(default=0, help_text="Matches rated at the last build.")

    def __str__(self) -> str:
        return f"ratings of {self.federation_id} built {self.built_at}"

    @property
    def pending(self) -> bool:
        return self.requested_at is not None and (
            self.built_at is None or self.requested_at > self.built_at
        )
