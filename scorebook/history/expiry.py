"""Previews expire: a file checked but not accepted within IMPORT_PREVIEW_DAYS days
loses what its check kept (docs/import.md). The beat task ``tasks.expire_previews`` runs
``previews_expire``; ``services.import_accept`` refuses an expired preview in words."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorebook.core.refusals import Refusal

from .models import Import


class PreviewExpired(Refusal):
    code = "import.expired"
    status = 409
    message = _(
        "This preview has expired (a preview not accepted is kept %(days)s days): upload "
        "the file again to check it and import it."
    )


def previews_expire(*, now: datetime | None = None) -> int:
    """Celery beat (``tasks.expire_previews``): the previews not accepted within
    IMPORT_PREVIEW_DAYS days (and refused files, and checks a lost worker left) lose
    their content (the planned matches, the names, the problems, the upload) and stay
    listed as expired; accepting one is refused in words. An import accepted meanwhile
    (its row locked by the acceptance, or no longer a preview) is not touched. How
    many expired."""
    cutoff = (now or timezone.now()) - timedelta(days=settings.IMPORT_PREVIEW_DAYS)
    waiting = (Import.Status.PREVIEW, Import.Status.REFUSED, Import.Status.CHECKING)
    found = Import.objects.filter(status__in=waiting, created_at__lt=cutoff)
    expired = 0
    for pk in list(found.values_list("pk", flat=True)):
        with transaction.atomic():
            batch = (
                Import.objects.select_for_update(skip_locked=True)
                .filter(pk=pk, status__in=waiting)
                .first()
            )
            if batch is None:
                continue
            batch.planned.all().delete()
            numbers = {k: v for k, v in batch.summary.items() if k not in ("players", "guests")}
            Import.objects.filter(pk=pk).update(
                status=Import.Status.EXPIRED, plan={}, summary=numbers, upload=None
            )
            expired += 1
    return expired
