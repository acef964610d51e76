"""The home page and a club's pages."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from scorebook.clubs import services
from scorebook.clubs.models import Membership, Player, Role
from scorebook.clubs.selectors import clubs_of
from scorebook.core.numbers import object_or_404
from scorebook.core.people import signed_in
from scorebook.core.refusals import Refusal
from scorebook.matches.models import Night
from scorebook.matches.selectors import club_nights
from scorebook.web.access import club_for, page_context
from scorebook.web.errors import refused
from scorebook.web.forms.accounts import LoginForm
from scorebook.web.forms.clubs import (
    ROLE_LABELS,
    ClubSettingsForm,
    PlayerForm,
    RoleForm,
    role_choices,
)


def home(request):
    """Welcome and a login form for visitors; the club home for a member of one club, the
    list of clubs for a member of several."""
    if not request.user.is_authenticated:
        return render(request, "web/home.html", {"form": LoginForm(request)})
    clubs = list(clubs_of(request.user).order_by("name"))
    if len(clubs) == 1:
        return redirect("web:club", slug=clubs[0].slug)
    return render(request, "web/clubs/choose.html", {"clubs": clubs})


PAST_PER_PAGE = 30


@login_required
def club(request, slug):
    """The club home: every open night (however many nights the club has played), then
    the past nights newest first, PAST_PER_PAGE to a page."""
    the_club, membership = club_for(request, slug)
    tonight = list(club_nights(the_club.pk, status=Night.Status.OPEN))
    past = Paginator(club_nights(the_club.pk, status=Night.Status.CLOSED), PAST_PER_PAGE)
    # get_page: a page that is not a number is the first, one out of range the last.
    page = past.get_page(request.GET.get("page"))
    return render(
        request,
        "web/clubs/club.html",
        page_context(the_club, membership, nav="club", tonight=tonight, past=page),
    )


@login_required
def members(request, slug):
    """Who belongs to the club with which role; directors change roles and remove members
    (never above their own role: the services refuse it)."""
    the_club, membership = club_for(request, slug)
    if request.method == "POST":
        target = object_or_404(Membership, request.POST.get("membership"), club=the_club)
        if "remove" in request.POST:
            services.membership_remove(membership=target, user=signed_in(request))
            messages.success(request, _("%(name)s is no longer a member.") % {"name": target.user})
        else:
            form = RoleForm(request.POST, up_to=membership.role)
            if form.is_valid():
                services.membership_change(
                    membership=target, role=form.cleaned_data["role"], user=signed_in(request)
                )
                messages.success(request, _("Role changed."))
            else:  # a role above one's own (it answered 302 without a word)
                messages.error(
                    request,
                    _("You may give roles up to your own (%(own)s): the role was not changed.")
                    % {"own": ROLE_LABELS[Role(membership.role)]},
                )
        return redirect("web:members", slug=the_club.slug)
    rows = (
        Membership.objects.filter(club=the_club).select_related("user").order_by("user__username")
    )
    linked = dict(
        Player.objects.filter(club=the_club, user__isnull=False).values_list("user_id", "name")
    )
    return render(
        request,
        "web/clubs/members.html",
        page_context(
            the_club,
            membership,
            nav="members",
            rows=[(m, linked.get(m.user_id)) for m in rows],
            roles=role_choices(membership.role),
        ),
    )


@login_required
def players(request, slug):
    """The names at the club's tables; scorers add players and guests."""
    the_club, membership = club_for(request, slug)
    form = PlayerForm(request.POST or None)
    context = page_context(the_club, membership, nav="players", form=form)
    if request.method == "POST":
        if "toggle" in request.POST:
            player = object_or_404(Player, request.POST["toggle"], club=the_club)
            services.player_update(
                player=player, changes={"active": not player.active}, user=signed_in(request)
            )
            return redirect("web:players", slug=the_club.slug)
        if form.is_valid():
            try:
                services.player_create(club=the_club, user=signed_in(request), **form.cleaned_data)
            except Refusal as refusal:
                context["players"] = Player.objects.filter(club=the_club).select_related("user")
                return refused(request, refusal, template="web/clubs/players.html", context=context)
            messages.success(request, _("%(name)s added.") % {"name": form.cleaned_data["name"]})
            return redirect("web:players", slug=the_club.slug)
    context["players"] = Player.objects.filter(club=the_club).select_related("user")
    return render(request, "web/clubs/players.html", context)


@login_required
def club_settings(request, slug):
    """The owner names the club and decides whether its results are public; the owner or a
    director says what counts as a confirmation of a deal."""
    the_club, membership = club_for(request, slug)
    form = ClubSettingsForm(
        request.POST or None,
        initial={
            "name": the_club.name,
            "public": the_club.public,
            "confirmation_policy": the_club.confirmation_policy,
            "night_starts": the_club.night_starts,
            "night_minutes": the_club.night_minutes,
            "time_zone": the_club.time_zone,
        },
        policy_only=not membership.at_least(Role.OWNER),
    )
    context = page_context(the_club, membership, nav="settings", form=form)
    if request.method == "POST" and form.is_valid():
        try:
            services.club_update(club=the_club, changes=form.changes(), user=signed_in(request))
        except Refusal as refusal:
            return refused(request, refusal, template="web/clubs/settings.html", context=context)
        messages.success(request, _("Settings saved."))
        return redirect("web:club_settings", slug=the_club.slug)
    return render(request, "web/clubs/settings.html", context)
