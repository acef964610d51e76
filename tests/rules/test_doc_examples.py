"""Every ```json example in the docs is real: it scores (or, fenced ```json reject, is
refused with a structured rejection), exactly as the CLI would print it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from scorebook.rules.__main__ import run

DOCS = Path(__file__).resolve().parents[2] / "docs"
FENCE = re.compile(r"^```(json(?: reject)?)\n(.*?)^```", re.M | re.S)


def examples():
    for path in sorted(DOCS.rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            rel = path.relative_to(DOCS.parent)
            yield pytest.param(match.group(1), match.group(2), id=f"{rel}:{line}")


CASES = list(examples())


@pytest.mark.skipif(not CASES, reason="no documented examples yet")
@pytest.mark.parametrize("fence,body", CASES)
def test_documented_example(fence, body):
    data = json.loads(body)
    assert isinstance(data, dict) and "game" in data, "examples are whole deals or matches"
    code, out = run("score", body)
    if fence == "json reject":
        assert code == 2 and out["ok"] is False and out["errors"]
    else:
        assert code == 0, json.dumps(out, ensure_ascii=False, indent=1)[:2000]
