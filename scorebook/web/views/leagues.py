"""League pages (the table with its fixtures, the director's controls) and a player's
statistics page with the rating and running-score charts (server-rendered SVG).

The pages call the same services and selectors as the API; refusals are shown with the
pages' one mapping (``scorebook.web.errors.refused``).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scorebook.clubs.models import Club, Player
from scorebook.clubs.services import NotAllowed
from scorebook.core.dates import today_in
from scorebook.core.numbers import object_or_404
from scorebook.core.people import signed_in
from scorebook.core.refusals import Refusal
from scorebook.ledger.exports import as_csv
from scorebook.matches.models import Match, Night
from scorebook.sharing import noticeboard
from scorebook.standings import stats
from scorebook.standings.leagues import knockout, services
from scorebook.standings.leagues import selectors as tables
from scorebook.standings.models import Fixture, League, LeagueEntry
from scorebook.standings.selectors import sides_of
from scorebook.web.access import can, club_for, page_context
from scorebook.web.charts import Series, line_chart
from scorebook.web.errors import refused
from scorebook.web.forms.leagues import (
    EntryForm,
    ForfeitForm,
    KnockoutStageForm,
    LeagueForm,
    LinkForm,
    PlanForm,
    UndoForfeitForm,
)
from scorebook.web.scores import catalogue, game_name


def _league(request: HttpRequest, slug: str, league_id: int) -> tuple[Any, League]:
    club, membership = club_for(request, slug)
    return (club, membership), get_object_or_404(League, pk=league_id, club=club)


def _round_title(number: int, total: int) -> str:
    name = tables.ROUND_NAMES[knockout.round_name(number, total)]
    return str(name) % {"number": number}


def _decided(row: Any) -> str:
    return str(tables.CRITERIA_NAMES.get(row.decided_by or "", ""))


@login_required
def league_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's leagues; directors create one here."""
    club, membership = club_for(request, slug)
    form = LeagueForm(request.POST or None)
    context = page_context(club, membership, nav="leagues", form=form)
    if request.method == "POST" and form.is_valid():
        try:
            league = services.league_create(club=club, user=signed_in(request), **form.cleaned_data)
        except NotAllowed:
            raise PermissionDenied from None
        except Refusal as refusal:
            return refused(request, refusal, template="web/leagues/list.html", context=context)
        return redirect("web:league", slug=club.slug, league_id=league.pk)
    context["leagues"] = tables.leagues_of_club(club.pk)
    # a form sent back with its errors is refused (400), as the league page's forms are
    status = 400 if request.method == "POST" else 200
    return render(request, "web/leagues/list.html", context, status=status)


@login_required
def league(request: HttpRequest, slug: str, league_id: int) -> HttpResponse:
    """The table (with the tie-break that decided each place) and every round's fixtures."""
    (club, membership), the_league = _league(request, slug, league_id)
    return _league_page(request, club, membership, the_league)


def _league_page(
    request: HttpRequest,
    club: Club,
    membership: Any,
    the_league: League,
    status: int = 200,
    **extra: Any,
) -> HttpResponse:
    context = _league_context(club, membership, the_league, **extra)
    return render(request, "web/leagues/league.html", context, status=status)


def _league_context(club: Club, membership: Any, the_league: League, **extra: Any) -> dict:
    table = tables.league_table(the_league)
    total = len(table.rounds)
    return page_context(
        club,
        membership,
        nav="leagues",
        league=the_league,
        rows=[(row, entry, _decided(row)) for row, entry in table.rows],
        rounds=table.rounds,
        bracket=[
            (_round_title(number, total), slots)
            for number, slots in enumerate(table.bracket or [], start=1)
        ],
        series=table.series,
        chain=[tables.CRITERIA_NAMES[c] for c in the_league.tiebreaks],
        # a form sent back refused comes in ``extra`` (it said "got multiple values")
        entry_form=extra.pop("entry_form", None) or EntryForm(club),
        stage_form=extra.pop("stage_form", None)
        or KnockoutStageForm(initial={"series": the_league.series, "top": 4}),
        link_form=extra.pop("link_form", None) or LinkForm(),
        **extra,
    )


