"""The rules engine against an older tree, in the same session (issue 25 step 7).

    python deploy/bench/engine_before_after.py /tmp/before [--game tressette4] [--also /tmp/x]

``/tmp/before`` is the older tree (``git archive 266d09e^ | tar -x -C /tmp/before``: the
tree before the tournament code). Each run is its own process that puts its tree first on
``sys.path`` and checks that the engine it imported is that tree's (the shared virtualenv
installs this checkout as editable: a run that forgot would measure this tree twice). The
two trees run alternately, three times per level; each run is the CPU time
(``time.process_time``) of ``Game.score_deal`` over the same seeded random deals (the old
bench timed wall clock: it is made to read CPU time too). Prints each run and the medians.
``--also`` adds a third tree (e.g. ``main`` before a change) to the same rotation.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LEVELS = {"totals": 20_000, "cards": 5_000, "play": 5_000}
RUN = """
import sys, time
root, game, level, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
sys.path.insert(0, root)
import scorebook.rules.bench as bench
assert bench.__file__.startswith(root + "/"), f"{bench.__file__} is not under {root}"
bench.time.perf_counter = time.process_time
print(bench.measure(game, level, count, 2026)["per_second"])
"""


def run(tree: Path, game: str, level: str) -> int:
    args = [sys.executable, "-c", RUN, str(tree), game, level, str(LEVELS[level])]
    return int(subprocess.run(args, check=True, capture_output=True, text=True).stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path, help="the older tree")
    parser.add_argument("--game", default="tressette4")
    parser.add_argument("--level", action="append", choices=sorted(LEVELS))
    parser.add_argument("--also", type=Path, help="a third tree, run between the two")
    args = parser.parse_args()
    trees = {"before": args.before.resolve(), "now": ROOT}
    if args.also:
        trees = {"before": trees["before"], "also": args.also.resolve(), "now": ROOT}
    print(
        f"{args.game}: deals/s of CPU, seed 2026; "
        + ", ".join(f"{k} = {v}" for k, v in trees.items())
    )
    for level in args.level or list(LEVELS):
        rates: dict[str, list[int]] = {name: [] for name in trees}
        for _ in range(3):
            for name, tree in trees.items():
                rates[name].append(run(tree, args.game, level))
        b = statistics.median(rates["before"])
        parts = []
        for name, got in rates.items():
            m = statistics.median(got)
            change = "" if name == "before" else f" {m / b - 1:+.0%}"
            parts.append(f"{name} {' / '.join(f'{x:,}' for x in got)} (median {m:,.0f}){change}")
        print(f"{level:7} " + "  ".join(parts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
