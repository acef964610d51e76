"""The standings pages: a season's leaderboard and the club's ratings (phone-first tables,
the same selectors as the API; every page says when the tables were last brought up to date).
"""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.utils import timezone

from scorebook.rules import games
from scorebook.standings import selectors, services
from scorebook.standings.models import ALL_GAMES, Rating, Season
from scorebook.web.access import club_for, page_context

COLUMNS = ("matches", "won", "lost", "win_rate", "points_for", "points_against", "deals")


def _game_choices():
    return sorted(games())


@login_required
def leaderboard(request, slug):
    """The season's leaderboard: ranked players first, then the unranked; tap a column
    heading to sort by it."""
    club, membership = club_for(request, slug)
    seasons = list(Season.objects.filter(club=club).order_by("-starts_on"))
    wanted = request.GET.get("season", "")
    season = next((s for s in seasons if str(s.pk) == wanted), None)
    if season is None:
        today = timezone.localdate()
        season = next((s for s in seasons if s.covers(today)), seasons[0] if seasons else None)
    game = request.GET.get("game", "")
    game = game if game in _game_choices() else ALL_GAMES
    sort = request.GET.get("sort", "-won")
    if sort.lstrip("-") not in COLUMNS:
        sort = "-won"
    rows = []
    if season is not None:
        settings = services.settings_of(club.pk)
        rows = list(selectors.leaderboard(season, game, [sort, "-win_rate"], settings.min_matches))
        position = 0
        for row in rows:
            position += row.ranked
            row.position = position if row.ranked else None
    built, pending = selectors.freshness_of(club.pk)
    return render(
        request,
        "web/standings/leaderboard.html",
        page_context(
            club, membership, nav="standings", seasons=seasons, season=season, game=game,
            games=_game_choices(), sort=sort, columns=COLUMNS, rows=rows, built=built,
            pending=pending,
        ),
    )  # fmt: skip


@login_required
def ratings(request, slug):
    """The club's ratings in one game, by the conservative value."""
    club, membership = club_for(request, slug)
    played = sorted(set(Rating.objects.filter(club=club).values_list("game", flat=True)))
    game = request.GET.get("game", "")
    game = game if game in played else (played[0] if played else "")
    rows = list(
        Rating.objects.filter(club=club, game=game)
        .select_related("player")
        .order_by("-display", "player__name")
    )
    threshold = services.settings_of(club.pk).provisional_matches
    for row in rows:
        row.provisional = row.matches < threshold
    built, pending = selectors.freshness_of(club.pk)
    return render(
        request,
        "web/standings/ratings.html",
        page_context(
            club, membership, nav="ratings", games=played, game=game, rows=rows, built=built,
            pending=pending,
        ),
    )  # fmt: skip
