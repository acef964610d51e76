"""Series of games and knockout brackets (pure Python, no Django).

The tournament code calls a meeting of two sides an *incontro*: "l'insieme di più partite
il cui numero sia prestabilito o, comunque, determinabile nel corso del gioco sulla base
di criteri prefissati" (``regole``, "Nozione di Incontro"). A league fixture is such a
meeting, played as a series:

- ``matches`` (today's rule): any number of matches; more won wins the fixture;
- ``best_of`` N: decided as soon as one entry has won more than N/2 games; the games
  after that are not played (and a league refuses to link them);
- ``games`` N: a fixed number of games, each game won worth league points of its own.

When the games are played and the sides are level, a knockout cannot leave it there:
one more game decides it, *la bella*, and another after it while it stays level (the
code, of a match of a fixed number of deals: "può prevedersi che il gioco debba
continuare fino a quando la situazione di parità non persista"). A round robin counts
a level series as a draw.

A knockout bracket seeds ``n`` entries into the smallest power of two that holds them;
the missing places are byes, given to the best seeds, so no first-round pairing is two
byes. Seed 1 and seed 2 can meet only in the final, seeds 1-4 only from the semi-finals
on (the usual order: 1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight places). The winner of slot
``s`` of round ``r`` plays in slot ``s // 2`` of round ``r + 1``, at home when ``s`` is
even.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

T = TypeVar("T", bound=Hashable)

MATCHES = "matches"
BEST_OF = "best_of"
GAMES = "games"
KINDS = (MATCHES, BEST_OF, GAMES)

Side = Literal["home", "away"]


@dataclass(frozen=True)
class Series:
    """How a fixture is played: ``kind`` and the number of games ``games`` (best of N,
    or exactly N); ``bella``: a level series needs a deciding game (knockouts)."""

    kind: str = MATCHES
    games: int = 1
    bella: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown series {self.kind!r}")
        if self.games < 1:
            raise ValueError("a series has at least one game")

    @property
    def to_win(self) -> int:
        """The games the winner takes when the fixture is won without playing it out (a
        forfeit): one match, a majority of a best of N, or all N of a fixed series."""
        if self.kind == BEST_OF:
            return self.games // 2 + 1
        if self.kind == GAMES:
            return self.games
        return 1

    def outcome(self, home_wins: int, away_wins: int, played: int, playing: int = 0) -> Outcome:
        """Where a series stands after ``played`` finished games (``home_wins`` and
        ``away_wins`` of them won; a game may have no winner) with ``playing`` more
        under way."""
        if self.kind == MATCHES and not self.bella:
            leader = _leader(home_wins, away_wins)
            return Outcome(leader, played > 0 and leader is None, False, False, True, played > 0)
        if self.kind == MATCHES:  # a knockout game of one match: best of 1
            return Series(BEST_OF, 1, True).outcome(home_wins, away_wins, played, playing)
        if self.kind == BEST_OF:
            need = self.games // 2 + 1
            if home_wins >= need or away_wins >= need:
                return Outcome(_leader(home_wins, away_wins), False, True, False, False, True)
        if played < self.games:
            accepts = played + playing < self.games
            return Outcome(None, False, False, False, accepts, False)
        leader = _leader(home_wins, away_wins)
        bella = played > self.games
        if leader is not None:
            return Outcome(leader, False, True, bella, False, True)
        if self.bella:  # level: one more game at a time
            return Outcome(None, False, False, True, playing == 0, False)
        return Outcome(None, True, True, False, False, True)


@dataclass(frozen=True)
class Outcome:
    """A series as it stands. ``winner``: the side that has won it (None: not yet, or a
    draw); ``drawn``: over and level; ``complete``: no further game counts; ``bella``: it
    needs (or was decided by) a deciding game; ``accepts``: another game may be linked;
    ``counts``: the table takes it into account now."""

    winner: Side | None
    drawn: bool
    complete: bool
    bella: bool
    accepts: bool
    counts: bool


def _leader(home: int, away: int) -> Side | None:
    if home > away:
        return "home"
    if away > home:
        return "away"
    return None


# -- brackets --------------------------------------------------------------------------------


def bracket_size(count: int) -> int:
    """The smallest power of two that holds ``count`` entries (at least 2)."""
    size = 2
    while size < count:
        size *= 2
    return size


def seed_order(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order, for ``size`` places (a power of two):
    every pair of neighbours adds up to ``size + 1``, and the top two seeds are in
    opposite halves, the top four in different quarters."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order


def first_round(entries: Sequence[T]) -> list[tuple[T | None, T | None]]:
    """The first round's pairings of ``entries`` (in seeding order); ``None`` is a bye."""
    if len(set(entries)) != len(entries):
        raise ValueError("entries must be distinct")
    if len(entries) < 2:
        return []
    order = seed_order(bracket_size(len(entries)))
    placed = [entries[s - 1] if s <= len(entries) else None for s in order]
    return [(placed[i], placed[i + 1]) for i in range(0, len(placed), 2)]


