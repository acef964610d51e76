"""Taking data out and forgetting a person (issue 28): the club's export (directors), a
player's erasure (directors), the account page (one's own data out, or erased), and the
privacy page."""

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scorebook.archive import exports, services
from scorebook.archive.models import Erasure
from scorebook.clubs.models import Player
from scorebook.clubs.selectors import memberships_of
from scorebook.core.numbers import object_or_404
from scorebook.core.people import signed_in
from scorebook.core.refusals import Refusal
from scorebook.web.access import club_for, page_context
from scorebook.web.errors import refused
from scorebook.web.forms.accounts import AccountEraseForm
from scorebook.web.forms.clubs import PlayerEraseForm


def _zip(file, name: str) -> FileResponse:
    return FileResponse(file, as_attachment=True, filename=name, content_type="application/zip")


@login_required
def club_export(request: HttpRequest, slug: str) -> FileResponse:
    """The club's whole record as a ZIP (directors; the service refuses anyone else)."""
    club, _membership = club_for(request, slug)
    file = services.club_export_file(club=club, user=signed_in(request))
    return _zip(file, exports.club_export_name(club))


@login_required
@require_http_methods(["GET", "POST"])
def player_erase(request: HttpRequest, slug: str, player_id: str) -> HttpResponse:
    """A director erases a player: what it does, then the player's name typed to confirm."""
    club, membership = club_for(request, slug)
    player = object_or_404(Player, player_id, club=club)
    form = PlayerEraseForm(request.POST if request.method == "POST" else None)
    context = page_context(
        club,
        membership,
        nav="players",
        form=form,
        player=player,
        erased=Erasure.objects.filter(player=player).exists(),
    )
    if request.method == "POST" and form.is_valid():
        try:
            erasure = services.player_erase(
                player=player, user=signed_in(request), confirm=form.cleaned_data["name"]
            )
        except Refusal as refusal:
            return refused(request, refusal, template="web/archive/erase.html", context=context)
        messages.success(
            request,
            _("The player's personal data was erased: from now on, %(name)s.")
            % {"name": erasure.player.name},
        )
        return redirect("web:players", slug=club.slug)
    return render(request, "web/archive/erase.html", context, status=400 if form.errors else 200)


@login_required
@require_http_methods(["GET"])
def account(request: HttpRequest) -> HttpResponse:
    """The account page: who one is in each club, one's PIN, one's data out or erased."""
    return render(
        request,
        "web/archive/account.html",
        {"memberships": memberships_of(request.user), "form": AccountEraseForm()},
    )


@login_required
def account_export(request: HttpRequest) -> FileResponse:
    return _zip(services.person_export_file(user=signed_in(request)), "scorebook-my-data.zip")


@login_required
@require_POST
def account_erase(request: HttpRequest) -> HttpResponse:
    """The person erases their own account, their username typed to confirm; signed out."""
    form = AccountEraseForm(request.POST)
    context = {"memberships": memberships_of(request.user), "form": form}
    if not form.is_valid():
        return render(request, "web/archive/account.html", context, status=400)
    try:
        services.account_erase(user=signed_in(request), confirm=form.cleaned_data["username"])
    except Refusal as refusal:
        return refused(request, refusal, template="web/archive/account.html", context=context)
    logout(request)
    messages.success(request, _("Your account and your personal data were erased."))
    return redirect("web:home")


def privacy(request: HttpRequest) -> HttpResponse:
    """What Scorebook stores, why, for how long, and how to take it out or erase it."""
    return render(request, "web/archive/privacy.html")
