"""The federation ranking's version (``Federation.ranking_version``): every write of the
ranking's own inputs bumps it in its own transaction, so that the ranking kept in the
cache (``ranking.board``) is never read past a change. The inputs and who writes them:

- the federal tournaments and their registrations' entries (``services.federal_tournaments``:
  opened, called off, the host's tournament called off);
- the persons a door pair's players are (person links accepted or removed:
  ``services.links``, and the host's opening, which accepts links);
- the federation numbers shown beside each person (``services.numbers``);
- an erasure (``erasure``: links, numbers, registrations and ratings go).

The rest of the key is read, not bumped: the hosts' finished tournaments and their
matches' ``version`` (the tournaments app cannot import this one: a result, a correction,
a finish), the rating's ``RatingFreshness`` row (a change asks for a replay there, the
replay writes its rows and ``built_at`` in one transaction) and the day (the window)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import F

from .federal_models import FederalTournament
from .models import Affiliation, Federation


def ranking_changed(federation_ids: Iterable[int]) -> None:
    """In the caller's transaction: the federations' rankings changed (their version is
    bumped, after the caller's own writes: the federation's row is locked last)."""
    ids = sorted(set(federation_ids))
    if ids:
        Federation.objects.filter(pk__in=ids).update(ranking_version=F("ranking_version") + 1)


def federations_reading_club(club_id: int) -> list[int]:
    """The federations whose ranking a club's players may be in: those it belongs to now
    and those whose tournaments it hosted (a club that left keeps its placings there)."""
    member = Affiliation.objects.filter(club_id=club_id, left_at__isnull=True)
    hosted = FederalTournament.objects.filter(host_id=club_id)
    return sorted(
        set(member.values_list("federation_id", flat=True))
        | set(hosted.values_list("federation_id", flat=True))
    )
