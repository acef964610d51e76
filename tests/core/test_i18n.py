"""Every message of the service has its Italian translation, and the compiled catalogue
(the .mo file Django reads) is in step with the .po file translators edit."""

import re
from pathlib import Path

from django.utils import translation

PO = Path(__file__).resolve().parents[2] / "locale" / "it" / "LC_MESSAGES" / "django.po"


def po_entries():
    for block in PO.read_text().split("\n\n"):
        ids = re.search(r'^msgid ((?:".*"\n)+)msgstr ((?:".*"\n?)+)', block + "\n", re.M)
        if not ids:
            continue
        msgid, msgstr = ("".join(re.findall(r'"(.*)"', part)) for part in ids.groups())
        context = re.search(r'^msgctxt "(.*)"$', block, re.M)
        if msgid:
            yield (
                msgid.replace('\\"', '"'),
                msgstr.replace('\\"', '"'),
                "#, fuzzy" in block,
                context.group(1) if context else None,
            )


def test_every_message_is_translated_and_compiled():
    entries = list(po_entries())
    assert len(entries) > 10
    with translation.override("it"):
        for msgid, msgstr, fuzzy, context in entries:
            assert msgstr and not fuzzy, f"untranslated: {msgid}"
            said = translation.pgettext(context, msgid) if context else translation.gettext(msgid)
            assert said == msgstr, f"run make messages: {msgid}"


def test_the_password_checks_speak_italian():
    """Django's own catalogue lacks the minimum-length message (issue 13)."""
    from django.contrib.auth.password_validation import validate_password
    from django.core.exceptions import ValidationError
    from django.utils import translation

    with translation.override("it"):
        try:
            validate_password("a1")
        except ValidationError as error:
            messages = error.messages
    assert messages and all("password" in m and "This" not in m for m in messages), messages
    assert any("troppo corta" in m for m in messages)
