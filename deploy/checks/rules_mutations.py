"""Mutation testing of the rules engine's match progression (issue 31 item 8).

    python deploy/checks/rules_mutations.py [--list] [--only PATTERN] [--out FILE] [--hand]

Each mutant changes one thing in one place (a comparison ``<`` into ``<=``, ``==`` into
``!=``, ``in`` into ``not in``; ``+`` into ``-``; ``and`` into ``or``; a ``not`` dropped;
an integer ``n`` into ``n + 1``; ``True`` into ``False``; ``max`` into ``min``) in the code
that decides how a match goes on and ends: ``scorebook/rules/game.py`` whole, and each
game's end (``finish``, ``advance``, the outcome, the reading of a final score, its
deal-by-deal state such as Rovescino's players still in; Spinado's antes). The mutated
file is written into a copy of the tree (``/tmp``, never this checkout), and the rules
tests that concern it run there with ``-x``: a failing test kills the mutant, a mutant
every test passes survives and is printed with its place, for a person to judge
(equivalent, or a test missing). Plain standard library; the copy and its caches are
removed at the end.

The counts it prints (tried, killed, survived) are those issue 31's closing note quotes.
``--hand`` runs instead the hand-made mutations issue 31 named (``HAND_MADE``), each with
the test that kills it (docs/rules.md has the table).
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Where the match progression lives: a file, and the functions (``Class.method`` or a
#: module-level name) mutated in it; None: the whole file.
TARGETS: dict[str, tuple[str, ...] | None] = {
    "scorebook/rules/game.py": None,
    "scorebook/rules/games/tressette4.py": (
        "Tressette4.finish",
        "Tressette4._claim_outcome",
        "Tressette4._outcome",
        "Tressette4.final_undecided",
        "Tressette4.final_won_by",
        "Tressette4._first_to_target",
    ),
    "scorebook/rules/games/rovescino.py": (
        "Rovescino.playing",
        "Rovescino.finish",
        "Rovescino.final_undecided",
        "Rovescino.final_won_by",
        "Rovescino.eldest_of",
        "_lowest_wins",
        "TraversonePairs.finish",
    ),
    "scorebook/rules/games/individual.py": ("IndividualGame.finish",),
    "scorebook/rules/games/trappola.py": ("Trappola.finish",),
    "scorebook/rules/games/terziglio.py": ("Terziglio.advance", "Terziglio.finish"),
    "scorebook/rules/games/calabrasella.py": ("Calabrasella.finish",),
    "scorebook/rules/games/chiamata.py": ("ChiamataDelTre.finish",),
    "scorebook/rules/games/spinado.py": (
        "ANTES",
        "Spinado.antes",
        "Spinado.advance",
        "Spinado.finish",
    ),
}

#: The tests that judge the match progression, quickest killers first (``-x`` stops at
#: the first failure), then the properties over every game.
COMMON_TESTS = (
    "tests/rules/test_record_final.py",
    "tests/rules/test_first_to_target.py",
    "tests/rules/test_record_final_property.py",
    "tests/rules/test_resume.py",
    "tests/rules/test_engine_properties.py",
)
GAME_TESTS = {
    "game.py": (
        "tests/rules/test_core.py",
        "tests/rules/test_tressette4.py",
        "tests/rules/test_individual.py",
        "tests/rules/test_rovescino.py",
        "tests/rules/test_spinado_trappola.py",
        "tests/rules/test_terziglio.py",
        "tests/rules/test_calabrasella.py",
        "tests/rules/test_chiamata.py",
        "tests/rules/test_irregularities.py",
        "tests/rules/test_deterministic.py",
        "tests/rules/test_play.py",
    ),
    "tressette4.py": (
        "tests/rules/test_tressette4.py",
        "tests/rules/test_callout.py",
        "tests/rules/test_callout_laid_down.py",
        "tests/rules/test_tournament_events.py",
        "tests/rules/test_stakes.py",
    ),
    "rovescino.py": ("tests/rules/test_rovescino.py",),
    "individual.py": (
        "tests/rules/test_individual.py",
        "tests/rules/test_individual_properties.py",
    ),
    "trappola.py": ("tests/rules/test_spinado_trappola.py",),
    "spinado.py": ("tests/rules/test_spinado_trappola.py",),
    "terziglio.py": ("tests/rules/test_terziglio.py",),
    "calabrasella.py": ("tests/rules/test_calabrasella.py",),
    "chiamata.py": ("tests/rules/test_chiamata.py",),
}

COMPARE_SWAP = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
BINOP_SWAP = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult}


@dataclass(frozen=True)
class Mutant:
    path: str
    line: int
    where: str  # the function
    before: str
    after: str
    start: int  # offsets in the file's text
    end: int


def _offsets(text: str) -> list[int]:
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line.encode()))
    return starts


def _regions(tree: ast.Module, wanted: tuple[str, ...] | None) -> Iterator[tuple[str, ast.AST]]:
    """The functions (or module-level assignments) to mutate, with their names."""
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    name = f"{node.name}.{item.name}"
                    if wanted is None or name in wanted:
                        yield name, item
        elif isinstance(node, ast.FunctionDef):
            if wanted is None or node.name in wanted:
                yield node.name, node
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and wanted is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and target.id in wanted:
                    yield target.id, node
        elif wanted is None and isinstance(node, (ast.Assign, ast.Expr)):
            continue  # module constants and docstrings of a whole file: messages, not logic


def _skipped(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Inside an f-string, a docstring or a call to ``messages``/``problems.add`` (words),
    or an annotation: not logic."""
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.JoinedStr):
            return True
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in ("add", "messages", "Localized", "problem"):
                return True
        if isinstance(node, (ast.arg, ast.AnnAssign)) and getattr(node, "annotation", None):
            return True
    return False


