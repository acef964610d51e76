"""The house stays readable (issue 33 item 6): no module of scorebook/ or api/ over 800
lines, outside the engine's game tables (scorebook/rules/games/) and the migrations; no
function over 80 lines unless it is flat data (a function that returns one list, tuple or
dict written out, such as the export's table of parts)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODULE_MOST = 800
FUNCTION_MOST = 80
DISPLAYS = (ast.List, ast.Tuple, ast.Dict, ast.Set)


def sources() -> list[tuple[str, Path]]:
    found = []
    for folder in ("scorebook", "api"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if "/migrations/" in relative or relative.startswith("scorebook/rules/games/"):
                continue
            found.append((relative, path))
    return found


def flat_data(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Most of the function (three lines in four) is one ``return`` of a list, tuple,
    dict or set written out."""
    length = (function.end_lineno or function.lineno) - function.lineno + 1
    for node in function.body:
        if isinstance(node, ast.Return) and isinstance(node.value, DISPLAYS):
            spans = (node.end_lineno or node.lineno) - node.lineno + 1
            if 4 * spans >= 3 * length:
                return True
    return False


def long_functions(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > FUNCTION_MOST and not flat_data(node):
                found.append(f"{node.lineno} {node.name} ({length} lines)")
    return found


def test_no_module_over_800_lines():
    files = sources()
    assert len(files) > 200
    over = [
        f"{relative} ({count} lines)"
        for relative, path in files
        if (count := len(path.read_text().splitlines())) > MODULE_MOST
    ]
    assert not over, "split these by job:\n" + "\n".join(over)


def test_no_function_over_80_lines_but_flat_data():
    over = [
        f"{relative}:{where}"
        for relative, path in sources()
        for where in long_functions(path.read_text())
    ]
    assert not over, "split these (or make them flat data):\n" + "\n".join(over)


def test_the_size_check_tells_flat_data_from_a_long_body():
    steps = "".join(f"    x{i} = {i}\n" for i in range(85))
    rows = "".join(f"        ({i}, 'row {i}'),\n" for i in range(85))
    source = (
        f"def long():\n{steps}    return x0\n"
        f"def table():\n    made = 1\n    return [\n{rows}    ]\n"
        f"def short():\n    return [1, 2]\n"
    )
    assert long_functions(source) == ["1 long (87 lines)"]
