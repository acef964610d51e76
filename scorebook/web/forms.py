"""Forms of the pages: they check the shape of the input; the services decide the rest."""

from django.contrib.auth.forms import AuthenticationForm
from django.utils.translation import gettext_lazy as _


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
