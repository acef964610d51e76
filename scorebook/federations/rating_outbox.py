"""The federation's rating kept fresh (``ratings``): a change that moves it marks the
federation in the caller's transaction (``RatingFreshness.requested_at``) and queues its
replay on the bulk queue once the transaction commits (``tasks``: outbox -> tasks ->
ratings, as the standings' outbox does). With no broker the replay runs there and then;
with one that is down the mark stays and ``tasks.sweep_stale_federation_ratings`` sends it."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from scorebook.matches.models import Match

from . import tasks
from .championship_models import Visitor
from .models import Affiliation
from .rating_models import RatingFreshness
from .ratings import persons_of

logger = logging.getLogger(__name__)


def request_refresh(federation_ids: Iterable[int]) -> None:
    """In the caller's transaction: the federations' ratings are stale; their refresh is
    queued (bulk queue) once it commits (run there and then with no broker)."""
    ids = sorted(set(federation_ids))
    if not ids:
        return
    now = timezone.now()
    for federation_id in ids:
        RatingFreshness.objects.update_or_create(
            federation_id=federation_id, defaults={"requested_at": now}
        )

    def send() -> None:
        for federation_id in ids:
            if settings.CELERY_TASK_ALWAYS_EAGER:
                tasks.refresh_federation_ratings.apply((federation_id,), throw=True)
                continue
            try:  # no publish retries: a request that committed does not wait on a broker
                tasks.refresh_federation_ratings.apply_async((federation_id,), retry=False)
            except Exception:  # the broker is down: the change is committed, marked pending
                logger.warning(
                    "federation %s: rating refresh not queued; the sweeper sends it",
                    federation_id,
                    exc_info=True,
                )

    transaction.on_commit(send)


def federations_of_club(club_id: int) -> list[int]:
    """The federations the club belongs to now."""
    rows = Affiliation.objects.filter(club_id=club_id, left_at__isnull=True)
    return sorted(rows.values_list("federation_id", flat=True))


def federations_of_link(club_id: int, player_id: int | None) -> list[int]:
    """The federations whose rating a link of ``player_id`` at ``club_id`` moves (made,
    removed, erased): the club's, and those of every club that seated the player as a
    championship guest (``Visitor``), whose matches count the person through the link
    even when the player's own club is not, or no longer, a member."""
    hosts: list[int] = []
    if player_id is not None:
        hosts = list(Visitor.objects.filter(player_id=player_id).values_list("club_id", flat=True))
    rows = Affiliation.objects.filter(club_id__in=[club_id, *hosts], left_at__isnull=True)
    return sorted(set(rows.values_list("federation_id", flat=True)))


def club_rated(club_id: int, match_ids: Sequence[int]) -> None:
    """The standings' registry member (``standings.rated.AFTER_RATING``): the club's
    ratings were replayed from these matches (finished, corrected, gone). When the club
    belongs to a federation and one of the matches seats a linked person, the
    federation's ratings are stale."""
    federations = federations_of_club(club_id)
    if not federations or not match_ids:
        return
    persons = persons_of([club_id])
    if not persons:
        return
    seated = Match.objects.filter(pk__in=list(match_ids)).values_list("seats", flat=True)
    if any(int(p) in persons for seats in seated for p in (seats or {}).values()):
        request_refresh(federations)
