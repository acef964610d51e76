"""Tonight's tournament on the phones (issue 27): the director's page from the night
(registration at the door, the draw, the rounds by table with each match's link, swap,
bye, forfeit, withdraw, the standings with the criterion that placed each pair, the pot),
and the paper (round sheets, table cards with QR codes, the standings as PDF and CSV).

The views call the tournaments' services and reads (``boards``, ``selectors``,
``exports``); refusals are shown with the pages' one mapping (``web.errors.refused``).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scorebook.clubs.services import NotAllowed
from scorebook.core.numbers import object_or_404
from scorebook.core.people import signed_in
from scorebook.core.refusals import Refusal
from scorebook.matches.models import Night
from scorebook.tournaments import boards, exports, selectors
from scorebook.tournaments.models import Entry, Pairing, Tournament
from scorebook.tournaments.services.registration import (
    entry_add,
    entry_withdraw,
    single_add,
    singles_draw,
)
from scorebook.tournaments.services.results import (
    pairing_forfeit,
    pairing_next_match,
    tournament_cancel,
    tournament_finish,
)
from scorebook.tournaments.services.rounds import pairing_bye, pairing_swap, round_pair, round_start
from scorebook.tournaments.services.setup import tournament_create, tournament_update
from scorebook.web import tournament_bracket
from scorebook.web.access import member_of, page_context
from scorebook.web.errors import refused
from scorebook.web.forms.tournaments import (
    CRITERIA_WORDS,
    ByeForm,
    CancelForm,
    ForfeitForm,
    NextMatchForm,
    PlayerOrGuest,
    ReasonForm,
    SettingsForm,
    SwapForm,
    TournamentForm,
)
from scorebook.web.tournament_money import prize_card


def _tournament(request: HttpRequest, pk: int) -> tuple[Tournament, Any]:
    tournament = get_object_or_404(Tournament.objects.select_related("club", "night"), pk=pk)
    return tournament, member_of(request, tournament.club_id)


def _context(tournament: Tournament, membership: Any, **extra: Any) -> dict[str, Any]:
    rows = selectors.standings(tournament)
    entries = selectors.entries_of(tournament)
    rounds = boards.boards(tournament)
    return page_context(
        tournament.club,
        membership,
        nav="club",
        tournament=tournament,
        night=tournament.night,
        step=boards.next_step(tournament),
        over=tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED),
        entries=entries,
        active=[e for e in entries if not e.withdrawn],
        singles=list(tournament.singles.filter(entry=None).select_related("player")),
        rounds=rounds,
        current=rounds[-1] if rounds else None,
        standings=[(r, str(CRITERIA_WORDS.get(r.row.decided_by or "", ""))) for r in rows],
        chain=[str(CRITERIA_WORDS[c]) for c in tournament.tiebreaks if c in CRITERIA_WORDS],
        prize_card=prize_card(tournament),
        groups=tournament_bracket.groups(tournament),
        knockout=tournament_bracket.bracket(tournament),
        pair_form=extra.pop("pair_form", None) or PlayerOrGuest(tournament.club),
        single_form=extra.pop("single_form", None)
        or PlayerOrGuest(tournament.club, sides=("player",)),
        **extra,
    )


def _page(
    request: HttpRequest, tournament: Tournament, membership: Any, status: int = 200, **extra: Any
) -> HttpResponse:
    context = _context(tournament, membership, **extra)
    return render(request, "web/tournaments/tournament.html", context, status=status)


@login_required
def tournament_new(request: HttpRequest, pk: int) -> HttpResponse:
    """A tournament on this night (directors)."""
    night = get_object_or_404(Night.objects.select_related("club"), pk=pk)
    membership = member_of(request, night.club_id)
    form = TournamentForm(request.POST or None, initial={"name": _("Tonight's tournament")})
    context = page_context(night.club, membership, nav="club", night=night, form=form)
    context["tournaments"] = selectors.tournaments_of_night(night.pk)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = tournament_create(
                night=night,
                rules={},
                user=signed_in(request),
                **form.settings(),
            )
        except NotAllowed:
            raise PermissionDenied from None
        except Refusal as refusal:
            return refused(request, refusal, template="web/tournaments/new.html", context=context)
        return redirect("web:tournament", pk=tournament.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "web/tournaments/new.html", context, status=status)


#: The form's fields fixed once round 1 is paired (CHANGEABLE_WHILE_RUNNING).
FIXED_WHILE_RUNNING = (
    "format", "rounds", "group_size", "qualifiers", "seeding", "series", "series_games",
    "entry_fee", "currency",
)  # fmt: skip


def _same(key: str, old: Any, new: Any) -> bool:
    if key == "prizes":
        return [Decimal(x) for x in old] == [Decimal(x) for x in new]
    if key in ("entry_fee", "club_share"):
        return Decimal(old or 0) == Decimal(new or 0)
    return bool(old == new)


@login_required
def tournament_settings(request: HttpRequest, pk: int) -> HttpResponse:
    """Change the settings (directors): anything before round 1 is paired, then only the
    name, the tie-breaks, the points and the prizes (``tournament_update``)."""
    t, membership = _tournament(request, pk)
    running = t.status != Tournament.Status.REGISTRATION
    fixed = FIXED_WHILE_RUNNING if running else ()
    initial = SettingsForm.initial_of(t)
    form = SettingsForm(request.POST or None, initial=initial, fixed=fixed)
    context = page_context(
        t.club, membership, nav="club", tournament=t, night=t.night, form=form, running=running
    )
    if not context["is_director"]:
        raise PermissionDenied
    if request.method == "POST" and form.is_valid():
        wanted = form.settings()
        changes = {
            key: value for key, value in wanted.items() if not _same(key, getattr(t, key), value)
        }
        try:
            tournament_update(tournament=t, changes=changes, user=signed_in(request))
        except NotAllowed:
            raise PermissionDenied from None
        except Refusal as refusal:
            return refused(
                request, refusal, template="web/tournaments/settings.html", context=context
            )
        return redirect("web:tournament", pk=t.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "web/tournaments/settings.html", context, status=status)


@login_required
def tournament(request: HttpRequest, pk: int) -> HttpResponse:
    """The tournament: registration, the rounds by table, the standings, the pot."""
    the_tournament, membership = _tournament(request, pk)
    return _page(request, the_tournament, membership)


def _entry(tournament: Tournament, value: Any) -> Entry:
    return object_or_404(Entry, value, tournament=tournament)


@login_required
@require_POST
def tournament_action(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    """The director's writes from the page, each one service call."""
    t, membership = _tournament(request, pk)
    user = signed_in(request)
    try:
        if action == "pair-add":
            pair = PlayerOrGuest(t.club, request.POST)
            if not pair.is_valid():
                return _page(request, t, membership, 400, pair_form=pair)
            data = pair.cleaned_data
            entry_add(tournament=t, players=[data["first_who"], data["second_who"]], user=user)
        elif action == "single-add":
            single = PlayerOrGuest(t.club, request.POST, sides=("player",))
            if not single.is_valid():
                return _page(request, t, membership, 400, single_form=single)
            single_add(tournament=t, player=single.cleaned_data["player_who"], user=user)
        elif action == "draw":
            singles_draw(tournament=t, user=user)
        elif action == "pair":
            round_pair(tournament=t, user=user)
        elif action == "start":
            round_start(tournament=t, user=user)
        elif action == "finish":
            tournament_finish(tournament=t, user=user)
        elif action == "cancel":
            cancel = CancelForm(request.POST)
            if not cancel.is_valid():
                return _page(request, t, membership, 400, form_errors=cancel)
            tournament_cancel(tournament=t, reason=cancel.cleaned_data["reason"], user=user)
        elif action == "next-match":
            next_form = NextMatchForm(request.POST)
            if not next_form.is_valid():
                return _page(request, t, membership, 400, form_errors=next_form)
            pairing = object_or_404(Pairing, next_form.cleaned_data["pairing"], round__tournament=t)
            pairing_next_match(pairing=pairing, user=user)
        elif action in ("withdraw", "forfeit", "swap", "bye"):
            form_class = {
                "withdraw": ReasonForm, "forfeit": ForfeitForm, "swap": SwapForm, "bye": ByeForm
            }[action]  # fmt: skip
            form = form_class(request.POST)
            if not form.is_valid():
                return _page(request, t, membership, 400, form_errors=form)
            data = form.cleaned_data
            if action == "withdraw":
                entry_withdraw(entry=_entry(t, data["entry"]), reason=data["reason"], user=user)
            elif action == "forfeit":
                pairing = object_or_404(Pairing, data["pairing"], round__tournament=t)
                pairing_forfeit(
                    pairing=pairing, entry=_entry(t, data["entry"]), reason=data["reason"],
                    user=user,
                )  # fmt: skip
            elif action == "swap":
                pairing_swap(
                    tournament=t, first=_entry(t, data["first"]), second=_entry(t, data["second"]),
                    user=user,
                )  # fmt: skip
            else:
                pairing_bye(tournament=t, entry=_entry(t, data["entry"]), user=user)
        else:
            raise Http404
    except NotAllowed:
        raise PermissionDenied from None
    except Refusal as refusal:
        return refused(
            request,
            refusal,
            template="web/tournaments/tournament.html",
            context=_context(t, membership),
        )
    return redirect(reverse("web:tournament", args=[t.pk]) + "#" + _anchor(action))


