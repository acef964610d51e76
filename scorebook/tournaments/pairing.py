"""Pairing a tournament round (pure Python, no Django: testable without a database).

**Swiss** (the Monrad or "Danish" family used at card tournaments): every round pairs
entries with the same or the nearest score who have not met yet. The pairing is a
maximum-weight matching (Edmonds' blossom algorithm, ``networkx.max_weight_matching``)
over the pairs that have not met, rather than a greedy pass down the table: a greedy pass
can strand the last entries with nobody new to play, the matching finds a pairing with no
repeat whenever one exists. An edge's weight prefers, in this order:

1. no repeat at all (a pair that met has no edge; repeats are allowed only when no
   pairing without one exists, and then as few as the matching can manage);
2. the nearest scores (the squared difference of match points, summed over the round);
3. neighbours in the standings, as Monrad pairs them (1 v 2, 3 v 4...): the difference
   of places, summed.

With an odd number of entries one rests: the **bye** goes to the lowest-placed entry
that has not had one (at most one bye per entry while any entry has had none).

To keep large rounds quick, the matching first looks at each entry's nearest
``NEIGHBOURS`` not-met entries in the standings; only when that graph has no perfect
matching is the whole graph of not-met pairs used (and, failing that, repeats).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import networkx as nx

T = TypeVar("T", bound=Hashable)

#: How many not-met entries on each side in the standings the first, sparse graph links.
NEIGHBOURS = 12


@dataclass(frozen=True)
class Pairing(Generic[T]):
    """A round's pairings in table order (top of the standings first) and who rests."""

    pairs: tuple[tuple[T, T], ...]
    bye: T | None
    repeats: int = 0


def met_key(a: Hashable, b: Hashable) -> frozenset[Hashable]:
    return frozenset((a, b))


def choose_bye(standing: Sequence[T], byes: Iterable[T]) -> T | None:
    """The entry that rests when the count is odd: the lowest-placed one without a bye
    (everyone has had one: the lowest-placed)."""
    if len(standing) % 2 == 0:
        return None
    had = set(byes)
    for entry in reversed(standing):
        if entry not in had:
            return entry
    return standing[-1]


def swiss_pairing(
    standing: Sequence[T],
    scores: Mapping[T, int],
    met: Iterable[frozenset[T]] | set[frozenset[T]],
    byes: Iterable[T] = (),
    *,
    neighbours: int = NEIGHBOURS,
) -> Pairing[T]:
    """Pair ``standing`` (the entries playing this round, best placed first).

    ``scores``: match points so far; ``met``: the pairs that have already played
    (``met_key``); ``byes``: the entries that have had a bye.
    """
    if len(set(standing)) != len(standing):
        raise ValueError("entries must be distinct")
    met = met if isinstance(met, set) else set(met)
    bye = choose_bye(standing, byes)
    playing = [e for e in standing if e != bye]
    if not playing:
        return Pairing((), bye)
    place = {e: i for i, e in enumerate(playing)}
    n = len(playing)
    spread = max(scores.get(e, 0) for e in playing) - min(scores.get(e, 0) for e in playing)
    # One unit of squared score difference outweighs any sum of place differences (at
    # most n/2 pairs, each under n apart), and every weight stays positive.
    per_score = n * n + 1
    top = per_score * (spread * spread + 1) + n + 1

    def weight(a: T, b: T) -> int:
        gap = scores.get(a, 0) - scores.get(b, 0)
        return top - per_score * gap * gap - abs(place[a] - place[b])

    def match(edges: Iterable[tuple[T, T]]) -> set[tuple[T, T]]:
        graph: nx.Graph = nx.Graph()
        graph.add_nodes_from(playing)
        graph.add_weighted_edges_from((a, b, weight(a, b)) for a, b in edges)
        return nx.max_weight_matching(graph, maxcardinality=True)

    def sparse() -> Iterable[tuple[T, T]]:
        for i, a in enumerate(playing):
            linked = 0
            for b in playing[i + 1 :]:
                if met_key(a, b) not in met:
                    yield a, b
                    linked += 1
                    if linked >= neighbours:
                        break

    def fresh() -> Iterable[tuple[T, T]]:
        for i, a in enumerate(playing):
            for b in playing[i + 1 :]:
                if met_key(a, b) not in met:
                    yield a, b

    found = match(sparse())
    if 2 * len(found) < n:
        found = match(fresh())
    repeats = 0
    if 2 * len(found) < n:
        # No pairing without a repeat: a repeat costs more than any score difference, so
        # the matching keeps as few as it can.
        penalty = top

        def weighted(a: T, b: T) -> int:
            return weight(a, b) + (0 if met_key(a, b) in met else penalty * n)

        graph: nx.Graph = nx.Graph()
        graph.add_nodes_from(playing)
        graph.add_weighted_edges_from(
            (a, b, weighted(a, b)) for i, a in enumerate(playing) for b in playing[i + 1 :]
        )
        found = nx.max_weight_matching(graph, maxcardinality=True)
        repeats = sum(1 for a, b in found if met_key(a, b) in met)
    pairs = [(a, b) if place[a] < place[b] else (b, a) for a, b in found]
    pairs.sort(key=lambda p: place[p[0]])
    return Pairing(tuple(pairs), bye, repeats)