@login_required
@require_POST
def league_action(request: HttpRequest, slug: str, league_id: int, action: str) -> HttpResponse:
    """The league's writes from its page: add an entry, start, withdraw, link a match."""
    (club, membership), the_league = _league(request, slug, league_id)
    try:
        if action == "entry":
            form = EntryForm(club, request.POST)
            if not form.is_valid():
                return _league_page(request, club, membership, the_league, 400, entry_form=form)
            services.entry_add(
                league=the_league,
                name=form.cleaned_data["name"],
                player_ids=[p.pk for p in form.cleaned_data["players"]],
                user=signed_in(request),
            )
        elif action == "start":
            services.league_start(league=the_league, user=signed_in(request))
        elif action == "withdraw":
            entry = object_or_404(LeagueEntry, request.POST.get("entry"), league=the_league)
            services.entry_withdraw(entry=entry, user=signed_in(request))
        elif action == "knockout":
            stage_form = KnockoutStageForm(request.POST)
            if not stage_form.is_valid():
                # the stage's form shows on a started round robin; otherwise say it above
                shown = {"form_errors": stage_form} if the_league.started_at is None else {}
                return _league_page(
                    request, club, membership, the_league, 400, stage_form=stage_form, **shown
                )
            stage = services.knockout_stage(
                league=the_league, user=signed_in(request), **stage_form.cleaned_data
            )
            return redirect("web:league", slug=club.slug, league_id=stage.pk)
        elif action in ("forfeit", "unforfeit"):
            asked: forms.Form = (ForfeitForm if action == "forfeit" else UndoForfeitForm)(
                request.POST
            )
            if not asked.is_valid():
                return _league_page(request, club, membership, the_league, 400, form_errors=asked)
            data = asked.cleaned_data
            fixture = object_or_404(Fixture, data["fixture"], league=the_league)
            if action == "forfeit":
                entry = object_or_404(LeagueEntry, data["entry"], league=the_league)
                services.fixture_forfeit(
                    fixture=fixture, entry=entry, reason=data["reason"], user=signed_in(request)
                )
            else:
                services.fixture_forfeit_undo(
                    fixture=fixture, reason=data["reason"], user=signed_in(request)
                )
        elif action == "plan":
            plan = PlanForm(request.POST)
            if not plan.is_valid():
                return _league_page(request, club, membership, the_league, 400, form_errors=plan)
            fixture = object_or_404(Fixture, plan.cleaned_data["fixture"], league=the_league)
            services.fixture_plan(
                fixture=fixture, day=plan.cleaned_data["day"], user=signed_in(request)
            )
        elif action == "link":
            link = LinkForm(request.POST)
            if not link.is_valid():  # each fixture has its own form: say it above them
                return _league_page(request, club, membership, the_league, 400, form_errors=link)
            fixture = object_or_404(Fixture, link.cleaned_data["fixture"], league=the_league)
            match = object_or_404(Match, link.cleaned_data["match"], night__club=club)
            services.fixture_match_link(fixture=fixture, match=match, user=signed_in(request))
        else:
            raise Http404
    except NotAllowed:
        raise PermissionDenied from None
    except Refusal as refusal:
        return refused(
            request,
            refusal,
            template="web/leagues/league.html",
            context=_league_context(club, membership, the_league),
        )
    return redirect("web:league", slug=club.slug, league_id=the_league.pk)


