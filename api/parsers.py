"""JSON and forms in, refused at the door when they cannot be stored or echoed safely:
the checks of scorebook/core/inputs.py (control characters, lone surrogates, nesting,
integers longer than any id), on every body the API reads."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError

from scorebook.core import inputs
from scorebook.core.inputs import BadCharacter, NumberTooLarge, TooDeep, bad_char, check
from scorebook.core.refusals import Refusal

__all__ = ["BadCharacter", "NumberTooLarge", "TooDeep", "bad_char", "check"]


class TooLarge(Refusal):
    code = "http.too_large"
    status = 413
    message = _("The request body is larger than %(limit)s bytes.")


class StrictJSONParser(parsers.JSONParser):
    """DRF's JSON parser, with :func:`scorebook.core.inputs.loads`'s checks."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read(limit + 1) if limit is not None else stream.read()
        if limit is not None and len(raw) > limit:
            raise TooLarge(limit=limit)
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        try:
            return inputs.loads(text)
        except inputs.NotJSON as exc:
            raise ParseError(f"JSON parse error - {exc.params['error']}") from None


class StrictFormParser(parsers.FormParser):
    """Form bodies get the same check as JSON: a NUL in a form field is refused too."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        data = super().parse(stream, media_type, parser_context)
        check(dict(data.lists()))
        return data


class StrictMultiPartParser(parsers.MultiPartParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        parsed = super().parse(stream, media_type, parser_context)
        check(dict(parsed.data.lists()))
        check([f.name for _, files in parsed.files.lists() for f in files])
        return parsed