def _variants(node: ast.AST) -> Iterator[ast.expr]:
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            swap = COMPARE_SWAP.get(type(op))
            if swap is not None:
                ops = list(node.ops)
                ops[i] = swap()
                yield ast.Compare(node.left, ops, node.comparators)
    elif isinstance(node, ast.BinOp) and type(node.op) in BINOP_SWAP:
        yield ast.BinOp(node.left, BINOP_SWAP[type(node.op)](), node.right)
    elif isinstance(node, ast.BoolOp):
        yield ast.BoolOp(ast.Or() if isinstance(node.op, ast.And) else ast.And(), node.values)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield node.operand
    elif isinstance(node, ast.Constant) and type(node.value) is bool:
        yield ast.Constant(not node.value)
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        yield ast.Constant(node.value + 1)
    elif isinstance(node, ast.Name) and node.id in ("max", "min"):
        yield ast.Name("min" if node.id == "max" else "max", ast.Load())


def mutants(path: str, wanted: tuple[str, ...] | None, data: bytes) -> list[Mutant]:
    text = data.decode()
    lines = _offsets(text)
    tree = ast.parse(text)
    parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    found: list[Mutant] = []
    for where, region in _regions(tree, wanted):
        for node in ast.walk(region):
            if not isinstance(node, ast.expr) or _skipped(node, parents):
                continue
            if isinstance(node, ast.Constant) and isinstance(parents.get(node), ast.Expr):
                continue  # a docstring
            assert node.end_lineno is not None and node.end_col_offset is not None
            # offsets in UTF-8 bytes, as the ast gives columns
            start = lines[node.lineno - 1] + node.col_offset
            end = lines[node.end_lineno - 1] + node.end_col_offset
            before = data[start:end].decode()
            for variant in _variants(node):
                after = ast.unparse(variant)
                if isinstance(node, (ast.Compare, ast.BinOp, ast.BoolOp, ast.UnaryOp)):
                    after = f"({after})"
                found.append(Mutant(path, node.lineno, where, before, after, start, end))
    return found


