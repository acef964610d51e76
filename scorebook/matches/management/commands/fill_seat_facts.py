"""``manage.py fill_seat_facts``: write the per-seat facts (``SeatFact``) of the matches
stored before they were kept at entry, in batches with a progress bar; resumable (it
starts again from the last match that has them). The data migration
``matches.0013_fill_seat_facts`` runs the same function; this command is for an
operator who stopped it, or who wants every match's facts written again
(``--start-over``, after a change to what the facts say)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from scorebook.matches.fill import BATCH, fill
from scorebook.matches.models import Deal, Match, SeatFact


class Command(BaseCommand):
    help = "Fill the per-seat facts of stored matches (batched, resumable)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--start-over", action="store_true", help="Every match again.")
        parser.add_argument("--batch", type=int, default=BATCH, help="Matches per batch.")
        parser.add_argument("--quiet-progress", action="store_true", help="No progress bar.")

    def handle(self, *args: Any, start_over=False, batch=BATCH, quiet_progress=False, **options):
        done = fill(Match, Deal, SeatFact, start_over=start_over, quiet=quiet_progress, batch=batch)
        self.stdout.write(f"{done} matches")
