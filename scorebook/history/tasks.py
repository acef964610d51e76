"""The import's Celery tasks, thin wrappers: the check of an uploaded file
(``checker.check_run``), the import itself (``importer.import_run``), and the beat task
that lets old previews expire (``expiry.previews_expire``): services -> tasks ->
checker, importer, expiry, no circle."""

from __future__ import annotations

from celery import shared_task

from .checker import check_run
from .expiry import previews_expire
from .importer import import_run


@shared_task(acks_late=True, ignore_result=True)
def check_file(batch_id: int) -> None:
    """Idempotent: a check delivered twice (a worker that died) starts again from the
    kept file; once the import is a preview or refused, a second delivery does nothing."""
    check_run(batch_id)


@shared_task(acks_late=True, ignore_result=True)
def run_import(batch_id: int) -> None:
    """Idempotent: each night is skipped once imported, so a task delivered twice (a
    worker that died after a night committed) resumes where the first stopped."""
    import_run(batch_id)


@shared_task(ignore_result=True)
def expire_previews() -> int:
    """Celery beat: the previews older than IMPORT_PREVIEW_DAYS days expire."""
    return previews_expire()
