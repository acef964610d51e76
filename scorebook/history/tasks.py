"""The import as a Celery task: a thin wrapper that runs ``importer.import_run``."""

from __future__ import annotations

from celery import shared_task

from .importer import import_run


@shared_task(acks_late=True, ignore_result=True)
def run_import(batch_id: int) -> None:
    """Idempotent: each night is skipped once imported, so a task delivered twice (a
    worker that died after a night committed) resumes where the first stopped."""
    import_run(batch_id)
