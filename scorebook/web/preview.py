"""The engine's view of a match, for the pages: the state the next deal starts from, and
a deal scored in its place without storing anything (live validation)."""

from __future__ import annotations

from typing import Any

from django.core import signing

from scorebook.clubs.models import Player
from scorebook.matches import services
from scorebook.matches.models import Deal, Match
from scorebook.rules import DealResult, MatchState, start_match
from scorebook.rules.engine import resume_match
from scorebook.rules.result import STATE_FORMAT
from scorebook.web.deal_forms import Table


def _fold(match: Match, inputs: list[Any]) -> tuple[Any, Any, MatchState]:
    game, rules, state = start_match(
        match.game, match.rules["values"], match.players, match.first_dealer
    )
    for i, data in enumerate(inputs):
        game.add_deal(state, data, rules, f"deals[{i}]")
    return game, rules, state


def _resumable(match: Match) -> bool:
    """A state stored before the engine could resume has no current ``format``: it is
    re-derived by folding the deals (the next write stores the current layout)."""
    return isinstance(match.state, dict) and match.state.get("format") == STATE_FORMAT


def state_before(match: Match, number: int | None = None) -> tuple[Any, Any, MatchState]:
    """The engine's state before deal ``number``; the next deal resumes from the match's
    stored state (no deal is read), an earlier one folds the deals before it."""
    if (number is None or number == next_number(match)) and _resumable(match):
        return resume_match(match.game, match.rules["values"], match.state)
    inputs = list(
        Deal.objects.filter(match=match, is_current=True)
        .order_by("number")
        .values_list("input", flat=True)
    )
    if number is not None:
        inputs = inputs[: number - 1]
    return _fold(match, inputs)


def score(match: Match, data: Any, number: int | None = None) -> DealResult:
    """Score ``data`` as deal ``number`` (default: the next) of ``match``; raises the
    engine's Rejection with paths of the deal itself."""
    game, rules, state = state_before(match, number)
    return game.add_deal(state, data, rules)


def table(match: Match, state: MatchState | None = None) -> Table:
    """The match as the deal form needs it: who sits where, by name."""
    if state is None:
        state = state_before(match)[2]
    names = dict(Player.objects.filter(pk__in=match.seats.values()).values_list("pk", "name"))
    return Table(
        game=match.game,
        rules=match.rules["values"],
        state=state,
        names={seat: names.get(pid, "") for seat, pid in match.seats.items()},
    )


def quick_table(match: Match) -> Table:
    """The same from the match's stored state (no deal read): enough to read a posted form."""
    state = MatchState.from_dict(match.state) if _resumable(match) else state_before(match)[2]
    return Table(game=match.game, rules=match.rules["values"], state=state, names={})


def next_number(match: Match) -> int:
    """The number the next deal will have, from the stored state."""
    played = match.state.get("deals_played")
    if isinstance(played, int):
        return played + 1
    return len(services.current_deals(match)) + 1


__all__ = ["DealResult", "next_number", "quick_table", "score", "state_before", "table"]


SHAPE_SALT = "scorebook.web.deal-form"


def shape_of(table: Table) -> str:
    """What reading the posted form needs (game, house rules, seats, dealer), signed: it
    travels with the form so the save reads it without a query. It only shapes the deal
    JSON; the service checks that deal against the match itself."""
    state = table.state
    return signing.dumps(
        [table.game, dict(table.rules), list(state.seats), list(state.scorers), state.dealer],
        salt=SHAPE_SALT,
        compress=True,
    )


def table_from_shape(token: str) -> Table | None:
    try:
        game, rules, seats, scorers, dealer = signing.loads(token, salt=SHAPE_SALT)
    except signing.BadSignature:  # none, or not ours: read the match instead
        return None
    state = MatchState(
        game=game, seats=tuple(seats), scorers=tuple(scorers), dealer=dealer, totals={}, units={}
    )
    return Table(game=game, rules=rules, state=state, names={})
