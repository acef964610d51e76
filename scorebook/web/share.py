"""The share block of a page: the text from ``sharing.texts`` and the link it points to.

A club that publishes its results is shared by its public page (anyone the message
reaches can open it, and the link shows a preview); a private club's link is the members'
page, which asks whoever opens it to log in."""

from __future__ import annotations

from django.http import HttpRequest

from scorebook.clubs.models import Club
from scorebook.sharing.texts import Share


def share_for(
    request: HttpRequest,
    club: Club,
    *,
    title: str,
    text: str,
    members_url: str,
    public_url: str | None = None,
) -> Share:
    """The page's share: the public address when the club publishes and the page has a
    public twin, else the members' one; absolute, as a message needs it."""
    url = public_url if club.public and public_url else members_url
    return Share(title=title, text=text, url=request.build_absolute_uri(url))
