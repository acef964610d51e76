"""Template filters of the pages: roles in words, money, points and dates in the locale."""

from decimal import Decimal

from django import template
from django.template.defaultfilters import date as date_filter
from django.templatetags.static import static
from django.utils.formats import number_format
from django.utils.translation import get_language

from scorebook.clubs.models import Role
from scorebook.web import scores
from scorebook.web.forms.clubs import ROLE_LABELS

register = template.Library()

#: Where Django's formats read wrong: its Italian pads the day ("05 Novembre 2026"); its
#: English puts the month first ("Nov. 13, 2026", "2:30 p.m.") beside the pages' own
#: "Friday 20 November": English days come first too, times on the 24-hour clock.
#: (Here rather than in a FORMAT_MODULE_PATH module: only the pages' dates need it, and
#: they all go through ``local_date``.)
FORMATS = {
    "it": {"DATE_FORMAT": "j F Y", "DATETIME_FORMAT": "l j F Y, H:i"},
    "en": {"DATE_FORMAT": "j F Y", "DATETIME_FORMAT": "l j F Y, H:i"},
}
#: Languages that write month and day names in lowercase. Django's Italian catalogue
#: capitalises them ("Mercoledì 25 Novembre"); Italian writes "mercoledì 25 novembre".
LOWERCASE_DATE_NAMES = ("it",)


@register.simple_tag(takes_context=True)
def absolute_static(context, path: str) -> str:
    """A static file's absolute URL (a link preview fetches it from elsewhere)."""
    url = static(path)
    request = context.get("request")
    return request.build_absolute_uri(url) if request is not None else url


@register.filter(expects_localtime=True)
def local_date(value, arg=None) -> str:
    """Django's ``date`` filter as each language writes dates: every date on the pages
    goes through this one (a test checks the templates). A formatted date holds only
    names, digits and separators, so lowercasing the whole text touches only the names."""
    language = (get_language() or "")[:2]
    text = date_filter(value, FORMATS.get(language, {}).get(arg or "DATE_FORMAT", arg))
    return text.lower() if language in LOWERCASE_DATE_NAMES else text


@register.filter
def game_name(key: str) -> str:
    """A game's name in the page's language, from its key (the engine's code for it)."""
    return scores.game_name(key)


@register.filter
def role_name(role: str) -> str:
    """A role in the user's language."""
    label = ROLE_LABELS.get(Role(role)) if role in Role.values else None
    return str(label) if label is not None else role


@register.filter
def money(amount, currency: str = "") -> str:
    """``Decimal`` money with two decimals in the locale (``1.234,50 EUR`` in Italian);
    points and chips (no currency) are whole numbers (``64``, not ``64,00``)."""
    if amount in (None, ""):
        return ""
    number = Decimal(amount)
    places = 0 if not currency and number == number.to_integral_value() else 2
    text = number_format(number, decimal_pos=places, use_l10n=True, force_grouping=True)
    return f"{text} {currency}".strip()


@register.filter
def score(value) -> str:
    """A running score as people write it: a minus sign before one below zero ('−4',
    as the nets beside it), never a hyphen; anything else as it is."""
    if isinstance(value, int | Decimal) and not isinstance(value, bool) and value < 0:
        return f"\u2212{abs(value)}"
    return "" if value is None else str(value)


@register.filter
def signed(value) -> str:
    """A net amount or score with its sign (``+3``, ``−2``): who is up and who is down."""
    if value in (None, ""):
        return ""
    number = Decimal(value)
    text = number_format(abs(number), use_l10n=True, force_grouping=True)
    if number > 0:
        return f"+{text}"
    if number < 0:
        return f"\u2212{text}"
    return text


@register.filter
def signed_money(value, currency: str = "") -> str:
    """A net amount of money with its sign and two decimals, in the locale."""
    if value in (None, ""):
        return ""
    number = Decimal(value)
    text = money(abs(number), currency)
    return f"+{text}" if number > 0 else f"\u2212{text}" if number < 0 else text


@register.filter
def sign_class(value) -> str:
    """``pos``/``neg`` for colouring a number (also shown by its sign, never colour alone)."""
    if value in (None, ""):
        return ""
    number = Decimal(value)
    return "pos" if number > 0 else "neg" if number < 0 else ""
