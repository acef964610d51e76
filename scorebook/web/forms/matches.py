"""Starting a match: game, house rules switch by switch (from the engine's catalogue),
stake, seats (players or new guests) and the first dealer."""

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorebook.matches.refusals import STAKE_CURRENCIES
from scorebook.web.forms.house_rules import HouseRulesFields
from scorebook.web.seats import seat_letter

CURRENCIES = [("", gettext_lazy("points (no money)")), *((c, c) for c in STAKE_CURRENCIES)]


class MatchForm(HouseRulesFields, forms.Form):
    """One field per seat (a player, or a new guest's name), the stake, the first dealer,
    the profile and one field per house-rule switch (``rules.<key>``)."""

    def __init__(self, *args, game, seats, profile, players, tables, **kwargs):
        super().__init__(*args, **kwargs)
        self.game, self.seats, self.profile = game, seats, profile
        self.fields["table"] = forms.ModelChoiceField(
            tables, required=False, label=_("Table"), empty_label=_("(no table)")
        )
        self.player_names = {str(p.pk): p.name for p in players}
        player_choices = [("", _("— choose —"))] + list(self.player_names.items())
        for seat in seats:
            self.fields[f"seats.{seat}"] = forms.ChoiceField(
                choices=player_choices,
                required=False,
                label=_("Seat %(seat)s") % {"seat": seat_letter(seat)},
            )
            self.fields[f"guest.{seat}"] = forms.CharField(
                required=False,
                max_length=80,
                label=_("or a guest's name"),
            )
        self.fields["first_dealer"] = forms.ChoiceField(
            choices=[("", _("(the engine's default)"))] + [(s, seat_letter(s)) for s in seats],
            required=False,
            label=_("First dealer"),
        )
        self.fields["stake_amount"] = forms.DecimalField(
            min_value=Decimal("0"),
            max_digits=10,
            decimal_places=2,
            initial=Decimal("0"),
            localize=True,
            label=_("Stake"),
            help_text=_("Per game, or per point in the games settled deal by deal."),
        )
        self.fields["stake_currency"] = forms.ChoiceField(
            choices=CURRENCIES, required=False, label=_("Currency")
        )
        self.add_house_rules(game, profile)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for seat in self.seats:
            if not data.get(f"seats.{seat}") and not data.get(f"guest.{seat}", "").strip():
                self.add_error(f"seats.{seat}", _("Choose a player or write a guest's name."))
        # one player in two seats: said next to each of them, with the other problems
        chosen = [(seat, data.get(f"seats.{seat}")) for seat in self.seats]
        for seat, pid in chosen:
            if not pid or data.get(f"guest.{seat}", "").strip():
                continue
            for other, same in chosen:
                if other != seat and same == pid and not data.get(f"guest.{other}", "").strip():
                    self.add_error(
                        f"seats.{seat}",
                        _("%(player)s also sits at seat %(seat)s.")
                        % {"player": self.player_names.get(pid, "?"), "seat": seat_letter(other)},
                    )
        return data

    def seat_fields(self):
        return [(self[f"seats.{s}"], self[f"guest.{s}"]) for s in self.seats]

    def switch_fields(self):
        return [self[f"rules.{s['key']}"] for s in self.game["switches"]]

    def switch_errors(self):
        """Whether a house-rule field is refused (then the house rules are shown open)."""
        return any(name.startswith("rules.") for name in self.errors)

    def switches_changed(self):
        """How many house-rule fields differ from the profile (or the game's defaults): the
        closed section's summary says so, since a form shown again after an error keeps
        the changes out of sight."""
        if not self.is_bound:  # a new form holds the profile as it is
            return 0
        return sum(1 for name in self.changed_data if name.startswith("rules."))
