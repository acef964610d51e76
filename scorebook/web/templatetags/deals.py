"""Cards in words, for the deal pages."""

from django import template

from scorebook.web.deal_forms import card_name as _card_name

register = template.Library()


@register.filter
def card_name(code: str) -> str:
    return _card_name(str(code)) if code else ""
