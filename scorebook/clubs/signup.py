"""A new account's username and password, checked as Django checks them, for the join page
and the API's sign-up alike (``web.forms.accounts.SignUpForm``,
``api.serializers.clubs.InvitationSignUpSerializer``)."""

from __future__ import annotations

from django.contrib.auth.forms import BaseUserCreationForm


class NewAccountForm(BaseUserCreationForm):
    """Django's checks of a new account (the username's characters and length, the password
    validators, the two passwords alike) but not whether the username is taken: that is
    ``clubs.services.invitation_sign_up``'s refusal, ``user.username_taken`` (409, in words,
    in any case). Django's own form answered a taken name typed again with a 400 of its own
    while two sent at the same moment got the service's 409: two refusals for one fact."""

    def validate_unique(self) -> None:
        """The service says it (see the class)."""
