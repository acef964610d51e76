"""An import of a club's past nights: the preview a director accepts, and the nights it
stored (each known by the fingerprint of its rows, so no night is imported twice)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from scorebook.clubs.models import Club
from scorebook.matches.models import Night


class Import(models.Model):
    """One uploaded file: its preview (``plan``: the nights, matches and deals the engine
    accepted, the names and the guests to add), then the import's progress and outcome."""

    class Status(models.TextChoices):
        PREVIEW = "preview", "preview"
        QUEUED = "queued", "queued"
        RUNNING = "running", "running"
        DONE = "done", "done"
        FAILED = "failed", "failed"
        UNDONE = "undone", "undone"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    filename = models.CharField(max_length=200, blank=True)
    file_hash = models.CharField(max_length=64)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PREVIEW)
    plan = models.JSONField(default=dict)
    nights_total = models.PositiveIntegerField(default=0)
    nights_done = models.PositiveIntegerField(default=0)
    deals_total = models.PositiveIntegerField(default=0)
    #: Players the import added as guests, and player accounts its ledger opened: what
    #: an undo removes besides the nights.
    guests = models.JSONField(default=list, blank=True)
    accounts = models.JSONField(default=list, blank=True)
    error = models.TextField(blank=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    undone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"import {self.pk} of {self.club_id} ({self.status})"

    @property
    def percent(self) -> int:
        if not self.nights_total:
            return 100 if self.status == self.Status.DONE else 0
        return min(100, round(100 * self.nights_done / self.nights_total))


class ImportedNight(models.Model):
    """A night an import stored, by the fingerprint of its rows: one per club, so the same
    night in a later file is skipped. Deleted with its night by an undo."""

    batch = models.ForeignKey(Import, on_delete=models.CASCADE, related_name="nights")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    night = models.OneToOneField(Night, on_delete=models.CASCADE, related_name="imported")
    fingerprint = models.CharField(max_length=64)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "fingerprint"], name="night_imported_once")
        ]

    def __str__(self) -> str:
        return f"night {self.night_id} from import {self.batch_id}"
