"""The one way a service writes the audit log."""

from __future__ import annotations

from typing import Any

from .models import AuditEvent
from .people import User


def audit(
    *,
    club_id: int | None,
    actor: User | None,
    verb: str,
    obj: Any = None,
    object_type: str = "",
    before: Any = None,
    after: Any = None,
    reason: str = "",
) -> AuditEvent:
    """Record ``verb`` done by ``actor`` to ``obj`` (its type and id), in the caller's
    transaction, so the change and its trace commit together."""
    return AuditEvent.objects.create(
        club_id=club_id,
        actor=actor,
        verb=verb,
        object_type=object_type or type(obj).__name__.lower(),
        object_id=str(obj.pk) if obj is not None else "",
        before=before,
        after=after,
        reason=reason,
    )
