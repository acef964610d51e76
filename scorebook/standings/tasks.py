"""Celery tasks that keep the standings fresh (see ``outbox`` and ``refresh``).

Two queues (settings.CELERY_TASK_ROUTES, deploy/RUNBOOK.md): ``refresh_standings``, what
each deal entry sets going, on the entry queue; ``rebuild_standings`` (a whole club's
rebuild from the deal log) on the bulk queue beside the imports, so a long rebuild never
holds up the standings a table is waiting for.
"""

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


@shared_task(acks_late=True, ignore_result=True)
def rebuild_standings(club_id: int) -> int:
    """Idempotent: "rebuild club C if a mark asks for its whole rebuild"; a second
    delivery (the sweeper sends one while the mark waits) finds nothing left to do."""
    return refresh.bulk_refresh(club_id)


@shared_task(ignore_result=True)
def sweep_stale_standings() -> list[int]:
    """Celery beat: schedule the refresh or the rebuild, each on its queue, for every
    club with a mark no task handled (the broker was down, a worker died)."""
    entry = refresh.stale_clubs(older_than_seconds=settings.STANDINGS_SWEEP_AFTER)
    bulk = refresh.stale_clubs(older_than_seconds=settings.STANDINGS_SWEEP_AFTER, bulk=True)
    for club_id in entry:
        refresh_standings.delay(club_id)
    for club_id in bulk:
        rebuild_standings.delay(club_id)
    return sorted({*entry, *bulk})
