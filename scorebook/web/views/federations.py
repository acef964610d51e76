"""The federation's pages (issue 34): the federations one sees and founding one
(``/f/``), a federation's home, officers, member clubs and invitations, persons and
numbers, settings (``/f/<fed>/...``), and the public page of one that publishes
(``/public/f/<fed>/``). The same services as the API's: each write refused in words.

A federation the user may not see is 404, as another club is. Officers see the member
clubs' names and the persons linked in them; nothing of a club's nights, money or members.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Page, Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scorebook.core.numbers import object_or_404
from scorebook.core.people import signed_in
from scorebook.core.refusals import Refusal
from scorebook.federations import selectors
from scorebook.federations.models import (
    ClubInvitation,
    Federation,
    FederationNumber,
    Officer,
    OfficerRole,
)
from scorebook.federations.services import federation as federations
from scorebook.federations.services import membership, numbers
from scorebook.federations.services.guards import require_officer
from scorebook.web.errors import refused
from scorebook.web.forms.federations import (
    ClubInviteForm,
    FederationForm,
    NumberForm,
    OfficerForm,
    OfficerRoleForm,
)

# The member clubs a federation's pages list on one page (issue 35: at 2,002 clubs one page
# of all of them answered a tenth as fast as a plain 50-row read).
CLUBS_PER_PAGE = 50


def clubs_page(request: HttpRequest, rows: Any) -> Page:
    """One page of ``rows`` (``?page=``; not a number is the first, out of range the last)."""
    return Paginator(rows, CLUBS_PER_PAGE).get_page(request.GET.get("page"))


def federation_for(request: HttpRequest, fed: str) -> tuple[Federation, Officer | None]:
    """The federation at ``fed`` and the user's office in it; 404 unless they see it."""
    federation = get_object_or_404(selectors.federations_visible(request.user), slug=fed)
    return federation, selectors.officer_of(request.user, federation.pk)


def _context(federation: Federation, office: Officer | None, nav: str, **extra: Any) -> dict:
    """What every federation page shows in its header: the office's reach."""
    return {
        "federation": federation,
        "office": office,
        "nav": nav,
        "is_officer": office is not None,
        "is_secretary": office is not None and office.at_least(OfficerRole.SECRETARY),
        "is_president": office is not None and office.at_least(OfficerRole.PRESIDENT),
        **extra,
    }


@login_required
@require_http_methods(["GET", "POST"])
def federation_list(request: HttpRequest) -> HttpResponse:
    """The federations one sees (an officer's, one's clubs', those that publish), and the
    form to found one (the founder is its president)."""
    form = FederationForm(request.POST if request.method == "POST" else None)
    context = {
        "federations": selectors.federations_visible(request.user),
        "offices": dict(
            Officer.objects.filter(user_id=signed_in(request).pk).values_list(
                "federation_id", "role"
            )
        ),
        "form": form,
    }
    if request.method == "POST" and form.is_valid():
        try:
            made = federations.federation_create(user=signed_in(request), **form.cleaned_data)
        except Refusal as refusal:
            return refused(request, refusal, template="web/federations/list.html", context=context)
        messages.success(request, _("Federation founded: you are its president."))
        return redirect("web:federation", fed=made.slug)
    return render(request, "web/federations/list.html", context, status=400 if form.errors else 200)