def apply(mutant: Mutant, tree: Path, data: bytes) -> None:
    mutated = data[: mutant.start] + mutant.after.encode() + data[mutant.end :]
    (tree / mutant.path).write_bytes(mutated)
    compile(mutated, mutant.path, "exec")  # a mutant that is not Python is a tool bug


def _name(m: Mutant) -> str:
    return f"{m.path}:{m.line} {m.where}: {m.before!r} -> {m.after!r}"


def tests_for(path: str) -> list[list[str]]:
    """The tests in two rounds: the game's own file and the unit tests of the end (most
    mutants die there, and pytest collects only those), then the rest and the
    properties over every game."""
    own = GAME_TESTS[Path(path).name]
    first = list(dict.fromkeys((own[0], *COMMON_TESTS[:2])))
    rest = [t for t in dict.fromkeys((*COMMON_TESTS, *own)) if t not in first]
    return [first, rest]


#: The hand-made mutations of issue 31 (the suite let them live when it was filed) and a few
#: neighbours: a file, where, the text (found once in the file) and what replaces it.
HAND_MADE: tuple[tuple[str, str, str, str], ...] = (
    (
        "scorebook/rules/games/spinado.py",
        "ANTES PCG",
        '"PCG": {"dealer": {"matrimony": 2, "intrigue": 1}',
        '"PCG": {"dealer": {"matrimony": 1, "intrigue": 1}',
    ),
    (
        "scorebook/rules/games/spinado.py",
        "ANTES PCG",
        '"PCG": {"dealer": {"matrimony": 2, "intrigue": 1}',
        '"PCG": {"dealer": {"matrimony": 2, "intrigue": 1, "game": 1}',
    ),
    (
        "scorebook/rules/games/spinado.py",
        "ANTES PCG",
        '"others": {"game": 1}}',
        '"others": {"game": 2}}',
    ),
    (
        "scorebook/rules/game.py",
        "Game._final_outcome",
        'if outcome is None and state.extra.get("overtime"):',
        "if False:",
    ),
    (
        "scorebook/rules/game.py",
        "Game._final_outcome",
        'if outcome is None and state.extra.get("overtime"):',
        "if outcome is None:",
    ),
    (
        "scorebook/rules/games/rovescino.py",
        "Rovescino.finish",
        "worst = max(totals[s] for s in reached)",
        "worst = min(totals[s] for s in reached)",
    ),
    (
        "scorebook/rules/games/tressette4.py",
        "Tressette4._outcome",
        'by_declarations = state.totals[winner] - declared < rules["t4.target"]',
        'by_declarations = state.totals[winner] - declared <= rules["t4.target"]',
    ),
    (
        "scorebook/rules/games/tressette4.py",
        "Tressette4._outcome",
        'detail["carry_over"] = state.totals[winner] - rules["t4.target"]',
        'detail["carry_over"] = state.totals[winner] - rules["t4.target"] + 1',
    ),
)


def hand_made(originals: dict[str, bytes]) -> list[Mutant]:
    found = []
    for path, where, before, after in HAND_MADE:
        data = originals[path]
        start = data.index(before.encode())
        assert data.count(before.encode()) == 1, f"{before!r} is not once in {path}"
        line = data[:start].count(b"\n") + 1
        found.append(Mutant(path, line, where, before, after, start, start + len(before.encode())))
    return found


#: The first failing test of the last :func:`run` (the one that killed the mutant).
KILLED_BY: list[str] = []


