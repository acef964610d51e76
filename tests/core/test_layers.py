"""The layering rules the code relies on, checked on the source itself: the API and the
pages never swallow errors wholesale (a bug must surface as a logged 500, not as an input
error), selectors only read (they never import services), and imports point down the
layers (rules < core < clubs < matches < ledger < standings < history, tournaments <
federations < archive < sharing < web, api)."""

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


#: The calls whose string is words for a reader (a game's name may be a word there).
WORDS = {"_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy", "pgettext", "pgettext_lazy"}


def strings_in_code(tree: ast.AST):
    """The string constants a module computes with: not its docstrings, not the words
    passed to gettext; f-strings' literal parts included."""
    skip = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = body[0] if body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skip.add(id(first.value))
        if isinstance(node, ast.Call):
            if getattr(node.func, "id", getattr(node.func, "attr", None)) in WORDS:
                skip.update(id(inner) for inner in ast.walk(node))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in skip:
                yield node


def game_knowledge(tree: ast.AST, keys: set[str]) -> list[str]:
    """Where a module names a game: a key in a string it computes with (``"tressette4"``,
    ``f"?game=tressette4"``), or an import of a game's own module."""
    import re

    found = []
    for node in strings_in_code(tree):
        named = keys & set(re.findall(r"[A-Za-z0-9_]+", node.value))
        found += [f"{node.lineno} {key!r}" for key in sorted(named)]
    for node in ast.walk(tree):
        modules: list[str] = []
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        if any(m.startswith("scorebook.rules.games.") for m in modules):
            found.append(f"{node.lineno} imports a game's module")
    return found


def test_no_game_key_outside_the_engine():
    """Each game's rules and the shape of its table live in its engine module: no page,
    service, template or script names a game (``"tressette4"``) to branch on it, nor imports a
    game's module for its cards. The words table of the switches (``web/switches.py``) is
    the one exception. The keys are the engine's registry, so a new game is covered the
    day it is added."""
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
        offenders += [f"{relative}:{where}" for where in game_knowledge(tree, keys)]
    alternatives = "|".join(map(re.escape, sorted(keys)))
    quoted = re.compile(rf"""["'`]({alternatives})["'`]""")
    templates = sorted((ROOT / "templates").rglob("*.html"))
    scripts = sorted((ROOT / "scorebook").rglob("*.js"))  # the pages' own scripts too
    assert templates and scripts
    for path in [*templates, *scripts]:
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            for found in quoted.finditer(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number} {found.group(0)}")
    assert not offenders, "ask the engine's description, not the game's key:\n" + "\n".join(
        offenders
    )


def test_the_game_check_sees_a_game_named():
    source = (
        '"""A page about tressette4 (a docstring)."""\n'
        "from scorebook.rules.games import spinado\n"
        "import scorebook.rules.games.trappola\n"
        "from scorebook.rules import games\n"
        "def f(m):\n"
        '    """tressette4 again."""\n'
        '    label = _("Chiamata (tressette4)")\n'
        '    if m.game == "tressette4": return f"/new?game=terziglio&players=4"\n'
    )
    found = game_knowledge(ast.parse(source), {"tressette4", "terziglio"})
    assert found == [
        "8 'tressette4'",
        "8 'terziglio'",
        "2 imports a game's module",
        "3 imports a game's module",
    ]


#: The layers, lowest first: a module may import its own app and the apps below it. The
#: standings read the ledger (the leaderboard's money), never the other way round; the
#: pages (web) and the API are sibling adapters over the same services: neither imports
#: the other. The federations sit above the tournaments and the standings (their
#: competitions reuse the leagues' and the tournaments' code) and below the archive
#: (erasure and export reach every federation record): the club's record below them does
#: not know they exist.
LAYERS = (
    "rules", "core", "clubs", "matches", "ledger", "standings", ("history", "tournaments"),
    "federations", "archive", "sharing", ("web", "api"),
)  # fmt: skip
RANK = {
    app: rank
    for rank, tier in enumerate(LAYERS)
    for app in (tier if isinstance(tier, tuple) else (tier,))
}
#: The only imports that point up: the record's front door (matches.services) books the
#: ledger and marks the standings in the same transaction as the write.
UPWARD = {
    ("scorebook/matches/services.py", "scorebook.ledger.services"),
    ("scorebook/matches/services.py", "scorebook.standings.outbox"),
}


def _app(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] == "api":
        return "api"
    if parts[0] == "scorebook" and len(parts) > 1 and parts[1] in RANK:
        return parts[1]
    return None


def _imports(path: Path):
    """(line, absolute module) of every import in the file, at the top or in a function;
    ``from . import x`` counts as importing ``package.x``."""
    package = path.relative_to(ROOT).with_suffix("").as_posix().split("/")[:-1]
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package[: len(package) - node.level + 1]
                base = ".".join([*up, *([node.module] if node.module else [])])
            for alias in node.names:
                yield node.lineno, _module(base, alias.name)


