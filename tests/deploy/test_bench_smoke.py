"""Benches that cannot rot (issue 35 item 6): .ci/run runs every bench command of the
Makefile at a tiny size (`make bench-smoke`, deploy/bench/smoke.py). Here, without running
them: the smoke list is the Makefile's list of benches, and the COPY loaders fill every
column a model gains (matches_match.ended_reason, a NOT NULL column the standings bench's
COPY did not name, stopped `make bench-standings` with a NotNullViolation)."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from scorebook.matches.models import Deal, Match
from tests.deploy.server import ROOT


def load(name: str):
    sys.path.insert(0, str(ROOT))  # the scripts import deploy.bench.common
    try:
        spec = importlib.util.spec_from_file_location(name, ROOT / f"deploy/bench/{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT))
    return module


def test_every_bench_command_of_the_makefile_has_a_smoke_run():
    smoke = load("smoke")
    benches = smoke.bench_targets()
    assert {"bench", "bench-standings", "bench-http", "page-weight"} <= benches
    assert benches == set(smoke.SMOKES)


def test_a_makefile_bench_without_a_smoke_run_is_found(tmp_path):
    smoke = load("smoke")
    makefile = tmp_path / "Makefile"
    makefile.write_text((ROOT / "Makefile").read_text() + "\nbench-new: install\n\ttrue\n")
    assert smoke.bench_targets(makefile) - set(smoke.SMOKES) == {"bench-new"}


def test_copy_fills_the_columns_a_loader_does_not_name_from_the_model():
    common = load("common")
    given = ["id", "night_id", "game", "rules", "players", "seats", "first_dealer", "created_at"]
    columns, rest = common.copy_columns(Match, given)
    names = columns.split(", ")
    assert names[: len(given)] == given
    assert {f.column for f in Match._meta.concrete_fields} == set(names)
    values = dict(zip(names[len(given) :], rest.split("\t")[1:], strict=True))
    assert values["ended_reason"] == ""  # NOT NULL, blank: what stopped bench-standings
    assert values["state"] == "{}" and values["status"] == "open"
    assert values["result"] == "\\N" and values["table_id"] == "\\N"


def test_copy_refuses_a_not_null_column_without_default_by_name():
    common = load("common")
    with pytest.raises(SystemExit, match="matches_deal.input is NOT NULL with no default"):
        common.copy_columns(Deal, ["id", "match_id", "number"])
