"""Reads for player statistics (selectors: they never write): a player's record, partners
and rivals, rating history, and a match's running scores."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from scorebook.clubs.models import Player
from scorebook.matches.models import Deal, Match

from . import playerstats
from .models import RatingChange
from .selectors import StoredMatch, finished_matches_in_order, is_race, seats_in_order, sides_of

MIN_SHARED = 3  # matches together (or against) before a best partner, rival or nemesis


def match_records(club_id: int) -> list[playerstats.MatchRecord]:
    """The club's finished matches, in the order they finished, as statistics need them:
    the order in one query, then only the seats, sides and winners of each."""
    order = list(finished_matches_in_order(club_id).values_list("pk", flat=True))
    rows = Match.objects.filter(pk__in=order).values_list(
        "pk",
        "game",
        "seats",
        "state__seats",
        "state__scorers",
        "result__winners",
        "result__losers",
    )
    found = {}
    for pk, game, seats, in_order, scorers, winners, losers in rows.iterator(chunk_size=2000):
        match = StoredMatch(
            pk, game, Match.Status.FINISHED, seats, {"seats": in_order, "scorers": scorers}, {}
        )
        sides: dict[str, set[int]] = defaultdict(set)
        for seat, side in sides_of(match).items():
            sides[side].add(seats[seat])
        found[pk] = playerstats.MatchRecord(
            match=pk,
            game=game,
            sides=tuple(frozenset(s) for s in sides.values()),
            winners=frozenset(seats[s] for s in winners or ()),
            losers=frozenset(seats[s] for s in losers or ()),
        )
    return [found[pk] for pk in order]


@dataclass
class PlayerStatistics:
    player: Player
    names: dict[int, str]
    by_game: dict[str, playerstats.Record]
    head_to_head: dict[int, playerstats.Record]
    synergies: list[playerstats.Synergy]
    best_partner: int | None
    rival: tuple[int, playerstats.Record] | None
    nemesis: tuple[int, playerstats.Record] | None
    streak: playerstats.Streak
    recent: list[playerstats.MatchRecord]
    min_shared: int
    ratings: dict[str, list[dict[str, Any]]]


def player_statistics(player: Player, *, min_shared: int = MIN_SHARED) -> PlayerStatistics:
    """Everything the player page and the statistics endpoint show, in four queries."""
    records = match_records(player.club_id)
    me = player.pk
    mine = [m for m in records if m.side_of(me) is not None]
    return PlayerStatistics(
        player=player,
        names=dict(Player.objects.filter(club_id=player.club_id).values_list("pk", "name")),
        by_game=playerstats.record_by_game(me, mine),
        head_to_head=playerstats.head_to_head(me, mine),
        synergies=playerstats.synergies(me, records),
        best_partner=playerstats.best_partner(me, records, min_shared=min_shared),
        rival=playerstats.rival(me, mine, min_shared=min_shared),
        nemesis=playerstats.nemesis(me, mine, min_shared=min_shared),
        streak=playerstats.longest_streak(me, mine),
        recent=mine[-10:][::-1],
        min_shared=min_shared,
        ratings=rating_history(player),
    )


def rating_history(player: Player) -> dict[str, list[dict[str, Any]]]:
    """Per game, the player's rating after each rated match, in order."""
    history: dict[str, list[dict[str, Any]]] = {}
    changes = RatingChange.objects.filter(player=player).order_by("game", "seq")
    for change in changes.values("game", "seq", "match_id", "display_after", "mu_after"):
        row: dict[str, Any] = dict(change)
        history.setdefault(str(row.pop("game")), []).append(row)
    return history


def running_scores(match: Match) -> dict[str, list[tuple[int, int]]]:
    """Per scorer (side or player), the running total after each deal, from 0 at deal 0:
    game points in a race game, stake units in a game settled per deal."""
    scorers = list(match.state.get("scorers") or match.seats)
    race = is_race(match)
    key = "points" if race else "units"
    names = scorers if race else seats_in_order(match)
    running = dict.fromkeys(names, 0)
    series: dict[str, list[tuple[int, int]]] = {name: [(0, 0)] for name in names}
    deals = Deal.objects.filter(match=match, is_current=True).order_by("number")
    for number, result in deals.values_list("number", "result"):
        for name in names:
            running[name] += int((result.get(key) or {}).get(name, 0))
            series[name].append((number, running[name]))
    return series