def _anchor(action: str) -> str:
    if action in ("pair-add", "single-add", "draw", "withdraw"):
        return "registration"
    if action == "finish":
        return "standings"
    if action == "cancel":
        return "prizes"
    return "rounds"


# -- paper ---------------------------------------------------------------------------------


def _file(content: bytes | str, kind: str, name: str) -> HttpResponse:
    response = HttpResponse(content, content_type=kind)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
def standings_csv(request: HttpRequest, pk: int) -> HttpResponse:
    t, _membership = _tournament(request, pk)
    return _file(exports.standings_csv(t), "text/csv; charset=utf-8", f"tournament-{t.pk}.csv")


@login_required
def standings_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    t, _membership = _tournament(request, pk)
    return _file(exports.standings_pdf(t), "application/pdf", f"tournament-{t.pk}.pdf")


@login_required
def round_pdf(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    t, _membership = _tournament(request, pk)
    round_ = get_object_or_404(t.round_set, number=number)
    return _file(exports.round_pdf(t, round_), "application/pdf", f"round-{number}.pdf")


@login_required
def cards_pdf(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The round's table cards; each QR code opens the table's match page."""
    t, _membership = _tournament(request, pk)
    round_ = get_object_or_404(t.round_set, number=number)

    def match_url(match_id: int) -> str:
        return request.build_absolute_uri(reverse("web:match", args=[match_id]))

    pdf = exports.table_cards_pdf(t, round_, match_url)
    return _file(pdf, "application/pdf", f"tables-round-{number}.pdf")
