"""An import of a club's past nights: the preview a director accepts, and the nights it
stored (each known by the fingerprint of its rows, so no night is imported twice)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from scorebook.clubs.models import Club
from scorebook.matches.models import Night


class Import(models.Model):
    """One uploaded file: its check (a task, ``checker.check_run``, reading the file kept
    in ``upload`` until then), its preview (``plan``: the nights, the names and the
    guests to add, or the problems found; ``summary``: the preview in numbers; the
    matches themselves are :class:`PlannedMatch` rows), then the import's progress and
    outcome. A preview not accepted expires (``services.previews_expire``)."""

    class Status(models.TextChoices):
        CHECKING = "checking", "checking"
        REFUSED = "refused", "refused"
        EXPIRED = "expired", "expired"
        PREVIEW = "preview", "preview"
        QUEUED = "queued", "queued"
        RUNNING = "running", "running"
        DONE = "done", "done"
        FAILED = "failed", "failed"
        UNDONE = "undone", "undone"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    filename = models.CharField(max_length=200, blank=True)
    file_hash = models.CharField(max_length=64)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.CHECKING)
    plan = models.JSONField(default=dict)
    summary = models.JSONField(default=dict, blank=True)
    #: The uploaded file, kept only until its check has read it.
    upload = models.BinaryField(null=True, blank=True, editable=False)
    #: The check's progress: rows read, of about how many.
    rows_done = models.PositiveIntegerField(default=0)
    rows_total = models.PositiveIntegerField(default=0)
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
        """The check's progress while it runs (rows), the import's afterwards (nights)."""
        if self.status == self.Status.CHECKING:
            if not self.rows_total:
                return 0
            return min(99, round(100 * self.rows_done / self.rows_total))
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


class PlannedMatch(models.Model):
    """A match of a preview, as the check found it (plain JSON: table, number, game,
    rules, seats, first dealer, stake, currency, its rows, deals, final score,
    abandoned): what the import will store, a night at a time. Deleted with its preview
    when it expires, and once the import is done."""

    batch = models.ForeignKey(Import, on_delete=models.CASCADE, related_name="planned")
    date = models.DateField()
    table = models.PositiveIntegerField()
    number = models.PositiveIntegerField()
    data = models.JSONField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["batch", "date", "table", "number"], name="planned_match_once"
            )
        ]

    def __str__(self) -> str:
        return f"match {self.date} {self.table}/{self.number} of import {self.batch_id}"