@login_required
def fixture_play(request: HttpRequest, slug: str, league_id: int, fixture_id: int) -> HttpResponse:
    """The fixture's "play this fixture" link: the match form of the club's night open
    today, with the league's game (and its entries' players count) chosen; the form seats
    both entries and links the match to the fixture when it is saved. No night open today:
    said in words, with a link to open one."""
    (club, membership), the_league = _league(request, slug, league_id)
    if not can(membership, "scorer"):
        raise PermissionDenied
    fixture = get_object_or_404(Fixture, pk=fixture_id, league=the_league)
    if fixture.home_id is None or fixture.away_id is None:
        raise Http404
    night = (
        Night.objects.filter(club=club, status=Night.Status.OPEN, date=today_in(club.zone_name))
        .order_by("-pk")
        .first()
    )
    if night is None:
        context = page_context(club, membership, nav="leagues", league=the_league, fixture=fixture)
        return render(request, "web/leagues/play.html", context)
    query: dict[str, Any] = {"fixture": fixture.pk}
    if the_league.game in catalogue():
        assert fixture.home is not None and fixture.away is not None
        count = fixture.home.players.count() + fixture.away.players.count()
        query |= {"game": the_league.game}
        if count in catalogue()[the_league.game]["players"]:
            query["players"] = count
    url = reverse("web:match_new", kwargs={"pk": night.pk})
    return redirect(f"{url}?{urlencode(query)}")


@login_required
def league_csv(request: HttpRequest, slug: str, league_id: int) -> HttpResponse:
    (club, membership), the_league = _league(request, slug, league_id)
    sheet = as_csv(tables.league_sheet(tables.league_table(the_league)))
    response = HttpResponse(sheet, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="league-{the_league.pk}.csv"'
    return response


@login_required
def league_pdf(request: HttpRequest, slug: str, league_id: int) -> HttpResponse:
    """The league's table as an A4 page for the notice board."""
    (club, membership), the_league = _league(request, slug, league_id)
    response = HttpResponse(
        noticeboard.league_pdf(tables.league_table(the_league)), content_type="application/pdf"
    )
    response["Content-Disposition"] = f'inline; filename="league-{the_league.pk}.pdf"'
    return response


@login_required
def player_stats(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """A player's record, head-to-head, partners, streak, rating chart and the running
    score chart of one of their matches (``?match=``, else the latest)."""
    club, membership = club_for(request, slug)
    player = get_object_or_404(Player, pk=player_id, club=club)
    found = stats.player_statistics(player)
    names = found.names
    rating_charts = [
        (
            game,
            line_chart(
                [Series(player.name, [(i, c["display_after"]) for i, c in enumerate(changes)])],
                title=_("Rating of %(player)s in %(game)s")
                % {"player": player.name, "game": game_name(game)},
            ),
        )
        for game, changes in found.ratings.items()
    ]
    shown = _shown_match(request, club, found)
    match_chart = None
    if shown is not None:
        series = stats.running_scores(shown)
        seated = {seat: names.get(pid, "?") for seat, pid in shown.seats.items()}
        match_chart = line_chart(
            [Series(_series_label(name, shown, seated), points) for name, points in series.items()],
            title=_("Running score of match %(id)s") % {"id": shown.pk},
            reference=shown.rules.get("values", {}).get("t4.target"),
            step=True,
        )
    context = page_context(
        club,
        membership,
        nav="players",
        player=player,
        stats=found,
        names=names,
        head_to_head=[(names.get(o, "?"), r) for o, r in found.head_to_head.items()],
        partners=[
            (names.get(s.partner, "?"), s, round(float(s.value) * 100)) for s in found.synergies
        ],
        best_partner=names.get(found.best_partner) if found.best_partner else None,
        rival=(names.get(found.rival[0]), found.rival[1]) if found.rival else None,
        nemesis=(names.get(found.nemesis[0]), found.nemesis[1]) if found.nemesis else None,
        rating_charts=rating_charts,
        shown=shown,
        match_chart=match_chart,
    )
    return render(request, "web/leagues/player.html", context)


def _shown_match(request: HttpRequest, club: Club, found: stats.PlayerStatistics) -> Match | None:
    wanted = request.GET.get("match")
    if wanted:
        return object_or_404(Match, wanted, night__club=club)
    if found.recent:
        return Match.objects.get(pk=found.recent[0].match)
    return None


def _series_label(name: str, match: Match, seated: dict[str, str]) -> str:
    """A side's line is named after its players ("Nino & Salvo"), a player's after them."""
    if name in seated:
        return seated[name]
    sides = sides_of(match)
    return " & ".join(seated[s] for s, side in sides.items() if side == name) or name
