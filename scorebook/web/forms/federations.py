"""The federation's forms (issue 34): founding and changing a federation, its officers,
inviting a club, a federation number, and a person's links to players."""

from typing import cast

from django import forms
from django.utils.translation import gettext_lazy as _

from scorebook.clubs.models import Player
from scorebook.federations.models import Level, OfficerRole
from scorebook.federations.services.membership import INVITATION_DAYS, INVITATION_MAX_DAYS
from scorebook.federations.services.numbers import NUMBER_MAX

LEVELS = [
    (Level.PROVINCIAL.value, _("provincial")),
    (Level.REGIONAL.value, _("regional")),
    (Level.NATIONAL.value, _("national")),
]
OFFICER_ROLES = [
    (OfficerRole.PRESIDENT.value, _("president")),
    (OfficerRole.SECRETARY.value, _("secretary")),
    (OfficerRole.OFFICER.value, _("officer")),
]


def _numeric(form: forms.Form, *names: str) -> None:
    for name in names:
        form.fields[name].widget.attrs["inputmode"] = "numeric"


class FederationForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    slug = forms.SlugField(
        label=_("Address"),
        max_length=60,
        help_text=_("Letters, digits and dashes: the federation's pages are at /f/<address>/."),
    )
    level = forms.ChoiceField(label=_("Level"), choices=LEVELS, initial=Level.PROVINCIAL)
    publishes = forms.BooleanField(
        label=_("Public pages"),
        required=False,
        help_text=_("Anyone may see the federation's name, level and member clubs."),
    )


class OfficerForm(forms.Form):
    username = forms.CharField(label=_("Their username"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=OFFICER_ROLES, initial=OfficerRole.OFFICER)


class OfficerRoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=OFFICER_ROLES)


class ClubInviteForm(forms.Form):
    club = forms.SlugField(
        label=_("The club's address"),
        max_length=60,
        help_text=_("As in its pages' address: /c/<address>/."),
    )
    days = forms.IntegerField(
        label=_("Valid for (days)"),
        min_value=1,
        max_value=INVITATION_MAX_DAYS,
        initial=INVITATION_DAYS,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _numeric(self, "days")


class NumberForm(forms.Form):
    number = forms.IntegerField(label=_("Federation number"), min_value=1, max_value=NUMBER_MAX)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _numeric(self, "number")


class _PlayerForm(forms.Form):
    player = forms.ModelChoiceField(queryset=Player.objects.none(), label=_("Player"))

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        field = cast(forms.ModelChoiceField, self.fields["player"])
        field.queryset = Player.objects.filter(club=club, erased=False).order_by("name")


class LinkProposeForm(_PlayerForm):
    username = forms.CharField(
        label=_("Their username"),
        max_length=150,
        help_text=_("The person accepts on their account page."),
    )


class LinkAcceptForm(_PlayerForm):
    """A director accepts a person's request, naming the club's player they are."""


class LinkAskForm(forms.Form):
    club = forms.SlugField(
        label=_("The club's address"),
        max_length=60,
        help_text=_("As in its pages' address: /c/<address>/. A director of the club answers."),
    )
