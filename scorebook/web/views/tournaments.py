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

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from scorebook.clubs.models import Club, Player
from scorebook.clubs.services import NotAllowed
from scorebook.core.numbers import object_or_404
from scorebook.core.people import signed_in
from scorebook.core.refusals import Refusal
from scorebook.matches.models import Night
from scorebook.rules import games
from scorebook.tournaments import boards, exports, selectors, services
from scorebook.tournaments.models import Entry, Pairing, Tournament
from scorebook.web.access import member_of, page_context
from scorebook.web.errors import refused
from scorebook.web.scores import game_name

CRITERIA_WORDS = {
    "match_points": gettext_lazy("match points"),
    "buchholz": gettext_lazy("Buchholz"),
    "point_difference": gettext_lazy("game-point difference"),
    "head_to_head": gettext_lazy("head to head"),
    "lot": gettext_lazy("lot"),
}


def pairs_games() -> list[tuple[str, str]]:
    """The games four play in two fixed pairs (the engine says which)."""
    found = games()
    return [(key, game_name(key)) for key in sorted(found) if 4 in found[key].player_counts]


class TournamentForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=80)
    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=pairs_games)
    format = forms.ChoiceField(label=gettext_lazy("Format"), choices=Tournament.Format.choices)
    rounds = forms.IntegerField(
        label=gettext_lazy("Swiss rounds"), min_value=1, max_value=30, initial=3
    )
    entry_fee = forms.DecimalField(
        label=gettext_lazy("Entry fee per player"),
        min_value=0,
        max_digits=8,
        decimal_places=2,
        required=False,
        help_text=gettext_lazy("Blank or 0: a tournament played for no money."),
    )
    currency = forms.RegexField(
        label=gettext_lazy("Currency"), regex=r"^[A-Z]{3}$", required=False, initial="EUR"
    )
    prizes = forms.RegexField(
        label=gettext_lazy("Prizes, % of the pot per place"),
        regex=r"^\s*\d{1,3}(\.\d{1,2})?(\s*,\s*\d{1,3}(\.\d{1,2})?){0,15}\s*$",
        required=False,
        initial="50, 30, 20",
        help_text=gettext_lazy("From the first place, separated by commas."),
    )

    def settings(self) -> dict[str, Any]:
        data = self.cleaned_data
        fee = data.get("entry_fee") or Decimal(0)
        money = fee > 0
        prizes = [p.strip() for p in (data.get("prizes") or "").split(",") if p.strip()]
        return {
            "name": data["name"],
            "game": data["game"],
            "format": data["format"],
            "rounds": data["rounds"],
            "entry_fee": fee,
            "currency": (data.get("currency") or "EUR") if money else "",
            "prizes": prizes if money else [],
        }


class PlayerOrGuest(forms.Form):
    """One player at the door: a player of the club, or a new guest's name."""

    def __init__(self, club: Club, *args: Any, sides: tuple[str, ...] = ("first", "second"),
                 **kwargs: Any) -> None:  # fmt: skip
        super().__init__(*args, **kwargs)
        self.sides = sides
        players = Player.objects.filter(club=club, active=True).order_by("name")
        for i, side in enumerate(sides, start=1):
            self.fields[side] = forms.ModelChoiceField(
                label=_("Player %(n)s") % {"n": i} if len(sides) > 1 else _("Player"),
                queryset=players,
                required=False,
            )
            self.fields[f"{side}_guest"] = forms.CharField(
                label=_("or a new guest's name"), max_length=80, required=False
            )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for side in self.sides:
            player, guest = cleaned.get(side), (cleaned.get(f"{side}_guest") or "").strip()
            if player is None and not guest:
                self.add_error(side, _("Choose a player or write a guest's name."))
            cleaned[f"{side}_who"] = player.pk if player is not None else guest
        return cleaned


class ReasonForm(forms.Form):
    entry = forms.IntegerField(min_value=1)
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=200)


class ForfeitForm(ReasonForm):
    pairing = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class SwapForm(forms.Form):
    first = forms.IntegerField(min_value=1)
    second = forms.IntegerField(min_value=1)


class ByeForm(forms.Form):
    entry = forms.IntegerField(min_value=1)


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
        entries=entries,
        active=[e for e in entries if not e.withdrawn],
        singles=list(tournament.singles.filter(entry=None).select_related("player")),
        rounds=rounds,
        current=rounds[-1] if rounds else None,
        standings=[(r, str(CRITERIA_WORDS.get(r.row.decided_by or "", ""))) for r in rows],
        chain=[str(CRITERIA_WORDS[c]) for c in tournament.tiebreaks if c in CRITERIA_WORDS],
        money=selectors.money(tournament),
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
            tournament = services.tournament_create(
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
            services.entry_add(
                tournament=t, players=[data["first_who"], data["second_who"]], user=user
            )
        elif action == "single-add":
            single = PlayerOrGuest(t.club, request.POST, sides=("player",))
            if not single.is_valid():
                return _page(request, t, membership, 400, single_form=single)
            services.single_add(tournament=t, player=single.cleaned_data["player_who"], user=user)
        elif action == "draw":
            services.singles_draw(tournament=t, user=user)
        elif action == "pair":
            services.round_pair(tournament=t, user=user)
        elif action == "start":
            services.round_start(tournament=t, user=user)
        elif action == "finish":
            services.tournament_finish(tournament=t, user=user)
        elif action in ("withdraw", "forfeit", "swap", "bye"):
            form_class = {
                "withdraw": ReasonForm, "forfeit": ForfeitForm, "swap": SwapForm, "bye": ByeForm
            }[action]  # fmt: skip
            form = form_class(request.POST)
            if not form.is_valid():
                return _page(request, t, membership, 400, form_errors=form)
            data = form.cleaned_data
            if action == "withdraw":
                services.entry_withdraw(
                    entry=_entry(t, data["entry"]), reason=data["reason"], user=user
                )
            elif action == "forfeit":
                pairing = object_or_404(Pairing, data["pairing"], round__tournament=t)
                services.pairing_forfeit(
                    pairing=pairing, entry=_entry(t, data["entry"]), reason=data["reason"],
                    user=user,
                )  # fmt: skip
            elif action == "swap":
                services.pairing_swap(
                    tournament=t, first=_entry(t, data["first"]), second=_entry(t, data["second"]),
                    user=user,
                )  # fmt: skip
            else:
                services.pairing_bye(tournament=t, entry=_entry(t, data["entry"]), user=user)
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
