"""The rules engine's cost per deal in instructions, under callgrind (issue 35 item 7).

    python deploy/bench/engine_instructions.py [TREE ...] [--game tressette4] [--level totals]

CPU time on a machine others load moves by 10% from run to run; the instructions a deal
executes do not. For each tree (default: this checkout) the same seeded random deals are
made (``LARGE`` of them) and scored through ``Game.score_deal`` under ``valgrind
--tool=callgrind`` twice, the first ``SMALL`` and then all ``LARGE``: the difference of the
two runs' instruction counts, divided by the difference of deals, is the cost of scoring
one deal, the interpreter's start, the imports and the deals' making left out. Each run is
its own process with its tree first on ``sys.path`` and checks it imported that tree's
engine (the shared virtualenv installs this checkout as editable). Needs valgrind.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SMALL, LARGE = 200, 1_200
RUN = """
import random, sys
root, key, level = sys.argv[1:4]
count, made = int(sys.argv[4]), int(sys.argv[5])
sys.path.insert(0, root)
from scorebook.rules.engine import games
import scorebook.rules.engine as engine
assert engine.__file__.startswith(root + "/"), f"{engine.__file__} is not under {root}"
game = games()[key]
rules = game.rules(None)
rng = random.Random(2026)
prepared = []
for _ in range(made):
    state = game.new_match(rules)
    prepared.append((game.random_deal(rng, rules, state, level), state))
for deal, state in prepared[:count]:
    game.score_deal(deal, rules, state)
"""


def instructions(tree: Path, game: str, level: str, count: int) -> int:
    """Instructions of one run (``Ir`` in callgrind's summary)."""
    with tempfile.TemporaryDirectory(prefix="engine-ir-") as scratch:
        out = os.path.join(scratch, "callgrind.out")
        command = [
            "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
            sys.executable, "-c", RUN, str(tree), game, level, str(count), str(LARGE),
        ]  # fmt: skip
        env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1"}
        subprocess.run(command, check=True, capture_output=True, env=env)
        text = Path(out).read_text()
    found = re.search(r"^(?:summary|totals):\s+(\d+)", text, re.M)
    assert found, "no summary in callgrind's output"
    return int(found.group(1))


def per_deal(tree: Path, game: str, level: str) -> float:
    small = instructions(tree, game, level, SMALL)
    large = instructions(tree, game, level, LARGE)
    return (large - small) / (LARGE - SMALL)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="*", type=Path, help="trees to measure (default: this)")
    parser.add_argument("--game", default="tressette4")
    parser.add_argument("--level", default="totals")
    args = parser.parse_args()
    trees = [t.resolve() for t in args.trees] or [ROOT]
    print(f"{args.game} {args.level}: instructions per Game.score_deal, seed 2026")
    for tree in trees:
        print(f"{per_deal(tree, args.game, args.level):>12,.0f}  {tree}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
