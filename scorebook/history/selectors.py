"""Reads of the imports: what a preview will store, in a few numbers and names."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from scorebook.clubs.models import ROLE_RANK, Membership, Role
from scorebook.core.people import Anyone

from .models import Import, ImportedNight
from .plan import summary_of


def imports_directed_by(user: Anyone) -> QuerySet[Import]:
    """The imports of the clubs where ``user`` is a director or the owner."""
    if not getattr(user, "is_authenticated", False) or user.pk is None:
        return Import.objects.none()
    roles = [r for r, rank in ROLE_RANK.items() if rank >= ROLE_RANK[Role.DIRECTOR]]
    clubs = Membership.objects.filter(user_id=user.pk, role__in=roles).values("club_id")
    return Import.objects.filter(club_id__in=clubs).select_related("club").defer("upload")


def imported_fingerprints(club_id: int) -> list[str]:
    return list(ImportedNight.objects.filter(club_id=club_id).values_list("fingerprint", flat=True))


def summary(batch: Import) -> dict[str, Any]:
    """The preview in numbers (``plan.summary_of``: nights, matches, deals, the names
    found and the guests to add...), as its check wrote them; zeros while it runs."""
    return {**summary_of([], {}), **batch.summary}
