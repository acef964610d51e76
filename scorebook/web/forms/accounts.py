"""The forms of signing in, joining with a new account and erasing one's own account."""

from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.utils.translation import gettext_lazy as _

from scorebook.clubs.signup import NewAccountForm


class LoginForm(AuthenticationForm):
    """Django's login form with phone-friendly inputs (no autocorrect on the username)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].widget.attrs.update(
            {"autocapitalize": "none", "autocorrect": "off", "autocomplete": "username"}
        )
        self.fields["password"].widget.attrs.update({"autocomplete": "current-password"})
        self.fields["username"].label = _("Username")
        self.fields["password"].label = _("Password")


class SignUpForm(NewAccountForm):
    """A new account, made on the join page together with accepting the invitation."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].widget.attrs.update(
            {"autocapitalize": "none", "autocorrect": "off", "autocomplete": "username"}
        )
        # Django's own read "150 caratteri o meno.Solo lettere, cifre e @/./+/-/_".
        self.fields["username"].help_text = _("Letters, digits and @ . + - _, at most 150.")


class AccountEraseForm(forms.Form):
    username = forms.CharField(
        label=_("Type your username to confirm"), max_length=200, strip=False
    )
    understood = forms.BooleanField(
        label=_("I understand that this cannot be undone."), required=True
    )