@login_required
def federation_home(request: HttpRequest, fed: str) -> HttpResponse:
    """The federation: its level, officers and member clubs (and the clubs that left)."""
    federation, office = federation_for(request, fed)
    context = _context(
        federation,
        office,
        "home",
        officers=selectors.officers(federation),
        periods=clubs_page(request, selectors.current_affiliations(federation)),
        number=selectors.number_of(federation, request.user),
    )
    return render(request, "web/federations/home.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def federation_officers(request: HttpRequest, fed: str) -> HttpResponse:
    """The officers; the president names one, changes a role or removes one, and any
    officer may step down (a federation keeps a president)."""
    federation, office = federation_for(request, fed)
    form = OfficerForm(request.POST if "add" in request.POST else None)
    context = _context(
        federation, office, "officers", officers=selectors.officers(federation), form=form
    )
    user = signed_in(request) if request.method == "POST" else None
    if user is not None and "add" in request.POST:
        if not form.is_valid():
            return render(request, "web/federations/officers.html", context, status=400)
        try:
            federations.officer_add(federation=federation, user=user, **form.cleaned_data)
        except Refusal as refusal:
            template = "web/federations/officers.html"
            return refused(request, refusal, template=template, context=context)
        messages.success(request, _("Officer named."))
    elif user is not None:
        target = object_or_404(Officer, request.POST.get("officer"), federation=federation)
        if "remove" in request.POST:
            federations.officer_remove(officer=target, user=user)
            messages.success(
                request, _("%(name)s is no longer an officer.") % {"name": target.user}
            )
        else:
            change = OfficerRoleForm(request.POST)
            if not change.is_valid():
                return render(request, "web/federations/officers.html", context, status=400)
            federations.officer_change(officer=target, role=change.cleaned_data["role"], user=user)
            messages.success(request, _("Role changed."))
    if user is not None:
        if not selectors.federations_visible(request.user).filter(pk=federation.pk).exists():
            return redirect("web:federations")
        return redirect("web:federation_officers", fed=federation.slug)
    return render(request, "web/federations/officers.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def federation_clubs(request: HttpRequest, fed: str) -> HttpResponse:
    """The member clubs (every period); officers see the open invitations, and a secretary
    invites a club by its address or withdraws an invitation."""
    federation, office = federation_for(request, fed)
    form = ClubInviteForm(request.POST if "invite" in request.POST else None)
    context = _context(
        federation,
        office,
        "clubs",
        periods=clubs_page(request, selectors.affiliations(federation)),
        invitations=selectors.open_club_invitations(federation=federation) if office else [],
        form=form,
    )
    if request.method == "GET":
        return render(request, "web/federations/clubs.html", context)
    user = signed_in(request)
    if "invite" in request.POST:
        if not form.is_valid():
            return render(request, "web/federations/clubs.html", context, status=400)
        try:
            membership.club_invite(
                federation=federation,
                slug=form.cleaned_data["club"],
                days=form.cleaned_data["days"],
                user=user,
            )
        except Refusal as refusal:
            return refused(request, refusal, template="web/federations/clubs.html", context=context)
        messages.success(request, _("Invitation sent: the club's owner answers on its page."))
    elif "invitation" in request.POST:
        require_officer(user, federation.pk, OfficerRole.SECRETARY)
        invitation = object_or_404(
            ClubInvitation, request.POST.get("invitation"), federation=federation
        )
        membership.club_invitation_withdraw(invitation=invitation, user=user)
        messages.success(request, _("Invitation withdrawn."))
    else:
        return render(request, "web/federations/clubs.html", context, status=400)
    return redirect("web:federation_clubs", fed=federation.slug)


@login_required
@require_http_methods(["GET", "POST"])
def federation_persons(request: HttpRequest, fed: str) -> HttpResponse:
    """The persons of the federation (officers): number, username, linked players and
    their clubs. A secretary sets a number to the card a person already has."""
    federation, office = federation_for(request, fed)
    user = signed_in(request)
    require_officer(user, federation.pk, OfficerRole.OFFICER)
    context = _context(
        federation, office, "persons", persons=selectors.federation_persons(federation)
    )
    if request.method == "POST":
        row = object_or_404(FederationNumber, request.POST.get("row"), federation=federation)
        form = NumberForm(request.POST)
        if not form.is_valid():
            context["refusal_errors"] = {"": [e for es in form.errors.values() for e in es]}
            return render(request, "web/federations/persons.html", context, status=400)
        try:
            numbers.number_set(row=row, number=form.cleaned_data["number"], user=user)
        except Refusal as refusal:
            template = "web/federations/persons.html"
            return refused(request, refusal, template=template, context=context)
        messages.success(request, _("Number changed."))
        return redirect("web:federation_persons", fed=federation.slug)
    return render(request, "web/federations/persons.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def federation_settings(request: HttpRequest, fed: str) -> HttpResponse:
    """The president changes the name, the address, the level, whether it publishes."""
    federation, office = federation_for(request, fed)
    user = signed_in(request)
    require_officer(user, federation.pk, OfficerRole.PRESIDENT)
    initial = {f: getattr(federation, f) for f in ("name", "slug", "level", "publishes")}
    form = FederationForm(request.POST if request.method == "POST" else None, initial=initial)
    context = _context(federation, office, "settings", form=form)
    if request.method == "POST":
        if not form.is_valid():
            return render(request, "web/federations/settings.html", context, status=400)
        try:
            changed = federations.federation_update(
                federation=federation, changes=form.cleaned_data, user=user
            )
        except Refusal as refusal:
            template = "web/federations/settings.html"
            return refused(request, refusal, template=template, context=context)
        messages.success(request, _("Settings saved."))
        return redirect("web:federation_settings", fed=changed.slug)
    return render(request, "web/federations/settings.html", context)


def public_federation(request: HttpRequest, fed: str) -> HttpResponse:
    """A federation that publishes: name, level, member clubs (CLUBS_PER_PAGE to a page).
    Never any money."""
    federation = Federation.objects.filter(slug=fed, publishes=True).first()
    if federation is None:
        raise Http404
    clubs = clubs_page(request, selectors.member_clubs(federation))
    return render(
        request, "web/federations/public.html", {"federation": federation, "clubs": clubs}
    )
