"""The layering rules the code relies on, checked on the source itself: the API and the
pages never swallow errors wholesale (a bug must surface as a logged 500, not as an input
error), and selectors only read (they never import services)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BROAD = {"Exception", "BaseException", "ValueError"}


def handlers(path: Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.ExceptHandler):
            caught = node.type
            names = caught.elts if isinstance(caught, ast.Tuple) else [caught]
            yield node.lineno, [getattr(n, "id", getattr(n, "attr", None)) for n in names]


def test_the_api_and_pages_catch_no_broad_errors():
    offenders = []
    for folder in ("api", "scorebook/web"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for line, names in handlers(path):
                if names == [None] or BROAD & set(names):
                    offenders.append(f"{path.relative_to(ROOT)}:{line} catches {names}")
    assert not offenders, "let refusals reach the handler:\n" + "\n".join(offenders)


def test_selectors_never_import_services():
    """Selectors read; a selector that imports a service could write (or be tempted to)."""
    offenders = []
    for path in sorted((ROOT / "scorebook").rglob("selectors.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            if any(n == "services" or n.endswith(".services") or ".services." in n for n in names):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert len(list((ROOT / "scorebook").rglob("selectors.py"))) >= 3
    assert not offenders, "selectors import services:\n" + "\n".join(offenders)


def test_no_game_key_outside_the_engine():
    """Each game's rules and the shape of its table live in its engine module: no page,
    service or template names a game (``"tressette4"``) to branch on it. The words table of
    the switches (``web/switches.py``) is the one exception. The keys are the engine's
    registry, so a new game is covered the day it is added."""
    import re

    from scorebook.rules import games

    keys = set(games())
    assert len(keys) >= 11
    offenders = []
    sources = [*sorted((ROOT / "scorebook").rglob("*.py")), *sorted((ROOT / "api").rglob("*.py"))]
    for path in sources:
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith("scorebook/rules/") or relative == "scorebook/web/switches.py":
            continue
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value in keys:
                offenders.append(f"{relative}:{node.lineno} {node.value!r}")
    alternatives = "|".join(map(re.escape, sorted(keys)))
    quoted = re.compile(rf"""["']({alternatives})["']""")
    templates = sorted((ROOT / "templates").rglob("*.html"))
    assert templates
    for path in templates:
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            for found in quoted.finditer(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number} {found.group(0)}")
    assert not offenders, "ask the engine's description, not the game's key:\n" + "\n".join(
        offenders
    )
