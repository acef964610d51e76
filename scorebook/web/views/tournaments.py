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
from scorebook.tournaments.services.setup import (
    DEFAULTS,
    tournament_create,
    tournament_update,
)
from scorebook.web import tournament_bracket
from scorebook.web.access import member_of, page_context
from scorebook.web.errors import refused
from scorebook.web.scores import game_name
from scorebook.web.tournament_money import prize_card

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


AMOUNTS = r"^\s*\d{1,6}(\.\d{1,2})?(\s*,\s*\d{1,6}(\.\d{1,2})?){0,15}\s*$"
#: The tie-breaks a director orders after match points (always first); the lot, if
#: kept, always comes last (ranking.check_chain).
MIDDLE_CRITERIA = ("buchholz", "point_difference", "head_to_head")
SERIES_CHOICES = [
    ("matches", gettext_lazy("one match")),
    ("best_of", gettext_lazy("best of N matches")),
    ("games", gettext_lazy("exactly N matches")),
]


def _then_choices() -> list[tuple[str, Any]]:
    return [("", "—")] + [(c, CRITERIA_WORDS[c]) for c in MIDDLE_CRITERIA]


class TournamentForm(forms.Form):
    """The tournament's settings: the few a director always sets, then the rest under
    "more options" (``MORE``), all of what ``tournament_create`` accepts."""

    BASIC = ("name", "game", "format", "rounds", "entry_fee", "currency", "prizes")
    MORE = (
        "prize_kind", "club_share", "then_1", "then_2", "then_3", "lot_last",
        "points_win", "points_draw", "points_loss", "group_size", "qualifiers", "seeding",
        "series", "series_games",
    )  # fmt: skip

    name = forms.CharField(label=gettext_lazy("Name"), max_length=80)
    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=pairs_games)
    format = forms.ChoiceField(label=gettext_lazy("Format"), choices=Tournament.Format.choices)
    rounds = forms.IntegerField(
        label=gettext_lazy("How many rounds (Swiss system)"), min_value=1, max_value=20, initial=3
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
        label=gettext_lazy("Prizes per place"),
        regex=AMOUNTS,
        required=False,
        initial="50, 30, 20",
        help_text=gettext_lazy(
            "From the first place, separated by commas: percentages of the pot, or fixed "
            "amounts (see “More options”)."
        ),
    )
    prize_kind = forms.ChoiceField(
        label=gettext_lazy("The prizes are"),
        choices=Tournament.PrizeKind.choices,
        initial=Tournament.PrizeKind.PERCENT,
    )
    club_share = forms.DecimalField(
        label=gettext_lazy("The club's share"),
        min_value=0,
        max_digits=8,
        decimal_places=2,
        required=False,
        initial=0,
        help_text=gettext_lazy(
            "A percentage of the pot or a fixed amount, as the prizes; what the prizes "
            "leave goes to the club too."
        ),
    )
    then_1 = forms.ChoiceField(
        label=gettext_lazy("Ties on match points: first"), choices=_then_choices,
        required=False, initial="buchholz",
    )  # fmt: skip
    then_2 = forms.ChoiceField(
        label=gettext_lazy("then"), choices=_then_choices, required=False,
        initial="point_difference",
    )  # fmt: skip
    then_3 = forms.ChoiceField(
        label=gettext_lazy("then"), choices=_then_choices, required=False,
        initial="head_to_head",
    )  # fmt: skip
    lot_last = forms.BooleanField(label=gettext_lazy("Last, the lot"), required=False, initial=True)
    points_win = forms.IntegerField(
        label=gettext_lazy("Match points for a win"), min_value=0, max_value=100, initial=2
    )
    points_draw = forms.IntegerField(
        label=gettext_lazy("for a draw"), min_value=0, max_value=100, initial=1
    )
    points_loss = forms.IntegerField(
        label=gettext_lazy("for a loss"), min_value=0, max_value=100, initial=0
    )
    group_size = forms.IntegerField(
        label=gettext_lazy("Groups: pairs per group"), min_value=3, max_value=5, initial=4
    )
    qualifiers = forms.IntegerField(
        label=gettext_lazy("Groups: how many of each go on to the knockout"),
        min_value=1,
        max_value=2,
        initial=1,
    )
    seeding = forms.ChoiceField(
        label=gettext_lazy("Groups and knockout: seeding"),
        choices=Tournament.Seeding.choices,
        initial=Tournament.Seeding.ORDER,
    )
    series = forms.ChoiceField(
        label=gettext_lazy("Each pairing plays"),
        choices=SERIES_CHOICES,
        initial="matches",
        help_text=gettext_lazy("In the knockout, a pairing left level plays la bella."),
    )
    series_games = forms.IntegerField(
        label=gettext_lazy("N (matches of a series)"), min_value=1, max_value=9, initial=1
    )

    def __init__(self, *args: Any, fixed: Any = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in self.MORE:  # left out: the service's default
            self.fields[name].required = False
        for name in fixed:
            if name in self.fields:
                self.fields[name].disabled = True

    def basic(self) -> list[Any]:
        return [self[name] for name in self.BASIC if name in self.fields]

    def more(self) -> list[Any]:
        return [self[name] for name in self.MORE if name in self.fields]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        chosen = [cleaned.get(f"then_{i}") for i in (1, 2, 3)]
        chosen = [c for c in chosen if c]
        if len(set(chosen)) != len(chosen):
            self.add_error("then_2", _("Each tie-break may be chosen once."))
        return cleaned

    def chain(self) -> list[str] | None:
        """The tie-break chain chosen; None (the default chain) when the form was sent
        without the tie-break fields."""
        if not any(f"then_{i}" in self.data for i in (1, 2, 3)):
            return None
        data = self.cleaned_data
        chain = ["match_points"] + [data[f"then_{i}"] for i in (1, 2, 3) if data.get(f"then_{i}")]
        return chain + (["lot"] if data.get("lot_last") else [])

    def settings(self) -> dict[str, Any]:
        data = self.cleaned_data
        fee = data.get("entry_fee") or Decimal(0)
        money = fee > 0
        prizes = [p.strip() for p in (data.get("prizes") or "").split(",") if p.strip()]

        def given(key: str) -> Any:
            value = data.get(key)
            return DEFAULTS[key] if value in (None, "") else value

        found = {
            "name": data["name"],
            "game": data.get("game"),
            "format": data["format"],
            "rounds": data["rounds"],
            "entry_fee": fee,
            "currency": (data.get("currency") or "EUR") if money else "",
            "prizes": prizes if money else [],
            "prize_kind": given("prize_kind"),
            "club_share": (data.get("club_share") or Decimal(0)) if money else Decimal(0),
            "tiebreaks": self.chain(),
            "points_win": given("points_win"),
            "points_draw": given("points_draw"),
            "points_loss": given("points_loss"),
            "group_size": given("group_size"),
            "qualifiers": given("qualifiers"),
            "seeding": given("seeding"),
            "series": given("series"),
            "series_games": given("series_games"),
        }
        return {k: v for k, v in found.items() if k in self.fields or k == "tiebreaks"}

    @classmethod
    def initial_of(cls, t: Tournament) -> dict[str, Any]:
        """The form's values for a stored tournament (the settings page)."""
        middle = [c for c in t.tiebreaks if c in MIDDLE_CRITERIA]
        initial: dict[str, Any] = {
            key: getattr(t, key)
            for key in (
                "name", "format", "rounds", "prize_kind", "points_win", "points_draw",
                "points_loss", "group_size", "qualifiers", "seeding", "series", "series_games",
            )
        }  # fmt: skip
        initial.update(
            entry_fee=t.entry_fee if t.plays_for_money else None,
            currency=t.currency or "EUR",
            prizes=", ".join(t.prizes),
            club_share=t.club_share,
            lot_last="lot" in t.tiebreaks,
            **{f"then_{i}": (middle[i - 1] if i <= len(middle) else "") for i in (1, 2, 3)},
        )
        return initial


class SettingsForm(TournamentForm):
    """The settings page: the game is the tournament's for good."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["game"]


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


class CancelForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=200)


class NextMatchForm(forms.Form):
    pairing = forms.IntegerField(min_value=1)


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
