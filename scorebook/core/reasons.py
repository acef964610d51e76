"""The reasons people write (a correction, a confirmation overridden, a withdrawal, a
forfeit): bounded, checked by the services whichever way they come (a page stored a
100,000-character correction reason)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from .refusals import Refusal

#: The longest reason stored (the API's serializers said 2,000; a page said nothing).
REASON_MAX = 2000


class ReasonTooLong(Refusal):
    code = "reason.too_long"
    message = _("A reason is at most %(most)s characters; this one has %(length)s.")


def check_reason(reason: str, *, most: int = REASON_MAX, path: str = "reason") -> str:
    """The reason, refused when longer than ``most`` characters."""
    if len(reason) > most:
        raise ReasonTooLong(path=path, most=most, length=len(reason))
    return reason
