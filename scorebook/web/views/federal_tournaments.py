"""The federal tournaments' and the ranking's pages (issue 34 items 4 and 5), under the
federation's header: the tournaments and announcing one (``/f/<fed>/tournaments``), a
tournament (registrations, the waiting list, withdrawals, the host's opening, the
placings and their points), the ranking with its CSV and PDF, a person's history, and the
public ranking of a federation that publishes. Money is shown to the federation's
officers and the host's directors only, and never on a public page."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scorebook.clubs.models import Role
from scorebook.clubs.selectors import membership_of
from scorebook.core.numbers import object_or_404
from scorebook.core.people import signed_in
from scorebook.core.refusals import Refusal
from scorebook.federations import ranking, ratings, selectors
from scorebook.federations.models import FederalRegistration, FederalTournament, Federation
from scorebook.federations.services import federal_tournaments as federal
from scorebook.sharing import federal_board
from scorebook.web.errors import refused
from scorebook.web.forms.federal_tournaments import AnnounceForm, ReasonForm, RegisterForm
from scorebook.web.views.federations import _context, federation_for

LIST = "web/federations/tournaments.html"
ONE = "web/federations/tournament.html"


@login_required
@require_http_methods(["GET", "POST"])
def federal_tournaments(request: HttpRequest, fed: str) -> HttpResponse:
    """The federation's tournaments, latest first; an officer announces one."""
    federation, office = federation_for(request, fed)
    clubs = selectors.member_clubs(federation)
    form = AnnounceForm(request.POST if request.method == "POST" else None, clubs=clubs)
    context = _context(
        federation,
        office,
        "tournaments",
        tournaments=ranking.federal_tournaments(federation),
        form=form,
    )
    if request.method == "GET":
        return render(request, LIST, context)
    if not form.is_valid():
        return render(request, LIST, context, status=400)
    try:
        made = federal.federal_tournament_announce(
            federation=federation, user=signed_in(request), **form.values()
        )
    except Refusal as refusal:
        return refused(request, refusal, template=LIST, context=context)
    messages.success(request, _("Tournament announced: persons of the member clubs may register."))
    return redirect("web:federal_tournament", fed=federation.slug, pk=made.pk)


def _host_director(user: Any, row: FederalTournament) -> bool:
    membership = membership_of(user, row.host_id)
    return membership is not None and membership.role in (Role.DIRECTOR, Role.OWNER)


def _detail(request: HttpRequest, federation: Federation, office: Any, row: FederalTournament):
    user = request.user
    host_director = _host_director(user, row)
    field, placed = ranking.placings(row)
    rows = list(ranking.registrations(row))
    for r in rows:
        r.position = ranking.waiting_position(r)  # type: ignore[attr-defined]
    announced = row.status == FederalTournament.Status.ANNOUNCED
    return _context(
        federation,
        office,
        "tournaments",
        row=row,
        registrations=rows,
        mine=ranking.registrations_of(user, row),
        can_register=announced and ranking.is_person(federation, user),
        host_director=host_director,
        sees_money=office is not None or host_director,
        nights=ranking.host_nights(row) if host_director and announced else [],
        host_member=membership_of(user, row.host_id) is not None,
        field=field,
        placings=placed,
        finished=ranking.is_finished(row),
        register_form=RegisterForm(request.POST if "register" in request.POST else None),
        cancel_form=ReasonForm(request.POST if "cancel" in request.POST else None),
    )


