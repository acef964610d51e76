"""A federation's championships (issue 34 item 3): the list and an officer's new
championship (``/f/<fed>/championships/``, ``.../new``: the game first, then its house
rules switch by switch and the championship's shape), a championship's teams and rosters,
table and calendar with the fixture buttons each one may press ("Play this fixture" for
the home club's director at its night, "Confirm the result" for the away captain; start
and knockout for officers, and once it has started their withdrawal of a team)
(``/f/<fed>/championships/<id>/``), a club's director entering a team (``.../<id>/enter``),
a fixture's line-ups with an officer's forfeit (and its undoing) and the postponement of
an officer or the home director (``/f/<fed>/fixtures/<id>/``), and the
public page when the federation publishes (``/public/f/<fed>/championships/<id>/``).
The same services as the API's, each refusal said in words. Never any money."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scorebook.clubs.models import Club, Membership, Role
from scorebook.clubs.selectors import membership_of
from scorebook.clubs.services import NotAllowed
from scorebook.core.numbers import object_or_404
from scorebook.core.people import Anyone, signed_in
from scorebook.core.refusals import Refusal
from scorebook.federations import championship_selectors as reads
from scorebook.federations import selectors
from scorebook.federations.models import (
    Championship,
    ChampionshipFixture,
    Federation,
    OfficerRole,
    Team,
)
from scorebook.federations.services import championships as champs
from scorebook.federations.services import withdrawals
from scorebook.federations.services.guards import require_officer
from scorebook.matches.models import Deal
from scorebook.web.errors import refused
from scorebook.web.forms.championships import (
    ChampionshipForm,
    ForfeitForm,
    LineupForm,
    PlanForm,
    TeamForm,
    UndoForfeitForm,
    WithdrawForm,
)
from scorebook.web.scores import catalogue, game_name
from scorebook.web.switches import profile_label
from scorebook.web.views.federations import _context, federation_for

NEW = "web/federations/championship_new.html"
ONE = "web/federations/championship.html"
ENTER = "web/federations/championship_enter.html"
FIXTURE = "web/federations/championship_fixture.html"


def _is_director(user: Anyone, club_id: int) -> bool:
    found = membership_of(user, club_id) if user.is_authenticated else None
    return found is not None and found.at_least(Role.DIRECTOR)


def _rows(championship: Championship, user: Anyone) -> list[dict[str, Any]]:
    """Each fixture with its result and what the user may do with it."""
    rows = []
    mine: dict[int, Membership] = {}
    if user.is_authenticated:  # one query for every fixture's two clubs
        mine = {m.club_id: m for m in Membership.objects.filter(user_id=user.pk)}
    for fixture in reads.fixtures(championship):
        found = reads.result(fixture)
        home = mine.get(fixture.home.club_id)
        away = mine.get(fixture.away.club_id)
        away_director = away is not None and away.at_least(Role.DIRECTOR)
        open_ = fixture.status in (ChampionshipFixture.Status.PLANNED,)
        rows.append(
            {
                "fixture": fixture,
                "result": found,
                "postponed": reads.postponed(fixture),
                "tables": list(fixture.boards.all()),
                "may_play": open_ and home is not None and home.at_least(Role.DIRECTOR),
                "may_see_matches": home is not None,
                "may_confirm": fixture.status == ChampionshipFixture.Status.PLAYING
                and found is not None
                and found.complete
                and (user.pk == fixture.away.captain_id or away_director),
            }
        )
    return rows


def _team_rows(championship: Championship) -> list[dict[str, Any]]:
    """Each team with its roster (regulars in table order, then the substitutes)."""
    return [
        {
            "team": team,
            "regulars": [r.player.name for r in team.roster.all() if not r.substitute],
            "substitutes": [r.player.name for r in team.roster.all() if r.substitute],
        }
        for team in reads.teams(championship)
    ]


def _directed(user: Anyone, federation: Federation) -> list[Club]:
    """The member clubs the user directs (director or owner)."""
    if not user.is_authenticated:
        return []
    mine = Membership.objects.filter(user_id=user.pk, role__in=(Role.DIRECTOR, Role.OWNER)).values(
        "club_id"
    )
    return list(selectors.member_clubs(federation).filter(pk__in=mine))


@login_required
def championship_list(request: HttpRequest, fed: str) -> HttpResponse:
    federation, office = federation_for(request, fed)
    context = _context(
        federation, office, "championships", championships=reads.championships_of(federation)
    )
    return render(request, "web/federations/championships.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def championship_new(request: HttpRequest, fed: str) -> HttpResponse:
    """An officer's new championship: step 1 picks the game (those of two equal sides),
    step 2 its house rules (the engine's switches, from a profile) and its shape."""
    federation, office = federation_for(request, fed)
    context = _context(federation, office, "championships")
    try:
        require_officer(signed_in(request), federation.pk, OfficerRole.OFFICER)
    except Refusal as refusal:
        return refused(request, refusal, template=NEW, context=context)
    described = catalogue()
    key = request.GET.get("game")
    if key not in reads.team_games() or key not in described:
        context["games"] = [
            {"key": k, "name": game_name(k)}
            for k in sorted(reads.team_games(), key=lambda k: game_name(k).casefold())
            if k in described
        ]
        return render(request, NEW, context)
    game = described[key]
    profile = request.GET.get("profile", "")
    if profile not in game["profiles"]:
        profile = ""
    form = ChampionshipForm(
        request.POST if request.method == "POST" else None, game=game, profile=profile
    )
    context |= {
        "form": form,
        "game": game,
        "game_label": game_name(key),
        "profile": profile,
        "profiles": [(p, profile_label(key, p)) for p in game["profiles"]],
    }
    if request.method == "GET":
        return render(request, NEW, context)
    if not form.is_valid():
        return render(request, NEW, context, status=400)
    try:
        made = champs.championship_create(
            federation=federation, user=signed_in(request), **form.values()
        )
    except Refusal as refusal:
        return refused(request, refusal, template=NEW, context=context)
    messages.success(request, _("Championship created: the member clubs may enter teams."))
    return redirect("web:championship", fed=federation.slug, pk=made.pk)


@login_required
@require_http_methods(["GET", "POST"])
def championship_page(request: HttpRequest, fed: str, pk: int) -> HttpResponse:
    """The teams, the table and the calendar; POST ``do``: ``play`` or ``confirm`` with a
    fixture's id, ``start``, ``knockout`` or ``withdraw`` (a team's id and why: officers,
    once it has started)."""
    federation, office = federation_for(request, fed)
    championship = object_or_404(Championship, pk, federation=federation)
    posted = request.method == "POST" and request.POST.get("do") == "withdraw"
    withdraw = WithdrawForm(
        request.POST if posted else None,
        teams=championship.teams.filter(withdrawn=False).order_by("seed", "id"),
    )

    def context() -> dict[str, Any]:
        is_open = championship.status == Championship.Status.OPEN
        return _context(
            federation,
            office,
            "championships",
            championship=championship,
            game_label=game_name(championship.game),
            teams=_team_rows(championship),
            tables=reads.standings(championship),
            fixtures=_rows(championship, request.user),
            may_enter=is_open and bool(_directed(request.user, federation)),
            may_start=is_open and office is not None,
            may_withdraw=office is not None and championship.status == Championship.Status.STARTED,
            withdraw_form=withdraw,
            may_knockout=office is not None
            and championship.format == Championship.Format.GROUPS_KNOCKOUT
            and championship.status == Championship.Status.STARTED
            and not championship.fixtures.filter(stage=ChampionshipFixture.Stage.KNOCKOUT).exists(),
        )

    if request.method == "POST":
        try:
            done = _page_posted(request, championship, withdraw)
        except Refusal as refusal:
            return refused(request, refusal, template=ONE, context=context())
        if not done:
            return render(request, ONE, context(), status=400)
        return redirect("web:championship", fed=federation.slug, pk=championship.pk)
    return render(request, ONE, context())


def _page_posted(request: HttpRequest, championship: Championship, withdraw: WithdrawForm) -> bool:
    """The championship page's one POST through the services; False when it is not one
    the page knows or its form is not valid."""
    user = signed_in(request)
    action = request.POST.get("do")
    if action == "start":
        champs.championship_start(championship=championship, user=user)
        messages.success(request, _("The championship has started: the calendar is drawn."))
    elif action == "knockout":
        champs.knockout_start(championship=championship, user=user)
        messages.success(request, _("The knockout is drawn."))
    elif action == "withdraw":
        if not withdraw.is_valid():
            return False
        team = Team.objects.get(pk=withdraw.cleaned_data["team"], championship=championship)
        withdrawals.team_withdraw(team=team, user=user, reason=withdraw.cleaned_data["reason"])
        messages.success(request, _("Team withdrawn: %(name)s.") % {"name": team.name})
    elif action in ("play", "confirm"):
        fixture = object_or_404(
            ChampionshipFixture, request.POST.get("fixture"), championship=championship
        )
        if action == "play":
            champs.fixture_play(fixture=fixture, user=user)
            messages.success(request, _("The fixture's tables are seated at tonight's night."))
        else:
            champs.fixture_confirm(fixture=fixture, user=user)
            messages.success(request, _("Result confirmed: the table counts it."))
    else:
        return False
    return True


@login_required
@require_http_methods(["GET", "POST"])
def championship_enter(request: HttpRequest, fed: str, pk: int) -> HttpResponse:
    """A club's director enters one of its teams while entries are open: the club (one of
    the member clubs they direct, ``?club=<address>``), the team's name, its regulars in
    table order, its substitutes and its captain; or withdraws one of the club's teams
    (POST ``withdraw``: the team's id) until the championship starts."""
    federation, office = federation_for(request, fed)
    championship = object_or_404(Championship, pk, federation=federation)
    clubs = _directed(request.user, federation)
    context = _context(federation, office, "championships", championship=championship, clubs=clubs)
    if not clubs:
        return refused(request, NotAllowed(Role.DIRECTOR), template=ENTER, context=context)
    wanted = request.POST.get("club") or request.GET.get("club")
    club = next((c for c in clubs if c.slug == wanted), clubs[0])
    form = TeamForm(
        request.POST if request.method == "POST" else None,
        club=club,
        tables=championship.tables,
        side=reads.side_size(championship),
        substitutes=championship.substitutes,
    )
    context |= {
        "club": club,
        "form": form,
        "entered": [t for t in reads.teams(championship) if t.club_id == club.pk],
    }
    if request.method == "GET":
        return render(request, ENTER, context)
    if "withdraw" in request.POST:
        team = object_or_404(Team, request.POST.get("withdraw"), championship=championship)
        try:
            withdrawals.team_withdraw(team=team, user=signed_in(request))
        except Refusal as refusal:
            return refused(request, refusal, template=ENTER, context=context)
        messages.success(request, _("Team withdrawn: %(name)s.") % {"name": team.name})
        return redirect(
            f"{reverse('web:championship_enter', args=[federation.slug, championship.pk])}"
            f"?club={club.slug}"
        )
    if not form.is_valid():
        return render(request, ENTER, context, status=400)
    captain, captain_id = None, form.captain_id()
    if captain_id is not None:
        found = Membership.objects.filter(club=club, user_id=captain_id).first()
        if found is None:
            form.add_error("captain", _("Choose a member of the club."))
            return render(request, ENTER, context, status=400)
        captain = found.user
    try:
        champs.team_enter(
            championship=championship,
            club=club,
            name=form.cleaned_data["name"],
            player_ids=form.player_ids(),
            substitute_ids=form.substitute_ids(),
            captain=captain,
            user=signed_in(request),
        )
    except Refusal as refusal:
        return refused(request, refusal, template=ENTER, context=context)
    messages.success(request, _("Team entered."))
    return redirect("web:championship", fed=federation.slug, pk=championship.pk)


@login_required
@require_http_methods(["GET", "POST"])
def championship_fixture(request: HttpRequest, fed: str, pk: int) -> HttpResponse:
    """A fixture: its planned night, its line-ups table by table, its result; the home
    club's director plays it at tonight's night with the line-ups they name (each roster's
    players, substitutes included), an officer records a forfeit, an officer or the home
    club's director moves its night."""
    federation, office = federation_for(request, fed)
    fixture = object_or_404(
        ChampionshipFixture.objects.select_related(
            "championship", "home__club", "away__club", "night", "forfeited_by"
        ),
        pk,
        championship__federation=federation,
    )
    user = request.user
    settled = fixture.status in champs.SETTLED
    open_ = not settled and fixture.status != ChampionshipFixture.Status.PLAYING
    home_director = _is_director(user, fixture.home.club_id)
    forfeit = ForfeitForm(request.POST if "forfeit" in request.POST else None, fixture=fixture)
    undo = UndoForfeitForm(request.POST if "undo" in request.POST else None)
    plan = PlanForm(
        request.POST if "plan" in request.POST else None,
        initial={"day": fixture.planned_on, "reason": fixture.reason},
    )
    may_play = (
        home_director
        and fixture.status == ChampionshipFixture.Status.PLANNED
        and fixture.championship.status != Championship.Status.OPEN
    )
    lineup = LineupForm(
        request.POST if "play" in request.POST else None,
        fixture=fixture,
        tables=fixture.championship.tables,
        side=reads.side_size(fixture.championship),
    )
    corrections = _corrections(fixture, user)
    context = _context(
        federation,
        office,
        "championships",
        championship=fixture.championship,
        fixture=fixture,
        result=reads.result(fixture),
        # each table with its deals to correct (a director of the away club only)
        lineups=[(t, corrections.get(t.match_id or 0, [])) for t in reads.lineups(fixture)],
        postponed=reads.postponed(fixture),
        may_see_matches=membership_of(user, fixture.home.club_id) is not None,
        may_forfeit=office is not None and not settled,
        may_undo=office is not None and fixture.status == ChampionshipFixture.Status.FORFEITED,
        undo_form=undo,
        may_plan=(office is not None or home_director) and open_,
        forfeit_form=forfeit,
        plan_form=plan,
        may_play=may_play,
        lineup_form=lineup,
    )
    if request.method == "GET":
        return render(request, FIXTURE, context)
    try:
        done = _fixture_posted(
            request, fixture, forfeit=forfeit, lineup=lineup, plan=plan, undo=undo
        )
    except Refusal as refusal:
        # said at the top of the page: the form may not be shown to who was refused
        return refused(request, refusal, template=FIXTURE, context=context)
    if not done:
        return render(request, FIXTURE, context, status=400)
    return redirect("web:championship_fixture", fed=federation.slug, pk=fixture.pk)


def _fixture_posted(
    request: HttpRequest,
    fixture: ChampionshipFixture,
    *,
    forfeit: ForfeitForm,
    lineup: LineupForm,
    plan: PlanForm,
    undo: UndoForfeitForm,
) -> bool:
    """The fixture page's one POST (a forfeit or its undoing, tonight's line-ups, a new
    night) through the services; False when its form is not valid (the page then says why
    by its fields)."""
    if "undo" in request.POST:
        if not undo.is_valid():
            return False
        withdrawals.fixture_forfeit_undo(
            fixture=fixture, reason=undo.cleaned_data["reason"], user=signed_in(request)
        )
        messages.success(request, _("Forfeit undone: the fixture is as it was before it."))
    elif "forfeit" in request.POST:
        if not forfeit.is_valid():
            return False
        champs.fixture_forfeit(
            fixture=fixture,
            team=Team.objects.get(pk=forfeit.cleaned_data["team"]),
            reason=forfeit.cleaned_data["reason"],
            user=signed_in(request),
        )
        messages.success(request, _("Forfeit recorded: the table counts it."))
    elif "play" in request.POST:
        if not lineup.is_valid():
            return False
        champs.fixture_play(fixture=fixture, lineups=lineup.lineups(), user=signed_in(request))
        messages.success(request, _("The fixture's tables are seated at tonight's night."))
    elif "plan" in request.POST:
        if not plan.is_valid():
            return False
        champs.fixture_plan(
            fixture=fixture,
            day=plan.cleaned_data["day"],
            reason=plan.cleaned_data["reason"],
            user=signed_in(request),
        )
        messages.success(request, _("The fixture has a new night."))
    else:
        return False
    return True


def _corrections(fixture: ChampionshipFixture, user: Anyone) -> dict[int, list[Deal]]:
    """For a director of the away club (who sees nothing else of the home club's record):
    each table's match -> its deals, each with its correction's link (the home club's
    members reach the deals from the match's page)."""
    if not fixture.night_id or not _is_director(user, fixture.away.club_id):
        return {}
    found: dict[int, list[Deal]] = {}
    deals = Deal.objects.filter(
        match__championship_table__fixture=fixture, is_current=True
    ).order_by("match_id", "number")
    for deal in deals:
        found.setdefault(deal.match_id, []).append(deal)
    return found


def public_championship(request: HttpRequest, fed: str, pk: int) -> HttpResponse:
    federation = get_object_or_404(Federation, slug=fed, publishes=True)
    championship = get_object_or_404(Championship, pk=pk, federation=federation)
    context = {
        "federation": federation,
        "championship": championship,
        "public": True,
    }
    context["tables"], context["fixtures"] = reads.public_table(championship)
    return render(request, "web/federations/public_championship.html", context)
