"""The checks every tournament write makes first: the tournament locked for a director on
a night still open, a reason in words, the game's two fixed pairs of seats."""

from __future__ import annotations

from typing import Any

from scorebook.clubs.models import Role
from scorebook.clubs.services import require_role
from scorebook.core.people import User
from scorebook.core.reasons import check_reason
from scorebook.matches.models import Night
from scorebook.rules import Rejection, get_game

from ..models import Round, Tournament
from ..refusals import (
    NightClosed,
    NotAPairsGame,
    ReasonNeeded,
    TournamentCancelled,
    TournamentFinished,
)

#: The longest reason stored (the column).
REASON_MAX = 200


def pair_seats(game: str, rules: Any) -> tuple[tuple[str, str], tuple[str, str]]:
    """The two sides' seats of a match of ``game`` under ``rules``, as the engine seats
    two fixed pairs; refused when the game is not played in fixed pairs."""
    try:
        engine = get_game(game)
        resolved = engine.rules(rules)
        seats = engine.seats(resolved, 4) if 4 in engine.player_counts else ()
    except (KeyError, Rejection):
        raise NotAPairsGame(path="game") from None
    if not seats:
        raise NotAPairsGame(path="game")
    sides = list(engine.table_shape(resolved.values, tuple(seats)).members.values())
    if len(sides) != 2 or any(len(side) != 2 for side in sides):
        raise NotAPairsGame(path="game")
    return (sides[0][0], sides[0][1]), (sides[1][0], sides[1][1])


def locked(tournament: Tournament, user: User) -> Tournament:
    """The tournament row locked (its writes go one at a time), for a director of its
    club, on a night still open, not finished."""
    require_role(user, tournament.club_id, Role.DIRECTOR)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentFinished()
    if tournament.status == Tournament.Status.CANCELLED:
        raise TournamentCancelled()
    if Night.objects.filter(pk=tournament.night_id, status=Night.Status.CLOSED).exists():
        raise NightClosed()
    return tournament


def checked_reason(reason: Any) -> str:
    """A reason in words, required, as long as its column at most."""
    if not isinstance(reason, str) or not reason.strip():
        raise ReasonNeeded(path="reason")
    return check_reason(reason.strip(), most=REASON_MAX)


def in_progress_words(round_: Round) -> str:
    """What keeps ``round_`` in progress, for ``RoundInProgress`` (which says it)."""
    return "playing" if round_.started else "paired"