@login_required
@require_http_methods(["GET", "POST"])
def federal_tournament(request: HttpRequest, fed: str, pk: int) -> HttpResponse:
    """A federal tournament: its registrations; a person registers a pair or withdraws
    theirs; the host's director opens it on tonight's night; an officer calls it off."""
    federation, office = federation_for(request, fed)
    row = object_or_404(FederalTournament, pk, federation=federation)
    context = _detail(request, federation, office, row)
    if request.method == "GET":
        return render(request, ONE, context)
    user = signed_in(request)
    try:
        if "register" in request.POST:
            form = context["register_form"]
            if not form.is_valid():
                return render(request, ONE, context, status=400)
            made = federal.registration_add(
                federal_tournament=row, partner=form.cleaned_data["partner"], user=user
            )
            if made.status == FederalRegistration.Status.WAITING:
                messages.success(request, _("The tournament is full: your pair is waiting."))
            else:
                messages.success(request, _("Your pair is registered."))
        elif "withdraw" in request.POST:
            registration = object_or_404(
                FederalRegistration, request.POST.get("withdraw"), federal_tournament=row
            )
            federal.registration_withdraw(registration=registration, user=user)
            messages.success(request, _("The pair has withdrawn."))
        elif "open" in request.POST:
            night = object_or_404(ranking.host_nights(row), request.POST.get("open"))
            tournament = federal.federal_tournament_open(
                federal_tournament=row, night=night, user=user
            )
            messages.success(
                request, _("The registered pairs are entered in tonight's tournament.")
            )
            return redirect("web:tournament", pk=tournament.pk)
        elif "cancel" in request.POST:
            form = context["cancel_form"]
            if not form.is_valid():
                return render(request, ONE, context, status=400)
            federal.federal_tournament_cancel(
                federal_tournament=row, reason=form.cleaned_data["reason"], user=user
            )
            messages.success(request, _("The tournament is called off."))
        else:
            return render(request, ONE, context, status=400)
    except Refusal as refusal:
        return refused(request, refusal, template=ONE, context=context)
    return redirect("web:federal_tournament", fed=federation.slug, pk=row.pk)


@login_required
def federation_ranking(request: HttpRequest, fed: str) -> HttpResponse:
    """The ranking by federal points over the last twelve months."""
    federation, office = federation_for(request, fed)
    context = _context(federation, office, "ranking", **_board(federation))
    return render(request, "web/federations/ranking.html", context)


def _board(federation: Federation) -> dict[str, Any]:
    """A ranking page's window, rows and rating across the member clubs, game by game
    (``ranking.board``: from the cache while nothing it reads has changed)."""
    board = ranking.board(federation)
    return {
        "rows": board.rows,
        "first": board.first,
        "last": board.last,
        "rating_games": ratings.by_game(board.rating_rows),
        "rating_fresh": board.freshness,
    }


def _sheet(federation: Federation, kind: str) -> HttpResponse:
    board = ranking.board(federation)
    rows, rated = board.rows, ratings.by_game(board.rating_rows)
    day = board.last
    name = f"{federation.slug}-ranking-{day.isoformat()}.{kind}"
    if kind == "pdf":
        body: Any = federal_board.ranking_pdf(federation.name, day, rows, rated)
        response = HttpResponse(body, content_type="application/pdf")
    else:
        body = federal_board.ranking_csv(federation.name, day, rows, rating_games=rated)
        response = HttpResponse(body, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
def federation_ranking_csv(request: HttpRequest, fed: str) -> HttpResponse:
    federation, _office = federation_for(request, fed)
    return _sheet(federation, "csv")


@login_required
def federation_ranking_pdf(request: HttpRequest, fed: str) -> HttpResponse:
    federation, _office = federation_for(request, fed)
    return _sheet(federation, "pdf")


@login_required
def federation_person(request: HttpRequest, fed: str, user_id: int) -> HttpResponse:
    """A person's results at the federation's tournaments, and which still count."""
    federation, office = federation_for(request, fed)
    person = object_or_404(get_user_model(), user_id, is_active=True)
    first, _last = ranking.window()
    history = ranking.person_history(federation, person.pk)
    context = _context(
        federation,
        office,
        "ranking",
        person=person,
        number=selectors.number_of(federation, person),
        history=history,
        first=first,
        total=sum(r.points for r in history if r.federal.date >= first),
        person_ratings=ratings.person_ratings(federation, person.pk),
    )
    return render(request, "web/federations/person.html", context)


def public_federation_ranking(request: HttpRequest, fed: str) -> HttpResponse:
    """The ranking of a federation that publishes (anyone). Never any money."""
    federation = get_object_or_404(Federation, slug=fed, publishes=True)
    context = {"federation": federation, **_board(federation)}
    return render(request, "web/federations/public_ranking.html", context)
