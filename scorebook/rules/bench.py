"""``make bench``: deals validated and scored per second, per game and detail level
(the play level replays every card of the deal before scoring it), in CPU time.

Deals are generated first by each game's ``random_deal`` (legal deals of a shuffled real
deck), then timed through ``Game.score_deal`` (what a match does for each new deal, the
house rules already resolved) on one core. Run: ``python -m scorebook.rules.bench``
(``--game tressette4 --level totals`` for one row; run it in two trees to compare them).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from .engine import games

TARGET_TOTALS_PER_SECOND = 20_000
#: Issue 5: whole deals replayed card by card and scored, per second on one core.
TARGET_PLAY_PER_SECOND = 2_000


def measure(key: str, level: str, count: int, seed: int) -> dict[str, Any]:
    game = games()[key]
    rules = game.rules(None)
    rng = random.Random(seed)
    prepared = []
    for _ in range(count):
        state = game.new_match(rules)
        prepared.append((game.random_deal(rng, rules, state, level), state))
    # CPU time, not wall time: on a shared machine another process's load is not ours.
    start = time.process_time()
    for deal, state in prepared:
        game.score_deal(deal, rules, state)
    elapsed = time.process_time() - start
    return {
        "game": key,
        "level": level,
        "deals": count,
        "seconds": round(elapsed, 4),
        "per_second": int(count / elapsed) if elapsed else 0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scorebook.rules.bench")
    parser.add_argument("--deals", type=int, default=20_000, help="deals per game and level")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--level", action="append", help="only this level (repeatable)")
    args = parser.parse_args(argv)
    rows = []
    for key, game in sorted(games().items()):
        if args.game and key not in args.game:
            continue
        for level in game.levels:
            if args.level and level not in args.level:
                continue
            try:
                rows.append(measure(key, level, args.deals, args.seed))
            except NotImplementedError:
                rows.append({"game": key, "level": level, "per_second": None})
    if args.json:
        json.dump(rows, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(f"{'game':<18}{'level':<8}{'deals/s':>10}   (one core, Game.score_deal)")
        for row in rows:
            rate = row["per_second"]
            print(f"{row['game']:<18}{row['level']:<8}{rate if rate is not None else '-':>10}")
    slow = [
        r
        for r in rows
        if r["level"] == "totals" and (r["per_second"] or 0) < TARGET_TOTALS_PER_SECOND
    ]
    if slow:
        names = ", ".join(r["game"] for r in slow)
        print(f"below {TARGET_TOTALS_PER_SECOND} deals/s at the totals level: {names}")
    slow_play = [
        r for r in rows if r["level"] == "play" and (r["per_second"] or 0) < TARGET_PLAY_PER_SECOND
    ]
    if slow_play:
        names = ", ".join(r["game"] for r in slow_play)
        print(f"below {TARGET_PLAY_PER_SECOND} deals/s replaying play records: {names}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
