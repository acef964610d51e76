"""The federation's rating (issue 34 item 5): one openskill rating per person and game over
every rated match of linked persons at the federation's member clubs.

What is rated. The finished matches of the federation's **current** member clubs (all of
their history: a person's record at a member club is their play; a club that leaves takes
its matches out, as its consent to be read by the federation ends) that seat at least one
**linked person** (an account whose accepted link names the player, or, for a
championship's away player seated as a guest of the home club, whose link names the away
player the guest stands for: ``Visitor``). Each such match gives the contests the club's
own ratings give it (``standings.refresh.facts_contests``: the sides of a pairs match, a
Terziglio deal's soloist against the coalition, a free-for-all's ranking), replayed in the
order the matches finished across all the clubs (when it finished, then the match id: the
same order whichever club is read first).

Who is rated. In each contest a linked player is their person, the same entity at every
club. An **unlinked** player counts as an **anonymous entity of their club** (their
player id, never shown nor stored): leaving them out would break the contest (a pair
rated as one player, the partner's skill credited to the person), and making them
default-rated newcomers at every match would make each opponent of a regular unlinked
player look weaker than they are. Only persons' rows are stored; the anonymous entities
live while a replay runs. A contest where one person holds two seats (never, in a real
match) is left out.

What it is not. The clubs' own ratings (``standings``) are untouched, and are not read:
the federation replays from the matches, from openskill's starting rating, so a club's
local history of ratings (its provisional players, its own order) changes nothing here.

When. ``rating_outbox.request_refresh`` (a link accepted or removed, a club joined or
left, an erasure, a rated match of a linked person finished or corrected:
``rating_outbox.club_rated``, the standings' registry ``standings.rated.AFTER_RATING``)
marks the federation and queues ``tasks.refresh_federation_ratings`` on the bulk queue
once the transaction commits; ``federation_rerate`` replays the whole federation in one
transaction (a full replay: the matches of a federation's linked persons are few beside
the clubs' deals; docs/federation.md gives the figures).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from scorebook.matches.models import Match, SeatFact
from scorebook.standings import contributions as cb
from scorebook.standings import ratings as rt
from scorebook.standings.refresh import facts_contests

from .championship_models import Visitor
from .models import Affiliation, Federation, FederationNumber, PersonLink
from .rating_models import FederationRating, RatingFreshness


@dataclass(frozen=True)
class Rated:
    """One finished match as the federation rates it: its order key (when it finished,
    the match id), its club and game, and its contests with each player already an
    entity (a person's account id, positive; an anonymous player, minus its id)."""

    finished_at: Any
    match_id: int
    club_id: int
    game: str
    contests: tuple[rt.Contest, ...]


@dataclass
class PersonRating:
    mu: float
    sigma: float
    matches: int
    clubs: int

    @property
    def display(self) -> float:
        return rt.display(self.mu, self.sigma)


def entity(player_id: int, persons: dict[int, int]) -> int:
    """A player's entity in the federation's rating: their person, else themselves as an
    anonymous entity of their club (minus the player id: never a person's id)."""
    user = persons.get(player_id)
    return user if user is not None else -player_id


def as_entities(contests: Iterable[rt.Contest], persons: dict[int, int]) -> tuple[rt.Contest, ...]:
    """The contests with players as entities; a contest where one entity holds two seats
    is left out (the model cannot rate someone against or beside themselves)."""
    out = []
    for contest in contests:
        teams = tuple(tuple(entity(p, persons) for p in team) for team in contest.teams)
        flat = [e for team in teams for e in team]
        if len(set(flat)) == len(flat):
            out.append(rt.Contest(teams, contest.ranks, contest.contract))
    return tuple(out)


def replay(matches: Iterable[Rated]) -> dict[str, dict[int, PersonRating]]:
    """Pure: the ratings per game of every person (positive entity) after the matches, in
    the order they finished, whatever order they come in. Each game from openskill's
    start, the contracts' pseudo-players (``rt.rate``'s ``carry``) the federation's own."""
    state: dict[str, dict[int, rt.Pair]] = defaultdict(dict)
    carry: dict[str, dict[str, rt.Pair]] = defaultdict(dict)
    counted: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    where: dict[str, dict[int, set[int]]] = defaultdict(lambda: defaultdict(set))
    for match in sorted(matches, key=lambda m: (m.finished_at, m.match_id)):
        players = {e for c in match.contests for team in c.teams for e in team if e > 0}
        if not players:
            continue
        for contest in match.contests:
            rt.rate(contest, state[match.game], carry[match.game])
        for person in players:
            counted[match.game][person] += 1
            where[match.game][person].add(match.club_id)
    return {
        game: {
            person: PersonRating(*state[game][person], n, len(where[game][person]))
            for person, n in sorted(counts.items())
        }
        for game, counts in sorted(counted.items())
    }


# -- reading the clubs' matches --------------------------------------------------------------


def rated_clubs(federation: Federation | int) -> list[int]:
    """The member clubs whose matches the rating reads (the current ones)."""
    rows = Affiliation.objects.filter(federation=federation, left_at__isnull=True)
    return sorted(rows.values_list("club_id", flat=True))


def persons_of(club_ids: Sequence[int]) -> dict[int, int]:
    """player id -> account id at these clubs: the accepted links, and each championship
    guest standing for a linked player (the guest is that person at the home club)."""
    persons = dict(
        PersonLink.objects.filter(
            club_id__in=list(club_ids), status=PersonLink.Status.ACCEPTED
        ).values_list("player_id", "user_id")
    )
    linked = dict(
        PersonLink.objects.filter(status=PersonLink.Status.ACCEPTED).values_list(
            "player_id", "user_id"
        )
    )
    for guest, player in Visitor.objects.filter(club_id__in=list(club_ids)).values_list(
        "guest_id", "player_id"
    ):
        if guest not in persons and player in linked:
            persons[guest] = linked[player]
    return persons


def read(club_ids: Sequence[int], persons: dict[int, int]) -> list[Rated]:
    """The clubs' finished matches seating a linked person, as ``Rated``, in the order
    the clubs are given (``replay`` puts them in the order they finished)."""
    found: list[Rated] = []
    for club_id in club_ids:
        seated = SeatFact.objects.filter(
            deal__isnull=True, player_id__in=list(persons), match__night__club_id=club_id
        ).values("match_id")
        where = Q(night__club_id=club_id, status=Match.Status.FINISHED, pk__in=seated)
        for batch in cb.read_facts(where, finished_at=True):
            for match in batch:
                if not any(p in persons for p in match.seats.values()):
                    continue
                contests = as_entities(facts_contests(match), persons)
                if contests:
                    found.append(
                        Rated(match.finished_at, match.pk, match.club_id, match.game, contests)
                    )
    return found


def compute(federation: Federation | int) -> tuple[dict[str, dict[int, PersonRating]], int]:
    """(the ratings per game and person, how many matches were rated), read now."""
    clubs = rated_clubs(federation)
    persons = persons_of(clubs)
    matches = read(clubs, persons)
    return replay(matches), len(matches)


# -- keeping them fresh ----------------------------------------------------------------------


def federation_rerate(federation_id: int) -> int:
    """Replay the federation's ratings and replace its rows, in one transaction under the
    federation's ``RatingFreshness`` row (a second refresh of the same federation waits
    for it, then finds its own request older than the build and does nothing). Returns
    how many matches were rated (-1: nothing was asked since the last build)."""
    RatingFreshness.objects.get_or_create(federation_id=federation_id)
    with transaction.atomic():
        lock = RatingFreshness.objects.filter(federation_id=federation_id)
        if connection.features.has_select_for_update:
            lock = lock.select_for_update()
        fresh = lock.get()
        if fresh.built_at is not None and not fresh.pending:
            return -1
        started = timezone.now()
        found, count = compute(federation_id)
        FederationRating.objects.filter(federation_id=federation_id).delete()
        FederationRating.objects.bulk_create(
            FederationRating(
                federation_id=federation_id,
                game=game,
                user_id=person,
                mu=rating.mu,
                sigma=rating.sigma,
                display=rating.display,
                matches=rating.matches,
                clubs=rating.clubs,
            )
            for game, persons in found.items()
            for person, rating in persons.items()
        )
        fresh.built_at, fresh.matches = started, count
        fresh.save(update_fields=["built_at", "matches"])
        return count


# -- reading them ----------------------------------------------------------------------------


def games_rated(federation: Federation | int) -> list[str]:
    rows = FederationRating.objects.filter(federation=federation)
    return sorted(set(rows.values_list("game", flat=True)))


def stale_federations() -> list[int]:
    """The federations whose ratings a change asked for after their last build."""
    rows = RatingFreshness.objects.filter(requested_at__isnull=False).filter(
        Q(built_at__isnull=True) | Q(requested_at__gt=F("built_at"))
    )
    return sorted(rows.values_list("federation_id", flat=True))


def freshness(federation: Federation | int) -> RatingFreshness | None:
    return RatingFreshness.objects.filter(federation=federation).first()


@dataclass
class RatingRow:
    position: int
    game: str
    user: Any
    number: int | None
    rating: float
    mu: float
    sigma: float
    matches: int
    clubs: int


def table(federation: Federation | int, game: str | None = None) -> list[RatingRow]:
    """The federation's ratings (of one game, or of each game in turn), best first by the
    conservative value; a position per game (equal values share it). Two queries."""
    rows = FederationRating.objects.filter(federation=federation).select_related("user")
    if game:
        rows = rows.filter(game=game)
    numbers = dict(
        FederationNumber.objects.filter(federation=federation).values_list("user_id", "number")
    )
    out: list[RatingRow] = []
    placed: dict[str, int] = defaultdict(int)
    for row in rows.order_by("game", "-display", "user__username"):
        placed[row.game] += 1
        last = out[-1] if out else None
        level = last is not None and last.game == row.game and last.rating == row.display
        out.append(
            RatingRow(
                position=last.position if level and last else placed[row.game],
                game=row.game,
                user=row.user,
                number=numbers.get(row.user_id),
                rating=row.display,
                mu=row.mu,
                sigma=row.sigma,
                matches=row.matches,
                clubs=row.clubs,
            )
        )
    return out


def person_ratings(federation: Federation | int, user_id: int) -> list[RatingRow]:
    """The person's rows of ``table``, one per game they are rated in."""
    return [r for r in table(federation) if r.user.pk == user_id]


def by_game(rows: list[RatingRow]) -> list[tuple[str, list[RatingRow]]]:
    """``table``'s rows grouped by game, in its order (for the pages and the sheets)."""
    grouped: dict[str, list[RatingRow]] = {}
    for row in rows:
        grouped.setdefault(row.game, []).append(row)
    return list(grouped.items())
