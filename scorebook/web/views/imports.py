"""The director's import of the club's past nights (docs/import.md): upload, preview,
accept (a task; the page follows its progress with htmx), undo."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRefresh

from scorebook.clubs.models import Role
from scorebook.clubs.services import require_role
from scorebook.core.numbers import object_or_404
from scorebook.core.people import signed_in
from scorebook.core.refusals import Refusal
from scorebook.history import selectors, services
from scorebook.history.models import Import
from scorebook.history.template import check_size
from scorebook.web.access import club_for, page_context
from scorebook.web.errors import refused

#: How often the page asks for the import's progress, in seconds.
from scorebook.web.forms.imports import ImportForm

PROGRESS_EVERY = 1


def _director(request, slug):
    club, membership = club_for(request, slug)
    require_role(request.user, club.pk, Role.DIRECTOR)
    return club, membership


EXAMPLE = Path(settings.BASE_DIR) / "docs" / "import-example.csv"


@login_required
def example(request, slug):
    """The template's example file (docs/import-example.csv), to start from."""
    _director(request, slug)
    response = HttpResponse(EXAMPLE.read_bytes(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="import-example.csv"'
    return response


@login_required
def imports(request, slug):
    """Upload a file for its preview; the club's imports so far."""
    club, membership = _director(request, slug)
    form = ImportForm(request.POST or None, request.FILES or None)
    past = Import.objects.filter(club=club).defer(*HEAVY).order_by("-created_at", "-id")[:20]
    context = page_context(club, membership, nav="settings", form=form, past=past)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            check_size(upload.size)
            batch = services.import_upload(
                club=club, user=signed_in(request), filename=upload.name or "", data=upload.read()
            )
        except Refusal as refusal:
            return refused(request, refusal, template="web/imports/upload.html", context=context)
        return redirect("web:import", slug=club.slug, pk=batch.pk)
    return render(request, "web/imports/upload.html", context)


#: What a page about an import does not read: the kept file, and the preview's plan
#: (read when asked for: the problems of a refused file, on its own page).
HEAVY = ("upload", "plan")


def _batch(request, slug, pk):
    club, membership = _director(request, slug)
    batch = object_or_404(Import.objects.filter(club=club).defer(*HEAVY), pk)
    return club, membership, batch


def _problems(batch: Import) -> list[dict[str, Any]]:
    """A refused file's problems, each with its words in the page's language."""
    lang = "it" if (get_language() or "en").startswith("it") else "en"
    return [{**p, "words": p["message"][lang]} for p in batch.plan.get("problems", [])]


def _summary(batch: Import) -> dict[str, Any]:
    """The preview's numbers with its first and last night as dates, so the page writes
    them as the reader does (the API keeps the ISO text)."""
    found = selectors.summary(batch)
    for end in ("first", "last"):
        if found[end]:
            found[end] = datetime.date.fromisoformat(found[end])
    return found


@login_required
def import_detail(request, slug, pk):
    """The check's progress bar while it runs, then the preview (accept it) or the rows
    to correct; the import's progress bar while it runs, its outcome (undo it)."""
    club, membership, batch = _batch(request, slug, pk)
    if request.htmx and request.GET.get("was") == "checking":
        if batch.status != Import.Status.CHECKING:  # checked: the whole page shows it
            return HttpResponseClientRefresh()
    template = "web/imports/progress.html" if request.htmx else "web/imports/detail.html"
    return render(request, template, _detail(club, membership, batch))


def _detail(club, membership, batch: Import) -> dict[str, Any]:
    context = page_context(
        club,
        membership,
        nav="settings",
        batch=batch,
        summary=_summary(batch),
        every=PROGRESS_EVERY,
        days=settings.IMPORT_PREVIEW_DAYS,
    )
    if batch.status == Import.Status.REFUSED:
        context["problems"] = _problems(batch)
        context["more_problems"] = batch.plan.get("more_problems", 0)
    return context


@login_required
@require_POST
def import_accept(request, slug, pk):
    club, membership, batch = _batch(request, slug, pk)
    try:
        services.import_accept(batch=batch, user=signed_in(request))
    except Refusal as refusal:
        context = _detail(club, membership, batch)
        return refused(request, refusal, template="web/imports/detail.html", context=context)
    return redirect("web:import", slug=club.slug, pk=batch.pk)


@login_required
@require_POST
def import_undo(request, slug, pk):
    club, membership, batch = _batch(request, slug, pk)
    try:
        services.import_undo(batch=batch, user=signed_in(request))
    except Refusal as refusal:
        context = _detail(club, membership, batch)
        return refused(request, refusal, template="web/imports/detail.html", context=context)
    messages.success(request, _("The import is undone: its nights are removed."))
    return redirect("web:import", slug=club.slug, pk=batch.pk)