def greedy_pairing(
    standing: Sequence[T],
    scores: Mapping[T, int],
    met: Iterable[frozenset[T]] | set[frozenset[T]],
    byes: Iterable[T] = (),
) -> Pairing[T]:
    """The greedy pass the matching replaces (kept for ``make bench-tournament`` and the
    tests): down the standings, each unpaired entry takes the next unpaired one it has
    not met, else the next unpaired one."""
    met = met if isinstance(met, set) else set(met)
    bye = choose_bye(standing, byes)
    free = [e for e in standing if e != bye]
    pairs: list[tuple[T, T]] = []
    repeats = 0
    while free:
        a = free.pop(0)
        partner = next((b for b in free if met_key(a, b) not in met), None)
        if partner is None:
            partner = free[0]
            repeats += 1
        free.remove(partner)
        pairs.append((a, partner))
    return Pairing(tuple(pairs), bye, repeats)


def score_gap(pairing: Pairing[T], scores: Mapping[T, int]) -> int:
    """The sum of squared score differences of a pairing (lower: nearer scores)."""
    return sum((scores.get(a, 0) - scores.get(b, 0)) ** 2 for a, b in pairing.pairs)


def group_sizes(count: int, largest: int = 4) -> list[int]:
    """Sizes of round-robin groups for ``count`` entries: each 3-5, at most ``largest``
    where the count allows it (7 entries in groups of 3 make a 4 and a 3), as few groups
    as that allows, the sizes differing by one at most."""
    if not 3 <= largest <= 5:
        raise ValueError("groups hold 3 to 5 entries")
    if count < 3:
        raise ValueError("groups need at least 3 entries")
    groups = -(-count // largest)
    while count // groups < 3:
        groups -= 1
    base, extra = divmod(count, groups)
    sizes = [base + 1] * extra + [base] * (groups - extra)
    if max(sizes) > 5:
        raise ValueError("too many entries for groups of that size")
    return sizes


def split_groups(seeded: Sequence[T], largest: int = 4) -> list[list[T]]:
    """Entries in seeding order into groups by the "serpentine" (snake) order used to
    seed groups: seeds 1..g go one per group, seeds g+1..2g back the other way, so every
    group gets one of the top seeds and the strengths even out."""
    sizes = group_sizes(len(seeded), largest)
    groups: list[list[T]] = [[] for _ in sizes]
    order: list[int] = []
    forward = True
    while len(order) < len(seeded):
        lap = list(range(len(sizes))) if forward else list(reversed(range(len(sizes))))
        order.extend(g for g in lap if len(order) < len(seeded))
        forward = not forward
    # The snake may overfill a group when sizes differ: place by order, skip full groups.
    it = iter(seeded)
    for g in order:
        entry = next(it, None)
        if entry is None:
            break
        target = g
        while len(groups[target]) >= sizes[target]:
            target = (target + 1) % len(sizes)
        groups[target].append(entry)
    return groups


def knockout_seeds(groups_ranked: Sequence[Sequence[T]], qualifiers: int) -> list[T]:
    """The knockout's seeding from the groups' final orders: every group's winner first
    (group order), then every runner-up, and so on, ``qualifiers`` per group."""
    seeds: list[T] = []
    for place in range(qualifiers):
        seeds.extend(ranked[place] for ranked in groups_ranked if len(ranked) > place)
    return seeds


def draw_pairs(player_ids: Sequence[int], seed: int) -> list[tuple[int, int]]:
    """The draw of singles into pairs (pure): the players, in order of arrival, shuffled
    by a generator seeded with ``seed``, paired in the order drawn. The same seed and
    players always give the same pairs."""
    drawn = list(player_ids)
    random.Random(seed).shuffle(drawn)
    return [(drawn[i], drawn[i + 1]) for i in range(0, len(drawn) - 1, 2)]
