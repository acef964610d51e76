"""Who may do what: the caller's role in the club that owns the object."""

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework.permissions import SAFE_METHODS, BasePermission

from scorebook.clubs.models import Club
from scorebook.clubs.selectors import membership_of


def club_id_of(obj: Any) -> int:
    if isinstance(obj, Club):
        return int(obj.pk)
    for path in ("club_id", "night.club_id", "match.night.club_id", "settlement.night.club_id"):
        target = obj
        try:
            for part in path.split("."):
                target = getattr(target, part)
        except AttributeError:
            continue
        return int(target)
    raise AttributeError(f"{obj!r} has no club")


ROLE_NAMES = {
    "owner": gettext_lazy("owner"),
    "director": gettext_lazy("director"),
    "scorer": gettext_lazy("scorer"),
    "member": gettext_lazy("member"),
    "seated player": gettext_lazy("player seated at this match"),
}


def needs_role(role: str) -> str:
    name = ROLE_NAMES.get(role, role)
    return _("This needs the %(role)s role in this club.") % {"role": name}


class ClubRole(BasePermission):
    """Reads need membership; writes need ``write_role`` (set on the view)."""

    def has_object_permission(self, request: Any, view: Any, obj: Any) -> bool:
        membership = membership_of(request.user, club_id_of(obj))
        if membership is None:
            return False
        if request.method in SAFE_METHODS:
            return True
        return membership.at_least(getattr(view, "write_role", "director"))
