"""Reads of the match record: the current deals of a match and the engine's replay of
them. Never imports the services."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, QuerySet

from scorebook.rules import DealResult, MatchState, Rejection, start_match

from .models import Deal, Match, Night
from .refusals import RulesRejected


@dataclass(frozen=True)
class Folded:
    state: MatchState
    results: tuple[DealResult, ...]


def fold(match: Match, inputs: list[Any]) -> Folded:
    """Replay the deal inputs through the engine; raises RulesRejected on the first
    entry that no longer fits (its path names the deal)."""
    try:
        game, rules, state = start_match(
            match.game, match.rules["values"], match.players, match.first_dealer
        )
        results = tuple(
            game.add_deal(state, data, rules, f"deals[{i}]") for i, data in enumerate(inputs)
        )
    except Rejection as rejection:
        raise RulesRejected(rejection) from None
    return Folded(state=state, results=results)


def current_deals(match: Match) -> list[Deal]:
    return list(match.deals.filter(is_current=True).order_by("number"))


def club_nights(club_id: int, *, status: str) -> QuerySet[Night]:
    """A club's nights of one status, newest first, each with its ``match_count``. The
    order is explicit: with an aggregate Django drops ``Meta.ordering``, and the club home
    showed 30 arbitrary nights (a club's 31st night was nowhere)."""
    return (
        Night.objects.filter(club_id=club_id, status=status)
        .annotate(match_count=Count("matches"))
        .order_by("-date", "-id")
    )
