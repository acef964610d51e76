"""Tonight's tournament's forms: its settings (the few a director always sets, then "more
options"), a player or a new guest at the door, and the director's acts on a round."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorebook.clubs.models import Club, Player
from scorebook.rules import games
from scorebook.tournaments.models import Tournament
from scorebook.tournaments.services.setup import DEFAULTS
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
