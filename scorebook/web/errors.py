"""The pages' one mapping from a service's refusal to what the user sees.

A service raises a :class:`~scorebook.core.refusals.Refusal`; its ``errors()`` entries
(``code``, ``path``, ``message``, ``params``) are the same ones the API answers with. A page
shows each entry next to the field named by its ``path`` (``"seats.N"`` belongs to the
``seats`` field, or to a field literally called ``seats.N``); an entry without a matching
field is shown at the top of the form.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from scorebook.core.refusals import Refusal

_SEGMENT = re.compile(r"[.\[]")


def field_for(path: str, fields: Iterable[str]) -> str | None:
    """The field an error ``path`` belongs to: the whole path, else its first segment."""
    names = set(fields)
    if not path:
        return None
    if path in names:
        return path
    head = _SEGMENT.split(path, maxsplit=1)[0]
    return head if head in names else None


def errors_by_field(refusal: Refusal, fields: Iterable[str] = ()) -> dict[str, list[str]]:
    """Messages grouped by field name; ``""`` holds those that belong to no field.

    For pages whose inputs are not a Django form (the deal-entry grid): pass the names of
    the inputs on the page, or nothing to group by the raw ``path``.
    """
    names = list(fields)
    grouped: dict[str, list[str]] = {}
    for entry in refusal.errors():
        path = entry.get("path") or ""
        key = (field_for(path, names) or "") if names else path
        grouped.setdefault(key, []).append(entry["message"])
    return grouped


def add_refusal(form: forms.BaseForm, refusal: Refusal) -> None:
    """Put a refusal's messages on ``form``, each next to its field when it has one."""
    for entry in refusal.errors():
        form.add_error(field_for(entry.get("path") or "", form.fields), entry["message"])


def refused(
    request: HttpRequest, refusal: Refusal, *, template: str, context: dict[str, Any]
) -> HttpResponse:
    """Render ``template`` again with the refusal shown, answering with its status."""
    form = context.get("form")
    if isinstance(form, forms.BaseForm):
        add_refusal(form, refusal)
    else:
        context = {**context, "refusal_errors": errors_by_field(refusal)}
    response = render(request, template, context, status=refusal.status)
    for name, value in refusal.headers().items():
        response[name] = value
    return response
