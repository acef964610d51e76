"""Refusals: a service saying no, for a reason the person asking can act on.

Services raise a subclass of :class:`Refusal` (never a bare ``ValueError``); one mapping
turns it into an answer: ``api/errors.py`` for the API, the same entries for the pages.
Anything else a service raises is a bug: a logged 500, never shown as an input error.

A subclass names its stable ``code``, its HTTP ``status`` and a translatable ``message``
whose ``%(name)s`` placeholders are filled from the keyword arguments it was raised with.
What a refusal carries besides its words (the deal already stored, the current version)
it returns from :meth:`Refusal.extra`; the API renders those objects its own way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from django.db import IntegrityError, transaction
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


class Refusal(Exception):
    """The request is refused; nothing was changed."""

    code: ClassVar[str] = "refused"
    status: ClassVar[int] = 400
    message: ClassVar[str | Promise] = _("This request was refused.")

    def __init__(self, *, path: str = "", **params: Any) -> None:
        self.path = path
        self.params = params
        super().__init__(f"{self.code}: {params}" if params else self.code)

    def words(self) -> dict[str, Any]:
        """The values the message's placeholders read (a subclass may translate some)."""
        return self.params

    def text(self) -> str:
        """The message in the active language, its placeholders filled."""
        template = str(self.message)
        return template % self.words() if self.params else template

    def errors(self, language: str | None = None) -> list[dict[str, Any]]:
        """The ``errors`` entries of the answer: ``code``, ``message``, ``path``, ``params``."""
        with translation.override(language or translation.get_language()):
            entry: dict[str, Any] = {"code": self.code, "message": self.text()}
        entry["path"] = self.path
        entry["params"] = _plain(self.params)
        return [entry]

    def extra(self) -> dict[str, Any]:
        """Fields of the answer besides ``errors`` (objects: the caller renders them)."""
        return {}

    def headers(self) -> dict[str, str]:
        """Extra response headers (``Retry-After``, ``ETag``...)."""
        return {}


T = TypeVar("T")


def unique_or(refusal: Refusal, create: Callable[[], T]) -> T:
    """Run an INSERT or UPDATE that a unique constraint guards: losing the race for the same
    name or number (two phones at once; a check before it cannot see the other's row yet)
    is ``refusal``, not a 500. The savepoint keeps the caller's transaction usable."""
    try:
        with transaction.atomic():
            return create()
    except IntegrityError:
        raise refusal from None


def _plain(params: dict[str, Any]) -> dict[str, Any]:
    return {
        key: value if isinstance(value, (str, int, bool, float)) or value is None else str(value)
        for key, value in params.items()
    }
