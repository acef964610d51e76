"""Reads of the federal tournaments and the federation ranking (issue 34 items 4 and 5).

A federal tournament's **placings** are read from the host's own tournament once it is
finished (``tournaments.selectors.final_places``): each pair's place, the field (the pairs
entered) and the federal points of the place (``points.federal_points``), given to the two
persons of the pair (the registered persons; for a pair the host entered at the door, the
persons its players are linked to). A correction of a deal shows at once.

The **ranking** sums each person's points over the federation's tournaments played in the
twelve months up to a day (``WINDOW_DAYS``): by points, then by the best single result,
then by username; persons level on both share the position.

The ranking pages, their CSV and PDF and the API read ``board``: the ranking of today and
the rating's table, kept in Django's cache under a key that changes with every row they
are computed from (``board_key``): the federation's ``ranking_version`` (bumped by every
write of the federation's own inputs, in the write's transaction: ``ranked``), the hosts'
finished tournaments in the window with their matches (how many, the sum of their ids
and of their ``version``: a finish, a correction), the rating's ``RatingFreshness`` row
(a change asks for a replay there; the replay writes the rows and ``built_at`` in one
transaction) and the day. The key is read before the rows, so a read never sees a
ranking older than the rows it read the key from.
"""

from __future__ import annotations

import datetime
import hashlib
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models import Count, QuerySet, Sum

from scorebook.core import dates
from scorebook.core.people import Anyone
from scorebook.matches.models import Night
from scorebook.tournaments import selectors as tournaments
from scorebook.tournaments.models import Tournament

from . import points, ratings, selectors
from .federal_models import FederalRegistration, FederalTournament
from .models import Federation, FederationNumber
from .rating_models import RatingFreshness

#: The ranking's window: the tournaments of the last twelve months, the day itself included.
WINDOW_DAYS = 365


def federal_tournaments(federation: Federation | int) -> QuerySet[FederalTournament]:
    """The federation's tournaments, the latest first, with their hosts."""
    return (
        FederalTournament.objects.filter(federation=federation)
        .select_related("host", "tournament")
        .order_by("-date", "-id")
    )


def registrations(federal: FederalTournament) -> QuerySet[FederalRegistration]:
    """Every registration of the tournament, in the order they came (live ones first)."""
    order = ["status", "created_at", "id"]
    return federal.registrations.select_related("first", "second").order_by(*order)


def registrations_of(user: Anyone, federal: FederalTournament) -> list[FederalRegistration]:
    """The user's own live registrations in the tournament (at most one)."""
    if not getattr(user, "is_authenticated", False):
        return []
    live = federal.registrations.filter(status__in=FederalRegistration.LIVE)
    return [r for r in live if user.pk in (r.first_id, r.second_id)]


def waiting_position(registration: FederalRegistration) -> int | None:
    """A waiting pair's place on the waiting list (1: next in)."""
    if registration.status != FederalRegistration.Status.WAITING:
        return None
    ahead = FederalRegistration.objects.filter(
        federal_tournament_id=registration.federal_tournament_id,
        status=FederalRegistration.Status.WAITING,
        created_at__lte=registration.created_at,
        id__lt=registration.pk,
    ).count()
    return ahead + 1


def is_finished(federal: FederalTournament) -> bool:
    return federal.tournament is not None and federal.tournament.status == (
        Tournament.Status.FINISHED
    )


@dataclass
class Placing:
    place: int
    name: str
    persons: list[Any]
    points: int


def placings(federal: FederalTournament) -> tuple[int, list[Placing]]:
    """(the field, each pair's placing) of a finished tournament; (0, []) before."""
    if not is_finished(federal):
        return 0, []
    assert federal.tournament is not None
    places = tournaments.final_places(federal.tournament)
    entries = {e.pk: e for e in tournaments.entries_of(federal.tournament)}
    size = sum(len(ids) for _, ids in places)
    registered = {
        r.entry_id: [r.first_id, r.second_id]
        for r in federal.registrations.filter(entry__isnull=False)
    }
    door = [e for pk, e in entries.items() if pk not in registered]
    linked = selectors.persons_of_players([p for e in door for p in (e.first_id, e.second_id)])
    ids: dict[int, list[int]] = {}
    for entry in entries.values():
        ids[entry.pk] = registered.get(entry.pk) or [
            linked[p] for p in (entry.first_id, entry.second_id) if p in linked
        ]
    users = get_user_model().objects.in_bulk({u for each in ids.values() for u in each})
    out = []
    for place, entry_ids in places:
        for pk in entry_ids:
            out.append(
                Placing(
                    place=place,
                    name=entries[pk].name if pk in entries else "",
                    persons=[users[u] for u in ids.get(pk, []) if u in users],
                    points=points.federal_points(federal.level, size, place),
                )
            )
    return size, out


@dataclass
class Result:
    federal: FederalTournament
    place: int
    field: int
    points: int


@dataclass
class RankRow:
    position: int
    user: Any
    number: int | None
    points: int
    best: int
    results: list[Result] = field(default_factory=list)


def window(as_of: datetime.date | None = None) -> tuple[datetime.date, datetime.date]:
    """The first and last day the ranking counts (the last: ``as_of``, default today in the
    installation's zone, whatever zone the request has active: ``dates.today``)."""
    last = as_of or dates.today()
    return last - datetime.timedelta(days=WINDOW_DAYS - 1), last


