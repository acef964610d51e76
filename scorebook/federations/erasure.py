"""What an erasure (``archive.services``, the layer above) does to the federation's
records, inside the erasure's transaction:

- a player erased in a club: every link of that player goes (the rows join the pseudonym
  to an account; the person's other clubs and numbers are theirs and stay);
- an account erased: every link of the account, its federation numbers and its offices go.

The rows are deleted, not marked: a link's history names the person, and nothing else
points at it. The audit log's lines about links and numbers hold ids only.
"""

from __future__ import annotations

from .models import FederationNumber, Officer, PersonLink


def player_forget(player_id: int) -> int:
    """Delete every link of the player; returns how many went."""
    deleted, _ = PersonLink.objects.filter(player_id=player_id).delete()
    return deleted


def account_forget(user_id: int) -> int:
    """Delete every link, federation number and office of the account; returns how many
    rows went. The caller refused first an account that is a federation's only
    president (``selectors.sole_presidencies``)."""
    gone = 0
    for rows in (
        PersonLink.objects.filter(user_id=user_id),
        FederationNumber.objects.filter(user_id=user_id),
        Officer.objects.filter(user_id=user_id),
    ):
        deleted, _ = rows.delete()
        gone += deleted
    return gone