def run(tree: Path, rounds: list[list[str]], timeout: int) -> str:
    """Killed, survived, or timeout (a loop the mutant made: killed too)."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1"}
    for tests in rounds:
        command = [
            sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:django", "-p", "no:randomly",
            "-p", "no:cacheprovider", "--noconftest", "--hypothesis-seed=0", "-rf", *tests,
        ]  # fmt: skip
        try:
            done = subprocess.run(
                command, cwd=tree, env=env, capture_output=True, text=True, timeout=timeout
            )
        except subprocess.TimeoutExpired:
            return "timeout"
        if done.returncode != 0:
            failed = [ln for ln in done.stdout.splitlines() if ln.startswith("FAILED ")]
            KILLED_BY[:] = [failed[0].split(" ")[1] if failed else "(no test named)"]
            return "killed"
    return "survived"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    parser.add_argument("--only", default="", help="a regular expression on 'path:function'")
    parser.add_argument(
        "--out", default="", help="append each verdict to this file (and skip those in it)"
    )
    parser.add_argument(
        "--rerun", default="", help="only the mutants an earlier --out file says survived"
    )
    parser.add_argument("--hand", action="store_true", help="the hand-made mutations only")
    parser.add_argument("--timeout", type=int, default=900)
    args = parser.parse_args()
    pattern = re.compile(args.only)
    # The files as they are now: the mutants' offsets are theirs, whatever this checkout
    # becomes while the run goes on (the run works on its own copy).
    originals = {path: (ROOT / path).read_bytes() for path in TARGETS}
    found = [
        m
        for path, wanted in TARGETS.items()
        for m in mutants(path, wanted, originals[path])
        if pattern.search(f"{m.path}:{m.where}")
    ]
    if args.hand:
        found = hand_made(originals)
    if args.out and Path(args.out).exists():  # a run stopped before: go on from there
        done = {line.split(" ", 2)[2].rsplit(" (", 1)[0]
                for line in Path(args.out).read_text(encoding="utf-8").splitlines()}  # fmt: skip
        found = [m for m in found if _name(m) not in done]
    if args.rerun:
        text = Path(args.rerun).read_text(encoding="utf-8")
        survived = {line.split(" ", 2)[2].rsplit(" (", 1)[0] for line in text.splitlines()
                    if line.split(" ")[1:2] == ["survived"]}  # fmt: skip
        found = [m for m in found if _name(m) in survived]
    if args.list:
        for m in found:
            print(f"{m.path}:{m.line} {m.where}: {m.before!r} -> {m.after!r}")
        print(f"{len(found)} mutants")
        return 0
    # Stopped (kill PID): the copy is removed and the running tests with it.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    counts = {"killed": 0, "timeout": 0, "survived": 0}
    with tempfile.TemporaryDirectory(prefix="rules-mutations-") as scratch:
        tree = Path(scratch)
        for part in ("scorebook", "api", "tests", "docs", "pyproject.toml"):
            source = ROOT / part
            if source.is_dir():
                shutil.copytree(source, tree / part, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy2(source, tree / part)
        for path, data in originals.items():
            (tree / path).write_bytes(data)
        # Every test passes on the tree as it is, or a failure would "kill" every mutant.
        every = [t for path in TARGETS for tests in tests_for(path) for t in tests]
        if run(tree, [list(dict.fromkeys(every))], args.timeout) != "survived":
            print("the tests fail without a mutant: fix them first")
            return 1
        for number, mutant in enumerate(found, start=1):
            began = time.monotonic()
            apply(mutant, tree, originals[mutant.path])
            try:
                verdict = run(tree, tests_for(mutant.path), args.timeout)
            finally:
                (tree / mutant.path).write_bytes(originals[mutant.path])
            counts[verdict] += 1
            took = time.monotonic() - began
            line = f"{number}/{len(found)} {verdict} {_name(mutant)} ({took:.0f}s)"
            if verdict == "killed" and args.hand:
                line += f" by {KILLED_BY[0]}"
            print(line, flush=True)
            if args.out:
                with open(args.out, "a", encoding="utf-8") as out:
                    out.write(line + "\n")
    tried = sum(counts.values())
    print(
        f"{tried} mutants: {counts['killed']} killed, {counts['timeout']} timed out (killed), "
        f"{counts['survived']} survived"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
