"""The rules engine's answers against an older tree's, deal by deal (issue 35 item 7).

    python deploy/bench/engine_differential.py /tmp/older [--game tressette4] [--deals 4000]

A change that makes the engine faster must give every result and every refusal it gave
before. This tree makes a corpus of deals (seeded): random legal deals of the game under
random house rules (every switch's values, a profile now and then), at the totals and the
cards level, each from a match state with random totals; and as many again mutated, one or
two changes each: a field dropped, a number moved or made a string, a scorer renamed, the
tournament code's fields added (a claim, a call-out, ``first_to_target``, entered points,
``all_tricks``, ``counters_alone``, an annulment), a declaration changed. Then each tree
scores the whole corpus in its own process (its tree first on ``sys.path``, checked) and
prints every answer as JSON (the result's ``as_dict``, or the refusal's problems with
their words); the two lists must be equal, answer for answer. Prints the counts (scored,
refused) and the first differences.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SCORE = """
import json, sys
root, corpus = sys.argv[1], sys.argv[2]
sys.path.insert(0, root)
import scorebook.rules.engine as engine
from scorebook.rules.errors import Rejection
from scorebook.rules.result import MatchState
assert engine.__file__.startswith(root + "/"), f"{engine.__file__} is not under {root}"
out = []
for case in json.load(open(corpus)):
    game = engine.games()[case["game"]]
    try:
        rules = game.rules(case["rules"])
        state = MatchState.from_dict(case["state"])
        out.append(["ok", game.score_deal(case["deal"], rules, state).as_dict()])
    except Rejection as refused:
        said = [[p.code, p.path, p.en, p.it, repr(p.params)] for p in refused.problems]
        out.append(["refused", said])
json.dump(out, sys.stdout, default=repr)
"""
#: Fields of the tournament code and other rare entries a mutation may add.
EXTRA_FIELDS: tuple[tuple[str, Any], ...] = (
    ("claim", {"side": "A", "after_trick": 7}),
    ("claim", {"side": "B", "after_trick": 10, "by": "A"}),
    ("claim", {"side": "A", "after_trick": 3, "cappotto": "made"}),
    ("failed_callouts", [{"by": "A", "after_trick": 4}]),
    ("first_to_target", "A"),
    ("first_to_target", "B"),
    ("all_tricks", "A"),
    ("all_tricks", "N"),
    ("counters_alone", "N"),
    ("cappotto_after_win", True),
    ("annulled_by", "E"),
    ("hand", ["1d"]),
    ("level", "cards"),
    ("unknown", 1),
    ("declarations", [{"player": "N", "type": "napoletana", "suit": "d"}]),
    ("declarations", [{"player": "S", "type": "three", "rank": "A", "missing": "c"}]),
    ("declarations", [{"type": "decima", "player": "W"}]),
    ("declarations", "none"),
)
ODD_VALUES: tuple[Any, ...] = (None, -1, 0, 1, 3, 11, 40, 41, "7", 2.0, True, [], {}, "A", "X")


def _spec(rng: random.Random, game: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {}
    if game.profiles and rng.random() < 0.3:
        spec["profile"] = rng.choice(sorted(game.profiles))
    for switch in rng.sample(game.switches, min(len(game.switches), rng.randint(0, 4))):
        if switch.between is None:
            spec[switch.key] = rng.choice(switch.choices)
        else:
            low, high = switch.between
            spec[switch.key] = rng.choice((low, switch.default, min(high, 2 * switch.default)))
    return spec


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            found += _paths(inner, (*prefix, i))
    return found


def _mutate(rng: random.Random, deal: dict[str, Any]) -> dict[str, Any]:
    deal = json.loads(json.dumps(deal))
    for _ in range(rng.randint(1, 2)):
        roll = rng.random()
        if roll < 0.35:
            key, value = rng.choice(EXTRA_FIELDS)
            deal[key] = json.loads(json.dumps(value))
            continue
        paths = _paths(deal)
        if not paths:
            continue
        path = rng.choice(paths)
        parent = deal
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        if roll < 0.55 and isinstance(parent, dict):
            del parent[last]
        elif roll < 0.65 and isinstance(parent, dict) and isinstance(last, str):
            parent[rng.choice(("A", "B", "N", "E", "S", "W", "X", "points"))] = parent.pop(last)
        elif isinstance(parent[last], int) and not isinstance(parent[last], bool):
            parent[last] += rng.choice((-3, -1, 1, 2, 5))
        else:
            parent[last] = rng.choice(ODD_VALUES)
    return deal


def corpus(key: str, count: int, seed: int) -> list[dict[str, Any]]:
    sys.path.insert(0, str(ROOT))
    from scorebook.rules.engine import games
    from scorebook.rules.errors import Rejection

    game = games()[key]
    rng = random.Random(seed)
    cases: list[dict[str, Any]] = []
    while len(cases) < count:
        spec = _spec(rng, game)
        try:
            rules = game.rules(spec)
            state = game.new_match(rules)
        except Rejection:
            continue
        for scorer in state.scorers:
            state.totals[scorer] = rng.choice((0, 0, rng.randint(0, 40)))
        level = rng.choice([lv for lv in game.levels if lv != "play"] or game.levels)
        deal = game.random_deal(rng, rules, state, level)
        for made in (deal, _mutate(rng, deal)):
            cases.append({"game": key, "rules": spec, "state": state.as_dict(), "deal": made})
    return cases


def answers(tree: Path, path: str) -> list[Any]:
    command = [sys.executable, "-c", SCORE, str(tree), path]
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    return list(json.loads(done.stdout))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("older", type=Path, help="the older tree")
    parser.add_argument("--game", default="tressette4")
    parser.add_argument(
        "--deals", type=int, default=4_000, help="random deals (and as many mutated)"
    )
    parser.add_argument("--seed", type=int, default=35)
    args = parser.parse_args()
    cases = corpus(args.game, 2 * args.deals, args.seed)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as out:
        json.dump(cases, out)
    old, new = answers(args.older.resolve(), out.name), answers(ROOT, out.name)
    Path(out.name).unlink()
    assert len(old) == len(new) == len(cases)
    differ = [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b]
    scored = sum(1 for kind, _ in new if kind == "ok")
    print(
        f"{args.game}: {len(cases)} deals ({args.deals} random, as many mutated), seed "
        f"{args.seed}: {scored} scored, {len(cases) - scored} refused; "
        f"{len(differ)} answers differ from {args.older}"
    )
    for i in differ[:5]:
        print(json.dumps(cases[i]["deal"]), "\n  old:", old[i], "\n  new:", new[i])
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
