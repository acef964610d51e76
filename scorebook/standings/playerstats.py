"""A player's statistics from finished matches (pure Python, no Django).

Each match is a ``MatchRecord``: who sat on which side, who won and who lost. Matches
are given in the order they finished. Rates are exact fractions; the callers round
them for display.

- Record by game, head-to-head against each opponent (a player on another side).
- Partner synergy: the pair's win rate together minus the mean of the two partners'
  baselines, a baseline being that player's win rate over all their matches with any
  partner. A pair that wins more together than each usually does with others scores
  above zero.
- Best partner: the highest synergy; rival: the opponent met most often; nemesis: the
  opponent against whom the player has the worst losing record. All three need at least
  ``min_shared`` matches together (or against).
- Longest winning streak: consecutive matches won, across games.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class MatchRecord:
    match: int
    game: str
    sides: tuple[frozenset[int], ...]
    winners: frozenset[int]
    losers: frozenset[int]

    def side_of(self, player: int) -> frozenset[int] | None:
        return next((s for s in self.sides if player in s), None)

    def partners_of(self, player: int) -> frozenset[int]:
        side = self.side_of(player)
        return side - {player} if side else frozenset()


@dataclass
class Record:
    played: int = 0
    won: int = 0
    lost: int = 0

    def add(self, won: bool, lost: bool) -> None:
        self.played += 1
        self.won += won
        self.lost += lost

    @property
    def rate(self) -> Fraction:
        """Share of matches won (0 when none played)."""
        return Fraction(self.won, self.played) if self.played else Fraction(0)


@dataclass(frozen=True)
class Synergy:
    partner: int
    together: Record
    baseline: Fraction
    partner_baseline: Fraction

    @property
    def value(self) -> Fraction:
        return self.together.rate - (self.baseline + self.partner_baseline) / 2


@dataclass(frozen=True)
class Streak:
    length: int
    first_match: int | None
    last_match: int | None


def _played(player: int, matches: Iterable[MatchRecord]) -> list[MatchRecord]:
    return [m for m in matches if m.side_of(player) is not None]


def record_by_game(player: int, matches: Iterable[MatchRecord]) -> dict[str, Record]:
    records: dict[str, Record] = defaultdict(Record)
    for m in _played(player, matches):
        records[m.game].add(player in m.winners, player in m.losers)
    return dict(sorted(records.items()))


def head_to_head(player: int, matches: Iterable[MatchRecord]) -> dict[int, Record]:
    """Per opponent: matches against them, won (I won and they did not) and lost (they
    won and I did not). Two losers of a free-for-all neither won nor lost against each
    other."""
    records: dict[int, Record] = defaultdict(Record)
    for m in _played(player, matches):
        mine = m.side_of(player)
        for side in m.sides:
            if side is mine:
                continue
            for other in side:
                won = player in m.winners and other not in m.winners
                lost = other in m.winners and player not in m.winners
                records[other].add(won, lost)
    return dict(sorted(records.items()))


def partnership_records(matches: Iterable[MatchRecord]) -> dict[int, Record]:
    """Everyone's baseline: their record over all matches with a partner."""
    records: dict[int, Record] = defaultdict(Record)
    for m in matches:
        for side in m.sides:
            if len(side) < 2:
                continue
            for p in side:
                records[p].add(p in m.winners, p in m.losers)
    return records


def synergies(player: int, matches: Sequence[MatchRecord]) -> list[Synergy]:
    """Per partner, best first (then more matches together, then partner id)."""
    baselines = partnership_records(matches)
    together: dict[int, Record] = defaultdict(Record)
    for m in _played(player, matches):
        for partner in m.partners_of(player):
            together[partner].add(player in m.winners, player in m.losers)
    found = [
        Synergy(p, rec, baselines[player].rate, baselines[p].rate) for p, rec in together.items()
    ]
    return sorted(found, key=lambda s: (-s.value, -s.together.played, s.partner))


def best_partner(player: int, matches: Sequence[MatchRecord], *, min_shared: int) -> int | None:
    return next(
        (s.partner for s in synergies(player, matches) if s.together.played >= min_shared),
        None,
    )


def rival(
    player: int, matches: Sequence[MatchRecord], *, min_shared: int
) -> tuple[int, Record] | None:
    """The opponent met most often; among equals the closest contest, then the lower id."""
    found = [(o, r) for o, r in head_to_head(player, matches).items() if r.played >= min_shared]
    if not found:
        return None
    return min(found, key=lambda item: (-item[1].played, abs(item[1].won - item[1].lost), item[0]))


def nemesis(
    player: int, matches: Sequence[MatchRecord], *, min_shared: int
) -> tuple[int, Record] | None:
    """The opponent with the worst record for ``player`` (more lost than won against
    them); among equals the one met more often, then the lower id."""
    found = [
        (o, r)
        for o, r in head_to_head(player, matches).items()
        if r.played >= min_shared and r.lost > r.won
    ]
    if not found:
        return None
    return min(
        found,
        key=lambda item: (
            (Fraction(item[1].won - item[1].lost, item[1].played), -item[1].played) + (item[0],)
        ),
    )


def longest_streak(player: int, matches: Iterable[MatchRecord]) -> Streak:
    """The longest run of consecutive matches won (the earliest if several)."""
    best = Streak(0, None, None)
    length, first = 0, None
    for m in _played(player, matches):
        if player in m.winners:
            length += 1
            first = m.match if length == 1 else first
            if length > best.length:
                best = Streak(length, first, m.match)
        else:
            length = 0
    return best
