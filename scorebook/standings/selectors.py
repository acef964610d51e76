"""Reads shared by the standings, the ratings, the leagues and the player statistics.

What a match and a deal mean per player (who won, the points for and against, who made
an event, who bid what) is read from the stored, engine-derived JSON in one place,
``scorebook.matches.facts`` (re-exported here), so every table counts the same way; the
services store its answers per seat at entry (``matches.SeatFact``) for the full rebuild.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db.models import F, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from scorebook.matches.facts import (  # the seat readers live beside the facts they fill
    DealFacts as DealFacts,
)
from scorebook.matches.facts import (
    Seated as Seated,
)
from scorebook.matches.facts import (
    SeatResult as SeatResult,
)
from scorebook.matches.facts import (
    deal_facts as deal_facts,
)
from scorebook.matches.facts import (
    is_race as is_race,
)
from scorebook.matches.facts import (
    match_results as match_results,
)
from scorebook.matches.facts import (
    seats_in_order as seats_in_order,
)
from scorebook.matches.facts import (
    sides_of as sides_of,
)
from scorebook.matches.models import Deal, Match

from . import columns
from .models import Season


def season_of(club_id: int, day: date) -> Season | None:
    """The club's season that holds ``day`` (the latest-starting one if they overlap)."""
    return (
        Season.objects.filter(club_id=club_id, starts_on__lte=day)
        .filter(Q(ends_on__isnull=True) | Q(ends_on__gte=day))
        .order_by("-starts_on", "-pk")
        .first()
    )


def season_matches(season: Season) -> QuerySet[Match]:
    """The matches of a season: those whose night's date falls in it."""
    matches = Match.objects.filter(night__club_id=season.club_id, night__date__gte=season.starts_on)
    if season.ends_on is not None:
        matches = matches.filter(night__date__lte=season.ends_on)
    return matches


def finished_matches_in_order(club_id: int, game: str | None = None) -> QuerySet[Match]:
    """The club's finished matches in the order they finished.

    A match finished when its last deal was first entered (version 1 of that deal: a later
    correction does not move it), ties broken by id. Derived from the deal log alone, so
    a full rebuild finds the same order as the incremental path.
    """
    matches = Match.objects.filter(night__club_id=club_id, status=Match.Status.FINISHED)
    if game is not None:
        matches = matches.filter(game=game)
    return matches.annotate(finished_at=finished_at_of()).order_by("finished_at", "pk")


def finished_at_of() -> Coalesce:
    """When a match (``OuterRef("pk")``) finished: the first entry of its last deal; for
    a match recorded by its final score (no deals), when it was made."""
    # Deals are never deleted and numbered without gaps: the highest-numbered first
    # version is the first entry of the last deal.
    first_entered = (
        Deal.objects.filter(match=OuterRef("pk"), version=1)
        .order_by("-number")
        .values("entered_at")[:1]
    )
    return Coalesce(Subquery(first_entered), F("created_at"))


# -- what a match and a deal mean per seat ------------------------------------------------


@dataclass
class StoredMatch:
    """The parts of a stored match a fixture's score and the player statistics read
    (duck-types ``Match`` for ``sides_of``)."""

    pk: int
    game: str
    status: str
    seats: dict[str, int]
    state: dict[str, Any]
    result: dict[str, Any]


def current_deal_results(match_ids: list[int]) -> Iterator[tuple[int, dict[str, Any]]]:
    """(match id, stored result) of the current version of every deal of these matches,
    in match and deal order."""
    rows = (
        Deal.objects.filter(match_id__in=match_ids, is_current=True)
        .order_by("match_id", "number")
        .values_list("match_id", "result")
    )
    yield from rows.iterator(chunk_size=2000)


# -- reading the precomputed tables --------------------------------------------------------

#: Leaderboard columns one may sort by (see ``columns``); ``money:EUR``,
#: ``events:cappotto:made`` and ``bids:solo:won`` sort by one currency, event or contract.
SORTABLE = columns.sortable(public=False)
JSON_SORTABLE = columns.nested(public=False)
#: The columns anyone may sort a public leaderboard by: sorting by money or stake units
#: would rank the players by them.
PUBLIC_SORTABLE = columns.sortable(public=True)
PUBLIC_SORTABLE_NESTED = tuple(columns.nested(public=True))


def public_sortable(name: str) -> bool:
    """Whether anyone may sort a public leaderboard by this column."""
    return name in PUBLIC_SORTABLE or name.partition(":")[0] in PUBLIC_SORTABLE_NESTED