def _module(package: str, name: str) -> str:
    """``from package import name``: the submodule when ``name`` is one, else the package."""
    folder = ROOT.joinpath(*package.split("."))
    if (folder / f"{name}.py").exists() or (folder / name / "__init__.py").exists():
        return f"{package}.{name}"
    return package


def upward_imports():
    """Every import of a higher layer (or of the sibling adapter) from a lower one."""
    found = []
    for folder in ("scorebook", "api"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            module = relative.removesuffix(".py").replace("/", ".")
            me = _app(module)
            if me is None:  # the project's settings, urls, celery app: above every layer
                continue
            for line, imported in _imports(path):
                them = _app(imported)
                if them is not None and them != me and RANK[them] >= RANK[me]:
                    found.append((relative, imported, line))
    return found


def test_imports_point_down_the_layers():
    """An app imports only the apps below it; the two calls of the record's front door are
    the listed exceptions, and each is still there (else the list is out of date)."""
    found = upward_imports()
    offenders = [
        f"{path}:{line} imports {module}"
        for path, module, line in found
        if (path, module) not in UPWARD
    ]
    assert not offenders, "an import points up the layers:\n" + "\n".join(offenders)
    assert {(path, module) for path, module, _ in found} == UPWARD


def test_the_layer_check_sees_an_upward_import(tmp_path, monkeypatch):
    """The check itself: a core module importing the pages, written in each import form,
    is found."""
    fake = tmp_path / "scorebook" / "core"
    fake.mkdir(parents=True)
    (tmp_path / "api").mkdir()
    (fake / "wrong.py").write_text(
        "import scorebook.web.views\n"
        "from scorebook.standings import services\n"
        "def later():\n    from ..matches.models import Match\n"
        "from api.idempotency import run_once\n"
    )
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    found = {(module, line) for _, module, line in upward_imports()}
    assert found == {
        ("scorebook.web.views", 1),
        ("scorebook.standings", 2),  # no such folder under tmp_path: the package
        ("scorebook.matches.models", 4),
        ("api.idempotency", 5),
    }


#: The record's registry of what keeps a night open (``matches.closing.CHECKS``): the
#: apps above it named as text, since the record cannot import them. Frozen here like the
#: upward imports: a member added or gone changes this set.
NIGHT_CLOSE = {
    "scorebook.tournaments.selectors.night_close_waits_for",
    "scorebook.federations.selectors.night_close_waits_for",
}


def test_the_night_close_registry_points_at_selectors_above_the_record():
    """Each member of the registry is a selector (it reads) of an app above ``matches``,
    named in full; the registry is the only way the record asks the apps above it."""
    from scorebook.matches import closing

    assert set(closing.CHECKS) == NIGHT_CLOSE
    for path in closing.CHECKS:
        module, _, name = path.rpartition(".")
        assert module.endswith(".selectors"), path
        assert RANK[_app(module)] > RANK["matches"], path
        source = ROOT.joinpath(*module.split(".")).with_suffix(".py").read_text()
        assert f"def {name}(" in source, path


#: The record's registry of who corrects a match from outside its club
#: (``matches.visitors.CHECKS``), frozen the same way.
VISITORS = {"scorebook.federations.selectors.corrects_as_visitor"}


def test_the_visitors_registry_points_at_selectors_above_the_record():
    """Each member of ``matches.visitors.CHECKS`` is a selector of an app above
    ``matches``, named in full, and the module's docstring lists it."""
    from scorebook.matches import visitors

    assert set(visitors.CHECKS) == VISITORS
    for path in visitors.CHECKS:
        module, _, name = path.rpartition(".")
        assert module.endswith(".selectors"), path
        assert RANK[_app(module)] > RANK["matches"], path
        source = ROOT.joinpath(*module.split(".")).with_suffix(".py").read_text()
        assert f"def {name}(" in source, path
        assert path in (visitors.__doc__ or ""), path


def serializers_declared(source: str) -> list[str]:
    """The serializers a module declares: classes whose base is a serializer, and
    ``inline_serializer`` calls."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            bases = [getattr(b, "attr", getattr(b, "id", "")) for b in node.bases]
            if any(base.endswith("Serializer") for base in bases):
                found.append(f"{node.lineno} class {node.name}")
        elif isinstance(node, ast.Call):
            called = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if called == "inline_serializer":
                found.append(f"{node.lineno} inline_serializer")
    return found


def declared_in(folder: Path, finder) -> list[str]:
    """``path:where`` of what ``finder`` finds in each module under ``folder``."""
    return [
        f"{path.relative_to(ROOT)}:{where}"
        for path in sorted(folder.rglob("*.py"))
        for where in finder(path.read_text())
    ]


def test_the_api_views_declare_no_serializer():
    """Each answer and request shape is described once, in ``api/serializers/<area>.py``;
    the view modules use them (issue 25 step 5)."""
    offenders = declared_in(ROOT / "api" / "views", serializers_declared)
    assert not offenders, "move these to api/serializers/:\n" + "\n".join(offenders)
    seen = serializers_declared(
        "from rest_framework import serializers\n"
        "class Body(serializers.Serializer):\n    name = serializers.CharField()\n"
        "class Row(ModelSerializer):\n    pass\n"
        "ANSWER = inline_serializer('Answer', {})\n"
    )
    assert seen == ["2 class Body", "4 class Row", "6 inline_serializer"]


def forms_declared(source: str) -> list[str]:
    """The Django forms a module declares: classes whose base is a form (``forms.Form``,
    ``ModelForm``, ``AuthenticationForm``, another page form...)."""
    return [
        f"{node.lineno} class {node.name}"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ClassDef)
        and any(
            getattr(b, "attr", getattr(b, "id", "")).endswith(("Form", "FormSet"))
            for b in node.bases
        )
    ]


def test_the_page_views_declare_no_form():
    """A page's form lives in ``scorebook/web/forms/<area>.py`` (the deal forms in
    ``scorebook/web/deal_forms/``); the view modules import them (issue 33 item 4)."""
    offenders = declared_in(ROOT / "scorebook" / "web" / "views", forms_declared)
    assert not offenders, "move these to scorebook/web/forms/:\n" + "\n".join(offenders)
    seen = forms_declared(
        "from django import forms\n"
        "class Reason(forms.Form):\n    reason = forms.CharField()\n"
        "class League(ModelForm):\n    pass\n"
        "class Settings(TournamentForm):\n    pass\n"
        "class Helper:\n    pass\n"
    )
    assert seen == ["2 class Reason", "4 class League", "6 class Settings"]


def import_circles() -> list[list[str]]:
    """Modules of scorebook/ and api/ that import each other, directly or round a longer
    loop, counting imports inside functions too (the way a circle is usually hidden)."""
    modules: dict[str, Path] = {}
    for folder in ("scorebook", "api"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            name = path.relative_to(ROOT).with_suffix("").as_posix().replace("/", ".")
            modules[name.removesuffix(".__init__")] = path
    graph = {
        name: {m for _, m in _imports(path) if m in modules and m != name}
        for name, path in modules.items()
    }
    circles: list[list[str]] = []
    done: set[str] = set()
    for start in sorted(graph):
        if start in done or start not in _reach(graph, start):
            continue
        # The modules start reaches that reach start again share its circle.
        circle = sorted(m for m in _reach(graph, start) if start in _reach(graph, m))
        done.update(circle)
        circles.append(circle)
    return circles


def _reach(graph: dict[str, set[str]], start: str) -> set[str]:
    reached, todo = set(), [start]
    while todo:
        for nxt in graph[todo.pop()] - reached:
            reached.add(nxt)
            todo.append(nxt)
    return reached


def test_no_import_circles():
    """No two modules import each other, even from inside a function: a task module runs
    a body that does not schedule it (``standings``: outbox -> tasks -> refresh;
    ``history``: services -> tasks -> importer), issue 25 step 3."""
    circles = import_circles()
    assert not circles, "modules that import each other:\n" + "\n".join(map(str, circles))


def test_the_circle_check_sees_a_hidden_circle(tmp_path, monkeypatch):
    app = tmp_path / "scorebook" / "history"
    app.mkdir(parents=True)
    (tmp_path / "api").mkdir()
    (app / "__init__.py").write_text("")
    (app / "services.py").write_text("def accept():\n    from . import tasks\n")
    (app / "tasks.py").write_text("from .services import accept\n")
    (app / "models.py").write_text("from . import services\n")
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    assert import_circles() == [["scorebook.history.services", "scorebook.history.tasks"]]


def test_no_today_from_the_zone_a_request_has_active():
    """``timezone.localdate()`` with no zone reads the active one, and the API's requests
    run with UTC active: the federation ranking was empty through the API from midnight
    to 1 am in Rome. Today is a club's (``dates.today_in``) or the installation's
    (``dates.today``); the management commands run with TIME_ZONE active."""
    offenders = []
    for folder in ("api", "scorebook"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "management" in path.parts:
                continue
            tree = ast.parse(path.read_text(), filename=str(path))
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Call)
                    and getattr(node.func, "attr", getattr(node.func, "id", None)) == "localdate"
                    and not node.args
                    and not node.keywords
                ):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not offenders, "say whose today it is (dates.today_in / dates.today):\n" + "\n".join(
        offenders
    )
