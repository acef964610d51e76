"""Reads of the imports: what a preview will store, in a few numbers and names."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from scorebook.clubs.models import ROLE_RANK, Membership, Role
from scorebook.core.people import Anyone

from .models import Import, ImportedNight


def imports_directed_by(user: Anyone) -> QuerySet[Import]:
    """The imports of the clubs where ``user`` is a director or the owner."""
    if not getattr(user, "is_authenticated", False) or user.pk is None:
        return Import.objects.none()
    roles = [r for r, rank in ROLE_RANK.items() if rank >= ROLE_RANK[Role.DIRECTOR]]
    clubs = Membership.objects.filter(user_id=user.pk, role__in=roles).values("club_id")
    return Import.objects.filter(club_id__in=clubs).select_related("club")


def imported_fingerprints(club_id: int) -> list[str]:
    return list(ImportedNight.objects.filter(club_id=club_id).values_list("fingerprint", flat=True))


def summary(batch: Import) -> dict[str, Any]:
    """The preview in numbers: nights (new and already imported), matches (those recorded
    by their final score, those abandoned), deals, the
    names matched to the club's players and the guests to add, the years covered."""
    nights = batch.plan.get("nights", [])
    new = [n for n in nights if not n.get("already")]
    players = batch.plan.get("players", {})
    years = sorted({n["date"][:4] for n in new})
    return {
        "nights": len(new),
        "nights_already": len(nights) - len(new),
        "matches": sum(len(n["matches"]) for n in new),
        "deals": sum(n["deals"] for n in new),
        "final_scores": sum(1 for n in new for m in n["matches"] if m.get("final") is not None),
        "abandoned": sum(1 for n in new for m in n["matches"] if m.get("abandoned") is not None),
        "first": new[0]["date"] if new else None,
        "last": new[-1]["date"] if new else None,
        "years": years,
        "players": sorted(name for name, pk in players.items() if pk is not None),
        "guests": sorted(name for name, pk in players.items() if pk is None),
    }
