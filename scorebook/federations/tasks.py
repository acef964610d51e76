"""The federation's Celery tasks, on the bulk queue (settings.CELERY_TASK_ROUTES names
``scorebook.federations.tasks.*``): nothing here is what a table waits for."""

from __future__ import annotations

from celery import shared_task

from . import ratings


@shared_task(acks_late=True, ignore_result=True)
def refresh_federation_ratings(federation_id: int) -> int:
    """Idempotent: "bring federation F's ratings up to date". A burst of requests queues
    many of these; the first replays, the rest find the build newer than the request."""
    return ratings.federation_rerate(federation_id)


@shared_task(ignore_result=True)
def sweep_stale_federation_ratings() -> list[int]:
    """Celery beat: send the refresh of every federation whose ratings are marked stale
    (a request later than the last build), so a refresh lost with a broker that was down
    is sent again; a federation already refreshed finds nothing to do."""
    stale = ratings.stale_federations()
    for federation_id in stale:
        refresh_federation_ratings.delay(federation_id)
    return stale
