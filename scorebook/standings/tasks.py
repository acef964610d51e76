"""Celery tasks that keep the standings fresh (see ``outbox`` and ``refresh``)."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from . import refresh


@shared_task(bind=True, acks_late=True, max_retries=60, ignore_result=True)
def refresh_standings(self, club_id: int) -> int:
    """Idempotent: "bring club C's standings up to date". Coalesces: a burst of deals
    queues many of these, but whichever runs first handles every mark then present, and
    the rest find nothing left to do. If another worker is rebuilding the club, try again
    in a second (its rebuild may have started before this task's mark was committed)."""
    try:
        return refresh.club_refresh(club_id)
    except refresh.Busy as busy:
        if settings.CELERY_TASK_ALWAYS_EAGER:
            return 0
        raise self.retry(countdown=1) from busy


@shared_task(ignore_result=True)
def sweep_stale_standings() -> list[int]:
    """Celery beat: schedule a refresh for every club with a mark no task handled."""
    clubs = refresh.stale_clubs(older_than_seconds=settings.STANDINGS_SWEEP_AFTER)
    for club_id in clubs:
        refresh_standings.delay(club_id)
    return clubs
