"""CPU seconds per test and phase: the suite's figure that the machine's load does not move.

On two cores shared by several people a test's wall time (``--durations``) swings tenfold
with the load; the CPU its process spent does not. As a plugin it writes one JSON line per
test and phase (setup, call, teardown: the process's CPU, the CPU of the children it
waited for, the wall time) to ``$CPUTIME_OUT.<worker>.jsonl``:

    CPUTIME_OUT=/tmp/cpu/suite .venv/bin/python -m pytest -p tests.cputime -n 2 tests/api

and as a command it sums them (by phase, by folder, the slowest tests and setups):

    .venv/bin/python -m tests.cputime /tmp/cpu/suite [how many slowest, 20]

A browser's or a server's own CPU (Chromium, gunicorn) is not in it: only the children a
test waited for (``manage.py`` run to its end) are.
"""

from __future__ import annotations

import collections
import glob
import json
import os
import resource
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any, TextIO

import pytest

_out: TextIO | None = None


def _file() -> TextIO:
    global _out
    if _out is None:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        _out = open(f"{os.environ.get('CPUTIME_OUT', 'cputime')}.{worker}.jsonl", "a")  # noqa: SIM115
    return _out


def _children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _phase(name: str) -> Callable[..., Iterator[None]]:
    @pytest.hookimpl(hookwrapper=True)
    def hook(item: pytest.Item, *args: Any, **kwargs: Any) -> Iterator[None]:
        cpu, wall, children = time.process_time(), time.perf_counter(), _children()
        yield
        row = {
            "id": item.nodeid,
            "phase": name,
            "cpu": time.process_time() - cpu,
            "child": _children() - children,
            "wall": time.perf_counter() - wall,
        }
        _file().write(json.dumps(row) + "\n")
        _file().flush()

    return hook


pytest_runtest_setup = _phase("setup")
pytest_runtest_call = _phase("call")
pytest_runtest_teardown = _phase("teardown")


def summary(prefix: str, slowest: int = 20) -> str:
    rows = [json.loads(line) for path in glob.glob(f"{prefix}.*.jsonl") for line in open(path)]
    phases: collections.Counter[str] = collections.Counter()
    folders: collections.Counter[str] = collections.Counter()
    tests: collections.Counter[str] = collections.Counter()
    setups: collections.Counter[str] = collections.Counter()
    for row in rows:
        if row["phase"] not in ("setup", "call", "teardown"):
            continue
        cpu = row["cpu"] + row.get("child", 0.0)
        phases[row["phase"]] += cpu
        folders["/".join(row["id"].split("/")[:2])] += cpu
        tests[row["id"]] += cpu
        if row["phase"] == "setup":
            setups[row["id"]] += cpu
    lines = [
        f"{len(tests)} tests, {sum(phases.values()):.1f} s of CPU: "
        + ", ".join(f"{name} {seconds:.1f}" for name, seconds in phases.most_common()),
        "by folder: " + ", ".join(f"{name} {s:.1f}" for name, s in folders.most_common()),
        f"slowest {slowest} tests (setup + call + teardown, s of CPU):",
        *(f"{seconds:7.2f}  {name}" for name, seconds in tests.most_common(slowest)),
        f"slowest {slowest} setups:",
        *(f"{seconds:7.2f}  {name}" for name, seconds in setups.most_common(slowest)),
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(summary(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 20))
