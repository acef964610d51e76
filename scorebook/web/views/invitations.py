"""Invitations: the director shows a link and its QR code; the invitee accepts it, with
their account or a new one made on the spot. The same services as the API's."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scorebook.clubs import services
from scorebook.clubs.models import Invitation, Role
from scorebook.clubs.selectors import invitation_by_token, open_invitations
from scorebook.core.people import signed_in
from scorebook.core.refusals import Refusal
from scorebook.web.access import club_for, page_context
from scorebook.web.errors import refused
from scorebook.web.forms.accounts import LoginForm, SignUpForm
from scorebook.web.forms.clubs import InvitationForm
from scorebook.web.qr import qr_svg


@login_required
def invite(request, slug):
    """Directors make invitations and show them; others are told who can."""
    club, membership = club_for(request, slug)
    services.require_role(request.user, club.pk, Role.DIRECTOR)
    form = InvitationForm(request.POST or None, club=club, role=membership.role)
    context = page_context(club, membership, nav="members", form=form)
    if request.method == "POST" and form.is_valid():
        try:
            services.invitation_create(club=club, user=signed_in(request), **form.cleaned_data)
        except Refusal as refusal:
            context["invitations"] = _shown(request, open_invitations([club.pk]))
            return refused(request, refusal, template="web/clubs/invite.html", context=context)
        messages.success(request, _("Invitation ready: show the QR code or share the link."))
        return redirect("web:invite", slug=club.slug)
    context["invitations"] = _shown(request, open_invitations([club.pk]))
    return render(request, "web/clubs/invite.html", context)


def _shown(request, invitations):
    shown = []
    for invitation in invitations:
        url = request.build_absolute_uri(reverse("web:join", args=[invitation.token]))
        shown.append({"invitation": invitation, "url": url, "qr": qr_svg(url, _("Join link"))})
    return shown


@login_required
@require_POST
def invite_revoke(request, slug, pk):
    club, _membership = club_for(request, slug)
    invitation = get_object_or_404(Invitation, pk=pk, club=club)
    services.invitation_revoke(invitation=invitation, user=signed_in(request))
    messages.success(request, _("Invitation withdrawn."))
    return redirect("web:invite", slug=club.slug)


def join(request, token):
    """Accept an invitation: one tap when logged in; otherwise log in or make an account."""
    invitation = invitation_by_token(token)
    context = {"invitation": invitation, "token": token}
    try:
        services.invitation_check(invitation)
    except Refusal as refusal:
        return refused(request, refusal, template="web/clubs/join.html", context=context)
    assert invitation is not None  # invitation_check refuses an unknown token
    signup = SignUpForm(request.POST if "signup" in request.POST else None, auto_id="new_%s")
    context |= {"signup": signup, "login_form": LoginForm(request, auto_id="login_%s")}
    if request.method == "POST":
        try:
            if request.user.is_authenticated:
                services.invitation_accept(token=token, user=signed_in(request))
            elif signup.is_valid():
                membership = services.invitation_sign_up(
                    token=token,
                    username=signup.cleaned_data["username"],
                    password=signup.cleaned_data["password1"],
                )
                login(request, membership.user, backend="django.contrib.auth.backends.ModelBackend")
            else:
                return render(request, "web/clubs/join.html", context, status=400)
        except Refusal as refusal:
            return refused(request, refusal, template="web/clubs/join.html", context=context)
        messages.success(request, _("Welcome to %(club)s!") % {"club": invitation.club.name})
        return redirect("web:club", slug=invitation.club.slug)
    return render(request, "web/clubs/join.html", context)
