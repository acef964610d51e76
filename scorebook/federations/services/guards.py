"""The checks every federation write makes first: the caller's office, the federation's
row locked."""

from __future__ import annotations

from scorebook.core.people import User

from ..models import Federation, Officer
from ..refusals import OfficerRequired
from ..selectors import officer_of


def require_officer(user: User, federation_id: int, role: str) -> Officer:
    """The caller's office in the federation, refused unless it is ``role`` or higher."""
    office = officer_of(user, federation_id)
    if office is None or not office.at_least(role):
        raise OfficerRequired(role)
    return office


def locked(federation: Federation | int) -> Federation:
    """The federation's row, locked: its officers' and numbers' writes go one at a time."""
    pk = federation.pk if isinstance(federation, Federation) else federation
    return Federation.objects.select_for_update().get(pk=pk)
