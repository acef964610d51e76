"""Who may do what: the caller's role in the club that owns the object."""

from typing import Any

from rest_framework.permissions import SAFE_METHODS, BasePermission

from scorebook.clubs.models import Club
from scorebook.clubs.selectors import membership_of
from scorebook.clubs.services import NotAllowed


def club_id_of(obj: Any) -> int:
    if isinstance(obj, Club):
        return int(obj.pk)
    paths = ("club_id", "night.club_id", "match.night.club_id", "settlement.night.club_id")
    for path in (*paths, "league.club_id"):
        target = obj
        try:
            for part in path.split("."):
                target = getattr(target, part)
        except AttributeError:
            continue
        return int(target)
    raise AttributeError(f"{obj!r} has no club")


class ClubRole(BasePermission):
    """Reads need membership; writes need ``write_role`` (set on the view), refused as the
    services refuse (``NotAllowed``: the role needed, in the request's language)."""

    def has_object_permission(self, request: Any, view: Any, obj: Any) -> bool:
        membership = membership_of(request.user, club_id_of(obj))
        if membership is None:
            return False
        if request.method in SAFE_METHODS:
            return True
        role = getattr(view, "write_role", "director")
        if not membership.at_least(role):
            raise NotAllowed(role)
        return True
