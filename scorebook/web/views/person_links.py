"""A club's side of the federation (issue 34) and one person across clubs: the club's
federations and the invitations its owner answers (``/c/<slug>/federations``), the club's
links of players to persons its directors keep (``/c/<slug>/links``), and the person's own
links and numbers (``/me/links``). The same services as the API's."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scorebook.clubs.models import Role
from scorebook.clubs.services import require_role
from scorebook.core.numbers import object_or_404
from scorebook.core.people import signed_in
from scorebook.core.refusals import Refusal
from scorebook.federations import selectors
from scorebook.federations.models import Affiliation, ClubInvitation, PersonLink
from scorebook.federations.services import links, membership
from scorebook.web.access import club_for, page_context
from scorebook.web.errors import refused
from scorebook.web.forms.federations import LinkAcceptForm, LinkAskForm, LinkProposeForm


@login_required
@require_http_methods(["GET", "POST"])
def club_federations(request: HttpRequest, slug: str) -> HttpResponse:
    """The federations the club belongs to (and belonged to) and the invitations waiting;
    the owner accepts or declines an invitation and takes the club out of a federation."""
    club, member = club_for(request, slug)
    context = page_context(
        club,
        member,
        nav="settings",
        periods=selectors.club_affiliations(club),
        invitations=selectors.open_club_invitations(club=club),
    )
    if request.method == "POST":
        user = signed_in(request)
        require_role(user, club.pk, Role.OWNER)
        if "leave" in request.POST:
            period = object_or_404(Affiliation, request.POST.get("leave"), club=club)
            membership.club_leave(affiliation=period, user=user)
            messages.success(
                request, _("The club has left %(name)s.") % {"name": period.federation}
            )
        elif request.POST.get("answer") in ("accept", "decline"):
            invitation = object_or_404(ClubInvitation, request.POST.get("invitation"), club=club)
            if request.POST["answer"] == "accept":
                membership.club_invitation_accept(invitation=invitation, user=user)
                messages.success(
                    request, _("The club has joined %(name)s.") % {"name": invitation.federation}
                )
            else:
                membership.club_invitation_decline(invitation=invitation, user=user)
                messages.success(request, _("Invitation declined."))
        else:  # neither an answer nor leaving: nothing to do
            return render(request, "web/federations/club.html", context, status=400)
        return redirect("web:club_federations", slug=club.slug)
    return render(request, "web/federations/club.html", context)


def _club_links_context(club, member, propose, requests):
    return page_context(
        club,
        member,
        nav="players",
        links=selectors.club_person_links(club),
        propose=propose,
        requests=requests,
    )


@login_required
@require_http_methods(["GET", "POST"])
def club_links(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's links of its players to persons (directors): propose one, answer a
    person's request naming the player, remove one."""
    club, member = club_for(request, slug)
    user = signed_in(request)
    require_role(user, club.pk, Role.DIRECTOR)
    posted = request.POST if request.method == "POST" else None
    propose = LinkProposeForm(posted if "propose" in request.POST else None, club=club)
    waiting = selectors.club_person_links(club).filter(
        status=PersonLink.Status.PROPOSED, origin=PersonLink.Origin.PERSON
    )
    requests = [(link, LinkAcceptForm(club=club, prefix=f"l{link.pk}")) for link in waiting]
    context = _club_links_context(club, member, propose, requests)
    if posted is None:
        return render(request, "web/federations/club_links.html", context)
    template = "web/federations/club_links.html"
    if "propose" in posted:
        if not propose.is_valid():
            return render(request, template, context, status=400)
        try:
            links.person_link_propose(
                player=propose.cleaned_data["player"],
                username=propose.cleaned_data["username"],
                user=user,
            )
        except Refusal as refusal:
            return refused(request, refusal, template=template, context=context)
        messages.success(request, _("Link proposed: the person accepts on their account page."))
        return redirect("web:club_links", slug=club.slug)
    link = object_or_404(PersonLink, posted.get("link"), club=club)
    if "accept" in posted:
        answer = LinkAcceptForm(posted, club=club, prefix=f"l{link.pk}")
        if not answer.is_valid():
            context["refusal_errors"] = {"": [e for es in answer.errors.values() for e in es]}
            return render(request, template, context, status=400)
        try:
            links.person_link_accept(link=link, player=answer.cleaned_data["player"], user=user)
        except Refusal as refusal:
            return refused(request, refusal, template=template, context=context)
        messages.success(request, _("Linked."))
    elif "decline" in posted:
        links.person_link_decline(link=link, user=user)
        messages.success(request, _("Request declined."))
    elif "remove" in posted:
        links.person_link_remove(link=link, user=user)
        messages.success(request, _("Link removed."))
    else:
        return render(request, template, context, status=400)
    return redirect("web:club_links", slug=club.slug)


@login_required
@require_http_methods(["GET", "POST"])
def my_links(request: HttpRequest) -> HttpResponse:
    """The person's links to players in each club and their federation numbers: accept or
    decline a club's proposal, ask a club, remove a link."""
    user = signed_in(request)
    form = LinkAskForm(request.POST if "ask" in request.POST else None)
    context = {
        "links": selectors.person_links_of(user),
        "numbers": selectors.numbers_of(user),
        "form": form,
    }
    if request.method == "GET":
        return render(request, "web/federations/me.html", context)
    if "ask" in request.POST:
        if not form.is_valid():
            return render(request, "web/federations/me.html", context, status=400)
        try:
            links.person_link_ask(slug=form.cleaned_data["club"], user=user)
        except Refusal as refusal:
            return refused(request, refusal, template="web/federations/me.html", context=context)
        messages.success(request, _("Asked: a director of the club answers."))
        return redirect("web:my_links")
    link = object_or_404(PersonLink, request.POST.get("link"), user=user)
    if "accept" in request.POST:
        links.person_link_accept(link=link, user=user)
        messages.success(request, _("Linked."))
    elif "decline" in request.POST:
        links.person_link_decline(link=link, user=user)
        messages.success(request, _("Declined."))
    elif "remove" in request.POST:
        links.person_link_remove(link=link, user=user)
        messages.success(request, _("Link removed."))
    else:
        return render(request, "web/federations/me.html", context, status=400)
    return redirect("web:my_links")
