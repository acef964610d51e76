"""Calendar feeds (sharing/feeds.py) over HTTP, and the member's page of addresses.

The feeds answer without a session (a calendar app cannot log in): the token in the URL
is the member's. A revoked, unknown or malformed token, or a league of another club, is
a 404 like any address that is not there."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scorebook.clubs.models import Club, Player
from scorebook.federations.models import Federation
from scorebook.sharing import feeds, selectors, services
from scorebook.sharing.models import CalendarFeed
from scorebook.standings.models import League
from scorebook.web.access import club_for, page_context
from scorebook.web.views.federations import federation_for
from scorebook.web.views.public import public_club_or_404

ICS = "text/calendar; charset=utf-8"


def _answer(request: HttpRequest, feed: feeds.Feed, language: str, name: str) -> HttpResponse:
    links = {
        night.pk: request.build_absolute_uri(reverse("web:night", args=[night.pk]))
        for night in feed.club.nights.only("pk")
    }
    body = feeds.calendar(
        feed, host=request.get_host().split(":")[0], language=language, name=name, links=links
    )
    response = HttpResponse(body, content_type=ICS)
    response["Content-Disposition"] = 'inline; filename="calendar.ics"'
    response["Cache-Control"] = "private, max-age=900"
    return response


def _feed_or_404(token: str) -> CalendarFeed:
    feed = selectors.live_feed(token)
    if feed is None:
        raise Http404
    return feed


def club_feed(request: HttpRequest, token: str) -> HttpResponse:
    """The member's club: every night and every league's fixtures."""
    feed = _feed_or_404(token)
    club = feed.membership.club
    return _answer(request, feeds.Feed(club=club), feed.language, club.name)


def my_feed(request: HttpRequest, token: str) -> HttpResponse:
    """The member's own: the nights they played and those to come, their fixtures."""
    feed = _feed_or_404(token)
    club = feed.membership.club
    player = Player.objects.filter(club=club, user=feed.membership.user_id).first()
    if player is None:  # a member who does not play: the club's nights, no fixtures
        wanted = feeds.Feed(club=club, fixtures=False, tournaments=False)
    else:
        wanted = feeds.Feed(club=club, player=player)
    return _answer(request, wanted, feed.language, f"{club.name} · {player or ''}".strip(" ·"))


def league_feed(request: HttpRequest, token: str, league_id: int) -> HttpResponse:
    """One league's fixtures (of the token's club only)."""
    feed = _feed_or_404(token)
    club = feed.membership.club
    league = get_object_or_404(League, pk=league_id, club=club)
    wanted = feeds.Feed(club=club, nights=False, league=league, tournaments=False)
    return _answer(request, wanted, feed.language, f"{club.name} · {league.name}")


def public_nights_feed(request: HttpRequest, slug: str) -> HttpResponse:
    """A club that publishes its results: its nights, for anyone (scores, no money)."""
    club = public_club_or_404(slug)
    language = "it" if (get_language() or "").startswith("it") else "en"
    nights_only = feeds.Feed(club=club, fixtures=False, tournaments=False)
    response = _answer(request, nights_only, language, club.name)
    response["Cache-Control"] = "public, max-age=900"
    return response


def _addresses(request: HttpRequest, club: Club, feed: CalendarFeed) -> dict[str, object]:
    def both(url: str) -> dict[str, str]:
        absolute = request.build_absolute_uri(url)
        return {"https": absolute, "webcal": "webcal://" + absolute.split("://", 1)[1]}

    leagues = [
        {"league": league, **both(reverse("web:calendar_league", args=[feed.token, league.pk]))}
        for league in League.objects.filter(club=club).order_by("name")
    ]
    public = None
    if club.public:
        public = both(reverse("web:calendar_public", args=[club.slug]))
    return {
        "club_feed": both(reverse("web:calendar_club", args=[feed.token])),
        "my_feed": both(reverse("web:calendar_mine", args=[feed.token])),
        "league_feeds": leagues,
        "public_feed": public,
    }


@login_required
def calendar_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The member's calendar addresses, and a new address (the old one stops working)."""
    club, membership = club_for(request, slug)
    if request.method == "POST":
        services.calendar_feed_rotate(membership=membership, language=get_language())
        messages.success(request, _("A new address: the old one no longer works."))
        return redirect("web:calendar", slug=club.slug)
    feed = services.calendar_feed_for(membership=membership, language=get_language())
    context = page_context(club, membership, nav="standings", feed=feed)
    context |= _addresses(request, club, feed)
    return render(request, "web/clubs/calendar.html", context)


def _federation_answer(request: HttpRequest, federation: Federation, cache: str) -> HttpResponse:
    language = "it" if (get_language() or "").startswith("it") else "en"
    body = feeds.federation_calendar(
        federation, host=request.get_host().split(":")[0], language=language
    )
    response = HttpResponse(body, content_type=ICS)
    response["Content-Disposition"] = 'inline; filename="calendar.ics"'
    response["Cache-Control"] = f"{cache}, max-age=900"
    return response


@login_required
def federation_feed(request: HttpRequest, fed: str) -> HttpResponse:
    """The federation's calendar (who sees the federation): its championships' fixtures
    and its federal tournaments."""
    federation, _office = federation_for(request, fed)
    return _federation_answer(request, federation, "private")


def public_federation_feed(request: HttpRequest, fed: str) -> HttpResponse:
    """The calendar of a federation that publishes (anyone): no money."""
    federation = get_object_or_404(Federation, slug=fed, publishes=True)
    return _federation_answer(request, federation, "public")
