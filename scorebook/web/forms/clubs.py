"""The club's forms: invitations, roles, players (and erasing one), the club's settings."""

from typing import cast

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from scorebook.clubs.models import ROLE_RANK, ConfirmationPolicy, Player, Role
from scorebook.clubs.services import INVITATION_MAX_DAYS, INVITATION_MAX_USES

ROLE_LABELS = {
    Role.OWNER: _("owner"),
    Role.DIRECTOR: _("director"),
    Role.SCORER: _("scorer"),
    Role.MEMBER: _("member"),
}


def role_choices(up_to: str) -> list[tuple[str, str]]:
    """The roles a member of role ``up_to`` may hand out (never above their own)."""
    return [
        (role.value, str(ROLE_LABELS[role]))
        for role in (Role.MEMBER, Role.SCORER, Role.DIRECTOR, Role.OWNER)
        if ROLE_RANK[role] <= ROLE_RANK[Role(up_to)]
    ]


class InvitationForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"))
    player = forms.ModelChoiceField(
        queryset=Player.objects.none(),
        required=False,
        label=_("As the player"),
        empty_label=_("(a new person)"),
        help_text=_("Pick a player without an account: whoever accepts becomes that player."),
    )
    max_uses = forms.IntegerField(
        label=_("How many people may use it"),
        min_value=1,
        max_value=INVITATION_MAX_USES,
        initial=1,
    )
    days = forms.IntegerField(
        label=_("Valid for (days)"), min_value=1, max_value=INVITATION_MAX_DAYS, initial=7
    )

    def __init__(self, *args, club, role, **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["role"]).choices = role_choices(role)
        player = cast(forms.ModelChoiceField, self.fields["player"])
        player.queryset = Player.objects.filter(club=club, user__isnull=True)
        for name in ("max_uses", "days"):
            self.fields[name].widget.attrs["inputmode"] = "numeric"


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"))

    def __init__(self, *args, up_to, **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["role"]).choices = role_choices(up_to)


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    guest = forms.BooleanField(label=_("Guest (not a regular of the club)"), required=False)


class PlayerEraseForm(forms.Form):
    name = forms.CharField(
        label=_("Type the player's name to confirm"), max_length=200, strip=False
    )


class ClubSettingsForm(forms.Form):
    """The owner's settings; a director sees only ``confirmation_policy`` (``policy_only``)."""

    name = forms.CharField(label=_("Name of the club"), max_length=120)
    public = forms.BooleanField(
        label=_("Publish results"),
        required=False,
        help_text=_("Anyone may see the nights' matches and scores (never the stakes)."),
    )
    confirmation_policy = forms.ChoiceField(
        label=_("What counts as a confirmation of a deal"),
        choices=ConfirmationPolicy.choices,
        help_text=_(
            "Who entered a deal never confirms it: a player of the other side does. A tap on "
            "the table phone lets one phone serve the whole table, guests included."
        ),
    )

    night_starts = forms.TimeField(
        label=_("Club nights usually start at"),
        required=False,
        widget=forms.TimeInput(format="%H:%M", attrs={"type": "time"}),
        help_text=_("For the calendars: nights have a date, not an hour."),
    )
    night_minutes = forms.IntegerField(
        label=_("A night usually lasts (minutes)"), min_value=30, max_value=720, required=False
    )
    time_zone = forms.CharField(
        label=_("Time zone"),
        max_length=64,
        required=False,
    )

    def __init__(self, *args, policy_only=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].help_text = _(
            "Such as Europe/Rome; blank: the installation's (%(zone)s)."
        ) % {"zone": settings.TIME_ZONE}
        if policy_only:
            del self.fields["name"], self.fields["public"]

    def changes(self) -> dict[str, object]:
        """The settings sent (a blank start or length keeps the club's)."""
        kept = ("night_starts", "night_minutes")
        return {k: v for k, v in self.cleaned_data.items() if not (k in kept and v is None)}
