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
