"""What an erasure (``archive.services``, the layer above) does to the federation's
records, inside the erasure's transaction:

- a player erased in a club: every link of that player goes (the rows join the pseudonym
  to an account; the person's other clubs and numbers are theirs and stay);
- an account erased: every link of the account, its federation numbers, its offices and
  its federal tournament registrations go (its placings then name no one: the host's
  guest player made for it takes a pseudonym with its other linked players), and its rows
  of the federation's rating;
- a player erased: the championships whose public table may show one of their names (a
  team of their club's, a fixture's reason) take a new cache key before the club's free
  text is rewritten (``championships_renamed``);
- either way the federations whose ranking may name the person (``ranked``: their clubs'
  federations, those of the registrations and numbers) have their ranking's version
  bumped, and the federations whose rating it was in (or whose member club's player it
  was) replay their rating without the person (``rating_outbox``): their players count
  as anonymous entities of their clubs from then on.

The rows are deleted, not marked: a link's history names the person, and nothing else
points at it. The audit log's lines about links and numbers hold ids only.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q

from scorebook.clubs.models import Player

from . import rating_outbox
from .models import (
    Championship,
    FederalRegistration,
    FederationNumber,
    FederationRating,
    Officer,
    PersonLink,
    Visitor,
)
from .ranked import federations_reading_club, ranking_changed
from .services.championships import changed


def player_forget(player_id: int) -> int:
    """Delete every link of the player, and the guests that stood for them at other
    clubs' nights (championship fixtures) lose the player's name: each becomes "Guest
    #<id>" in its host club, the rows joining them to the player go. Returns how many
    rows went."""
    clubs = set(PersonLink.objects.filter(player_id=player_id).values_list("club_id", flat=True))
    for club_id in clubs:  # before the links and the guests go: who they moved
        rating_outbox.request_refresh(rating_outbox.federations_of_link(club_id, player_id))
    deleted, _ = PersonLink.objects.filter(player_id=player_id).delete()
    for club_id in clubs:
        ranking_changed(federations_reading_club(club_id))
    for visit in Visitor.objects.filter(player_id=player_id):
        Player.objects.filter(pk=visit.guest_id).update(name=f"Guest #{visit.guest_id}")
    gone, _ = Visitor.objects.filter(player_id=player_id).delete()
    return deleted + gone


def championships_renamed(club_id: int, names: Iterable[str]) -> None:
    """In the erasure's transaction, before the club's free text is rewritten (the archive's
    scrub: a team's name, a fixture's reason): each championship whose public table may
    show one of ``names`` (a team of the club's; a fixture whose reason holds a name)
    changes its ``version``, so that the table cached under the old key, names and all,
    is never read again (``championship_selectors.public_table``)."""
    holding = Q(teams__club_id=club_id)
    for name in names:
        holding |= Q(fixtures__reason__icontains=name)
    for pk in Championship.objects.filter(holding).values_list("pk", flat=True).distinct():
        changed(pk)


def account_forget(user_id: int) -> int:
    """Delete every link, federation number, office and federal registration of the
    account; returns how many rows went. The caller refused first an account that is a
    federation's only president (``selectors.sole_presidencies``)."""
    clubs = set(PersonLink.objects.filter(user_id=user_id).values_list("club_id", flat=True))
    rated = FederationRating.objects.filter(user_id=user_id)
    federations = set(rated.values_list("federation_id", flat=True))
    for club_id in clubs:
        federations.update(rating_outbox.federations_of_club(club_id))
    ranked = {f for club_id in clubs for f in federations_reading_club(club_id)} | federations
    ranked.update(
        FederationNumber.objects.filter(user_id=user_id).values_list("federation_id", flat=True)
    )
    ranked.update(
        FederalRegistration.objects.filter(Q(first_id=user_id) | Q(second_id=user_id)).values_list(
            "federal_tournament__federation_id", flat=True
        )
    )
    gone = 0
    for rows in (
        rated,
        PersonLink.objects.filter(user_id=user_id),
        FederationNumber.objects.filter(user_id=user_id),
        Officer.objects.filter(user_id=user_id),
        FederalRegistration.objects.filter(Q(first_id=user_id) | Q(second_id=user_id)),
    ):
        deleted, _ = rows.delete()
        gone += deleted
    rating_outbox.request_refresh(federations)
    ranking_changed(ranked)
    return gone