def sort_key(name: str):
    """The ORM expression for a leaderboard column name, or None if there is no such
    column (the caller refuses it)."""
    from django.db.models import FloatField
    from django.db.models.fields.json import KT
    from django.db.models.functions import Cast

    if name == "player":
        return "player__name"
    if name in SORTABLE:
        return name
    head, _, rest = name.partition(":")
    parts = rest.split(":") if rest else []
    if (
        head in JSON_SORTABLE
        and len(parts) == JSON_SORTABLE[head]
        and all(p.isidentifier() or p.isalnum() for p in parts)
    ):
        return Cast(KT("__".join([head, *parts])), FloatField())
    return None


def leaderboard(season: Season, game: str, ordering: list[str], min_matches: int):
    """One season's leaderboard for ``game`` ("" for all games): the ranked players
    first, then the unranked (fewer than ``min_matches`` finished matches), each sorted
    by ``ordering`` (column names, ``-`` for descending; already checked). One query on
    the (season, game) index."""
    from django.db.models import BooleanField, Case, Value, When

    from .models import LeaderboardRow

    rows = (
        LeaderboardRow.objects.filter(season=season, game=game)
        .select_related("player")
        .annotate(
            ranked=Case(
                When(matches__gte=min_matches, then=Value(True)),
                default=Value(False),
                output_field=BooleanField(),
            )
        )
    )
    return rows.order_by("-ranked", *_order_keys(ordering), "player__name", "player_id")


def freshness_of(club_id: int):
    """When the club's standings were last brought up to date, and whether changes are
    waiting for the next rebuild."""
    from .models import Freshness, StaleMark

    built = Freshness.objects.filter(club_id=club_id).values_list("built_at", flat=True).first()
    return built, StaleMark.objects.filter(club_id=club_id).exists()


#: The columns of a leaderboard row as the API gives them, in order.
LEADERBOARD_COLUMNS = ("player_id", "player__name", *columns.NAMES)


@dataclass
class LeaderboardPage:
    rows: list[dict[str, Any]]
    count: int
    built_at: Any
    pending: bool


def leaderboard_page(
    season_id: int,
    seasons: QuerySet[Season],
    game: str,
    ordering: list[str],
    offset: int | None,
    limit: int | None,
) -> LeaderboardPage | None:
    """A page of a season's leaderboard (every row when ``limit`` is None) in ONE query on
    the (season, game) index: the rows with their player's name, whether each is ranked
    (the club's minimum of matches, read in the same query), the row count (a window,
    not a second COUNT query), when the standings were brought up to date and whether
    changes are waiting. ``seasons`` scopes the season (the caller's clubs, or a public
    club); None when the season is not among them."""
    from django.db.models import BooleanField, Case, Count, Exists, Value, When, Window
    from django.db.models.functions import Coalesce

    from .models import Freshness, LeaderboardRow, StaleMark, StandingsSettings

    default = StandingsSettings._meta.get_field("min_matches").get_default()
    minimum = Coalesce(
        Subquery(
            StandingsSettings.objects.filter(club_id=OuterRef("club_id")).values("min_matches")[:1]
        ),
        Value(default),
    )
    rows = (
        LeaderboardRow.objects.filter(season_id=season_id, game=game, season__in=seasons)
        .annotate(
            ranked=Case(
                When(matches__gte=minimum, then=Value(True)),
                default=Value(False),
                output_field=BooleanField(),
            ),
            total=Window(Count("id")),
            built_at=Subquery(
                Freshness.objects.filter(club_id=OuterRef("club_id")).values("built_at")[:1]
            ),
            pending=Exists(StaleMark.objects.filter(club_id=OuterRef("club_id"))),
        )
        .order_by("-ranked", *_order_keys(ordering), "player__name", "player_id")
        .values_list(*LEADERBOARD_COLUMNS, "ranked", "total", "built_at", "pending")
    )
    if limit is not None:
        rows = rows[offset or 0 : (offset or 0) + limit]
    found = list(rows)
    if not found:
        season = seasons.filter(pk=season_id).values_list("club_id", flat=True).first()
        if season is None:
            return None
        built, pending = freshness_of(season)
        total = LeaderboardRow.objects.filter(season_id=season_id, game=game).count()
        return LeaderboardPage([], total, built, pending)
    out = []
    for row in found:
        line = dict(zip(LEADERBOARD_COLUMNS, row, strict=False))
        line["ranked"] = row[-4]
        out.append(line)
    return LeaderboardPage(out, found[0][-3], found[0][-2], found[0][-1])


def _order_keys(ordering: list[str]) -> list[Any]:
    keys: list[Any] = []
    for name in ordering:
        desc = name.startswith("-")
        expression = sort_key(name.lstrip("-"))
        if isinstance(expression, str):
            keys.append(f"-{expression}" if desc else expression)
        else:
            keys.append(
                expression.desc(nulls_last=True) if desc else expression.asc(nulls_last=True)
            )
    return keys
