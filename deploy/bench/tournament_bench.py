"""How long pairing a Swiss round takes (`make bench-tournament`).

For 64, 256 and 512 entries: four rounds are played first with random results (paired by
the greedy pass, which is quick, so every size starts from a history of the same shape),
then round 5 is paired by the maximum-weight matching the tournaments use
(``tournaments.pairing.swiss_pairing``) and, in the same run on the same state, by the
greedy pass down the standings (``greedy_pairing``). Prints each one's median time, the
ratio, the quality of each pairing (repeats, sum of squared score gaps) and how the
matching's cost grows with the entries (the exponent k of time ~ entries^k between two
sizes). Pure Python: no database.
"""

from __future__ import annotations

import math
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from scorebook.tournaments.pairing import (  # noqa: E402 - once ROOT is on sys.path
    greedy_pairing,
    met_key,
    score_gap,
    swiss_pairing,
)

# BENCH_SIZES: the entries of each size measured (.ci/run's smoke run: a tiny one).
SIZES = tuple(int(n) for n in os.environ.get("BENCH_SIZES", "64,256,512").split(","))
HISTORY_ROUNDS = 4
RUNS = {64: 9, 256: 5, 512: 3}  # other sizes: 3


def history(count: int, seed: int = 27):
    rng = random.Random(seed)
    entries = list(range(count))
    points = dict.fromkeys(entries, 0)
    met: set[frozenset[int]] = set()
    byes: list[int] = []
    for _ in range(HISTORY_ROUNDS):
        standing = sorted(entries, key=lambda e: (-points[e], e))
        found = greedy_pairing(standing, points, met, byes)
        for a, b in found.pairs:
            met.add(met_key(a, b))
            points[rng.choice((a, b))] += 2
        if found.bye is not None:
            byes.append(found.bye)
            points[found.bye] += 2
    standing = sorted(entries, key=lambda e: (-points[e], e))
    return standing, points, met, byes


def timed(pair, state, runs: int) -> tuple[float, object]:
    laps = []
    result = None
    for _ in range(runs):
        start = time.perf_counter()
        result = pair(*state)
        laps.append((time.perf_counter() - start) * 1000)
    return statistics.median(laps), result


def main() -> None:
    print(f"Swiss round {HISTORY_ROUNDS + 1}, after {HISTORY_ROUNDS} rounds of random results")
    header = (
        f"{'entries':>7}  {'matching ms':>11}  {'greedy ms':>9}  {'ratio':>7}  "
        f"{'repeats m/g':>11}  {'score gap m/g':>13}"
    )
    print(header)
    medians = {}
    for count in SIZES:
        state = history(count)
        points = state[1]
        matched_ms, matched = timed(swiss_pairing, state, RUNS.get(count, 3))
        greedy_ms, greedy = timed(greedy_pairing, state, RUNS.get(count, 3))
        medians[count] = matched_ms
        print(
            f"{count:>7}  {matched_ms:>11.1f}  {greedy_ms:>9.2f}  {matched_ms / greedy_ms:>6.0f}x"
            f"  {matched.repeats:>5}/{greedy.repeats:<5}"  # type: ignore[attr-defined]
            f"  {score_gap(matched, points):>6}/{score_gap(greedy, points):<6}"  # type: ignore[arg-type]
        )
    print("growth of the matching's time (time ~ entries^k):")
    for small, large in zip(SIZES, SIZES[1:], strict=False):
        k = math.log(medians[large] / medians[small]) / math.log(large / small)
        print(f"  {small} -> {large} entries: x{medians[large] / medians[small]:.1f}, k = {k:.2f}")


if __name__ == "__main__":
    main()
