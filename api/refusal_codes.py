"""Which refusals an operation can answer with, found in its code rather than written by
hand: the view's handler is read (its source, as Python's ``ast``), every call in it that
names a :class:`Refusal` subclass counts, and every call to a function or method of the
project (``api``, ``scorebook``) is read in turn, down to the services and the selectors.
A service that learns a new refusal is documented on every operation that reaches it.

What it cannot follow (a method called on an object it cannot name) it leaves out, so
the lists say what an operation *can* refuse with as far as the code shows, and the
contract's common refusals (input, sign-in, role, throttle, Idempotency-Key) are said once
for all (``api.schema``).
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Callable, Iterator
from typing import Any

from django.db.models import Model

from api.lookups import PAGE_NOT_FOUND, code_of, found, missing, model_code
from scorebook.core.refusals import Refusal

#: Packages whose functions are read; anything else (Django, DRF) is not followed.
OURS = ("api.", "scorebook.")


def _source_tree(function: Callable[..., Any]) -> ast.AST | None:
    try:
        source = textwrap.dedent(inspect.getsource(function))
    except (OSError, TypeError):
        return None
    return ast.parse(source)


def _ours(value: Any) -> bool:
    module = getattr(value, "__module__", "") or ""
    return module.startswith(OURS)


def _resolve(node: ast.expr, scope: dict[str, Any], owner: type | None) -> Any:
    """The object an expression names (``services.deal_create``, ``self.get_object``,
    ``NoSuchMatch``), or None when it cannot be known without running the code."""
    if isinstance(node, ast.Name):
        if node.id == "self" and owner is not None:
            return owner
        return scope.get(node.id)
    if isinstance(node, ast.Attribute):
        base = _resolve(node.value, scope, owner)
        if base is None:
            return None
        return (
            inspect.getattr_static(base, node.attr, None)
            if isinstance(base, type)
            else (getattr(base, node.attr, None) if inspect.ismodule(base) else None)
        )
    return None


def _unwrap(value: Any) -> Any:
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    return inspect.unwrap(value) if callable(value) else value


def _model_of(node: ast.expr, scope: dict[str, Any], owner: type | None) -> type[Model] | None:
    """The model a lookup's first argument names: ``Match`` or ``Match.objects...``."""
    while isinstance(node, ast.Call | ast.Attribute):
        node = node.func if isinstance(node, ast.Call) else node.value
    value = _resolve(node, scope, owner)
    return value if isinstance(value, type) and issubclass(value, Model) else None


_READ: dict[tuple[Any, Any], frozenset[Any]] = {}


def _found_in(function: Callable[..., Any], owner: type | None) -> frozenset[Any]:
    """Refusal classes and 404 codes (strings) reachable from ``function`` (each function
    read once; one being read already, as in a recursion, adds nothing more)."""
    key = (function, owner)
    if key not in _READ:
        _READ[key] = frozenset()
        _READ[key] = _read(function, owner)
    return _READ[key]


def _read(function: Callable[..., Any], owner: type | None) -> frozenset[Any]:
    tree = _source_tree(function)
    if tree is None:
        return frozenset()
    scope = dict(getattr(function, "__globals__", {}))
    out: set[Any] = set()
    for node in ast.walk(tree):
        named: ast.expr | None = None
        if isinstance(node, ast.Call):
            named = node.func
        elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Name | ast.Attribute):
            named = node.exc
        if named is None:
            continue
        target = _unwrap(_resolve(named, scope, owner))
        if isinstance(target, type) and issubclass(target, Refusal):
            out.add(target)
        elif target in (found, missing) and isinstance(node, ast.Call) and node.args:
            model = _model_of(node.args[0], scope, owner)
            if model is not None:
                out.add(model_code(model))
        elif inspect.isfunction(target) and _ours(target):
            nested_owner = owner if isinstance(named, ast.Attribute) and _is_self(named) else None
            out |= _found_in(target, nested_owner)
    return frozenset(out)


def _is_self(node: ast.Attribute) -> bool:
    return isinstance(node.value, ast.Name) and node.value.id == "self"


def _handler(view: Any, method: str) -> Callable[..., Any] | None:
    action = getattr(view, "action", None)
    name = action if action else method.lower()
    handler = inspect.getattr_static(type(view), name, None)
    return _unwrap(handler) if handler is not None else None


def _not_found(view: Any) -> Iterator[str]:
    action = getattr(view, "action", None)
    basename = getattr(view, "basename", None)
    named = getattr(view, "not_found_code", None)
    if named:
        yield named
    if basename and action not in (None, "list", "create"):
        yield code_of(basename)
    paginated = action == "list" or (action is None and hasattr(view, "list"))
    if paginated and getattr(view, "pagination_class", None) is not None:
        yield PAGE_NOT_FOUND


def refusals(view: Any, method: str) -> dict[str, set[str]]:
    """HTTP status -> the codes an operation may refuse with (404s included)."""
    handler = _handler(view, method)
    found_here = _found_in(handler, type(view)) if handler is not None else frozenset()
    # DRF's own handlers (list, retrieve) call the view's lookups: read those too.
    for name in ("get_queryset", "get_object"):
        lookup = _unwrap(inspect.getattr_static(type(view), name, None))
        if inspect.isfunction(lookup) and _ours(lookup):
            found_here |= _found_in(lookup, type(view))
    by_status: dict[str, set[str]] = {}
    for item in found_here:
        if isinstance(item, str):
            by_status.setdefault("404", set()).add(item)
        else:
            by_status.setdefault(str(item.status), set()).add(item.code)
    for code in _not_found(view):
        by_status.setdefault("404", set()).add(code)
    return by_status