def round_count(count: int) -> int:
    """Rounds a knockout of ``count`` entries takes to a champion."""
    return 0 if count < 2 else bracket_size(count).bit_length() - 1


class _Undecided:
    def __repr__(self) -> str:
        return "UNDECIDED"


#: a slot not decided yet (its winner unknown)
UNDECIDED = _Undecided()


@dataclass
class Slot(Generic[T]):
    """One place of the bracket: who plays (``None``: not known yet, or nobody),
    whether it is decided and by whom. A ``bye`` slot sends its one entry on without a
    game; an ``empty`` one sends nobody (both its entries gone)."""

    round: int
    slot: int
    home: T | None
    away: T | None
    ready: bool = False
    decided: bool = False
    winner: T | None = None
    bye: bool = False

    @property
    def loser(self) -> T | None:
        if not self.decided or self.bye or self.winner is None:
            return None
        return self.away if self.winner == self.home else self.home


def bracket(
    entries: Sequence[T],
    decide: Callable[[int, int, T, T], T | None | _Undecided],
) -> list[list[Slot[T]]]:
    """Every round of the knockout of ``entries`` (in seeding order). ``decide(round,
    slot, home, away)`` is asked for every slot whose two entries are known and
    answers its winner, ``None`` (nobody goes on) or ``UNDECIDED``. Winners go on
    round by round: a slot's entries are the winners of the two slots that feed it."""
    rounds: list[list[Slot[T]]] = []
    feeders: list[tuple[T | None | _Undecided, T | None | _Undecided]] = list(first_round(entries))
    number = 1
    while feeders:
        this: list[Slot[T]] = []
        for index, (home, away) in enumerate(feeders):
            slot: Slot[T] = Slot(
                number,
                index,
                None if isinstance(home, _Undecided) else home,
                None if isinstance(away, _Undecided) else away,
            )
            if isinstance(home, _Undecided) or isinstance(away, _Undecided):
                pass  # waits for a winner
            elif home is None or away is None:
                slot.decided, slot.bye, slot.winner = True, True, home if away is None else away
            else:
                slot.ready = True
                found = decide(number, index, home, away)
                if not isinstance(found, _Undecided):
                    if found not in (home, away, None):
                        raise ValueError(f"{found!r} does not play in round {number}")
                    slot.decided, slot.winner = True, found
            this.append(slot)
        rounds.append(this)
        if len(this) == 1:
            break
        results = [s.winner if s.decided else UNDECIDED for s in this]
        feeders = [(results[i], results[i + 1]) for i in range(0, len(results), 2)]
        number += 1
    return rounds


def placings(rounds: list[list[Slot[T]]]) -> dict[T, tuple[int, bool]]:
    """Final places as far as the bracket has gone: the champion 1, the runner-up 2, the
    losers of the semi-finals share 3, of the quarter-finals 5, and so on. Each place
    says whether it is shared; entries still in (or gone without a game lost, both
    out of the same slot) have none."""
    found: dict[T, tuple[int, bool]] = {}
    total = len(rounds)
    for number, slots in enumerate(rounds, start=1):
        out_here = 2 ** (total - number)  # losers in this round
        for s in slots:
            loser = s.loser
            if loser is not None:
                found[loser] = (out_here + 1, out_here > 1)
    if rounds and rounds[-1][0].decided and rounds[-1][0].winner is not None:
        found[rounds[-1][0].winner] = (1, False)
    return found


def round_name(number: int, total: int) -> str:
    """The usual name of a round (English key; the pages translate it): final,
    semi_final, quarter_final, else round."""
    from_end = total - number
    return {0: "final", 1: "semi_final", 2: "quarter_final"}.get(from_end, "round")