def counted(
    federation: Federation | int, first: datetime.date, last: datetime.date
) -> QuerySet[FederalTournament]:
    """The tournaments the ranking counts from ``first`` to ``last``: opened, and their
    host's tournament finished."""
    return federal_tournaments(federation).filter(
        date__gte=first,
        date__lte=last,
        status=FederalTournament.Status.OPENED,
        tournament__status=Tournament.Status.FINISHED,
    )


def results(
    federation: Federation | int, as_of: datetime.date | None = None
) -> dict[int, list[Result]]:
    """Each person's results in the window: account id -> results, the latest first."""
    found: dict[int, list[Result]] = {}
    for federal in counted(federation, *window(as_of)):
        size, placed = placings(federal)
        for p in placed:
            for person in p.persons:
                found.setdefault(person.pk, []).append(Result(federal, p.place, size, p.points))
    return found


def ranking(federation: Federation, as_of: datetime.date | None = None) -> list[RankRow]:
    """The federation ranking on ``as_of`` (default today): every person with points in
    the window, by points, then best result, then username; ties share the position."""
    found = results(federation, as_of)
    users = get_user_model().objects.in_bulk(list(found))
    numbers = dict(
        FederationNumber.objects.filter(federation=federation, user_id__in=list(found)).values_list(
            "user_id", "number"
        )
    )
    rows = [
        RankRow(
            position=0,
            user=users[pk],
            number=numbers.get(pk),
            points=sum(r.points for r in rs),
            best=max(r.points for r in rs),
            results=rs,
        )
        for pk, rs in found.items()
        if pk in users and any(r.points for r in rs)
    ]
    rows.sort(key=lambda r: (-r.points, -r.best, r.user.username))
    for i, row in enumerate(rows):
        level = i > 0 and (rows[i - 1].points, rows[i - 1].best) == (row.points, row.best)
        row.position = rows[i - 1].position if level else i + 1
    return rows


#: how long a board stays in the cache unread (any change makes a new key)
BOARD_SECONDS = 24 * 3600

#: The published points table in the key too: a deploy that changes it (or any deploy
#: that names itself with BUILD_ID) computes the boards afresh instead of serving the old.
POINTS_TABLE = hashlib.blake2b(
    repr((points.FIRST_PLACE, points.FIELD_TENTHS)).encode(), digest_size=4
).hexdigest()


@dataclass
class Board:
    """What a ranking page shows: the window, the ranking, the rating's table and whether
    a replay of the rating is pending."""

    first: datetime.date
    last: datetime.date
    rows: list[RankRow]
    rating_rows: list[ratings.RatingRow]
    freshness: RatingFreshness | None


def board_key(
    federation: Federation, fresh: RatingFreshness | None, first: datetime.date, last: datetime.date
) -> str:
    """The cache key of the federation's board (one query beside the rating's row):
    ``federation`` as read in this request, before the board."""
    hosts = Tournament.objects.filter(
        pk__in=counted(federation, first, last).values("tournament_id")
    ).aggregate(
        t=Count("pk", distinct=True),
        ts=Sum("pk", distinct=True),
        n=Count("round_set__pairings__games"),
        m=Sum("round_set__pairings__games__match_id"),
        v=Sum("round_set__pairings__games__match__version"),
    )
    rating = (
        f"{fresh.requested_at and fresh.requested_at.isoformat()}"
        f"/{fresh.built_at and fresh.built_at.isoformat()}"
        if fresh
        else "-"
    )
    return (
        f"federation-ranking:{POINTS_TABLE}:{settings.BUILD_ID}"
        f":{federation.pk}:{federation.ranking_version}:{last.isoformat()}"
        f":{rating}:{hosts['t']}:{hosts['ts'] or 0}:{hosts['n']}:{hosts['m'] or 0}"
        f":{hosts['v'] or 0}"
    )


def board(federation: Federation) -> Board:
    """The ranking of today and the rating's table, from the cache when nothing they are
    computed from has changed (``board_key``); ``federation`` as read in this request."""
    first, last = window()
    fresh = ratings.freshness(federation)
    key = board_key(federation, fresh, first, last)
    found = cache.get(key)
    if found is None:
        found = (ranking(federation, last), ratings.table(federation))
        cache.set(key, found, BOARD_SECONDS)
    return Board(first, last, found[0], found[1], fresh)


def person_history(federation: Federation, user_id: int) -> list[Result]:
    """Every result of the person at the federation's finished tournaments (all time,
    latest first); ``window`` says which count in the ranking."""
    rows = federal_tournaments(federation).filter(
        status=FederalTournament.Status.OPENED, tournament__status=Tournament.Status.FINISHED
    )
    out = []
    for federal in rows:
        size, placed = placings(federal)
        for p in placed:
            if any(person.pk == user_id for person in p.persons):
                out.append(Result(federal, p.place, size, p.points))
    return out


def host_nights(federal: FederalTournament) -> QuerySet[Night]:
    """The host's nights still open on the tournament's date (where it may be opened)."""
    return Night.objects.filter(
        club_id=federal.host_id, date=federal.date, status=Night.Status.OPEN
    ).order_by("id")


def is_person(federation: Federation, user: Anyone) -> bool:
    """Whether the user is a person of a member club (may register)."""
    if not getattr(user, "is_authenticated", False):
        return False
    return selectors.persons_of(federation).filter(pk=user.pk).exists()
