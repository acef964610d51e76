"""The standings pages: a season's leaderboard and the club's ratings (phone-first tables,
the same selectors as the API; every page says when the tables were last brought up to date).
Clubs that publish their results show the leaderboard and ratings to anyone, without money.
"""

from __future__ import annotations

import re
from collections import Counter
from decimal import Decimal
from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import BooleanField, ExpressionWrapper, Q
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from scorebook.clubs.models import Role
from scorebook.clubs.services import require_role
from scorebook.core.dates import today_in
from scorebook.core.people import signed_in
from scorebook.core.refusals import Refusal
from scorebook.rules import games
from scorebook.sharing import noticeboard, texts
from scorebook.standings import columns, selectors, services
from scorebook.standings.models import ALL_GAMES, Rating, Season
from scorebook.web.access import club_for, page_context
from scorebook.web.errors import refused
from scorebook.web.forms.standings import SeasonForm
from scorebook.web.scores import game_name
from scorebook.web.share import share_for
from scorebook.web.switches import BID_LABELS, VALUES
from scorebook.web.views.public import public_club_or_404


def _game_choices():
    """Every game as (key, its name in the active language)."""
    return [(key, game_name(key)) for key in sorted(games())]


def _columns(rows: list[Any], public: bool) -> list[dict[str, Any]]:
    """The table's columns, from the registry (``standings.columns``): the plain ones, then
    each event made and suffered and each contract bid and won that some row has, then
    money per currency (in public only the columns the registry makes public: neither
    money nor units)."""
    shown = columns.visible(public=public)
    found = [{"key": c.name, "label": c.label, "path": (c.name,)} for c in shown if c.scalar]
    for column in (c for c in shown if c.kind == "tally"):
        for key in sorted({k for row in rows for k in (getattr(row, column.name) or {})}):
            name = _key_name(column.name, key)
            for side, word in column.sides.items():
                found.append(
                    {
                        "key": f"{column.name}:{key}:{side}",
                        "label": f"{name} ({word})",
                        "path": (column.name, key, side),
                    }
                )
    for column in (c for c in shown if c.kind == "money"):
        for currency in sorted({k for row in rows for k in (getattr(row, column.name) or {})}):
            found.append(
                {
                    "key": f"{column.name}:{currency}",
                    "label": currency,
                    "path": (column.name, currency),
                }
            )
    return found


def _key_name(column: str, key: str) -> Any:
    """An event's or a contract's name in words (the column said "solissimo_scegliete
    (bid)")."""
    if column == "bids":
        return BID_LABELS.get(key) or VALUES.get(key) or key.replace("_", " ")
    return VALUES.get(key, key)


#: An amount stored as text (money in JSON): "1.50", "-0.50".
_STORED_AMOUNT = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")


def _value(row: Any, path: tuple[str, ...]) -> Any:
    value: Any = getattr(row, path[0])
    for part in path[1:]:
        value = (value or {}).get(part, 0) if isinstance(value, dict) else 0
    if isinstance(value, str) and _STORED_AMOUNT.fullmatch(value):
        # a number, so the page writes it in the reader's digits ("1,50" beside "66,67";
        # the money, text in JSON, read "1.50")
        value = Decimal(value)
    return value


def _leaderboard(request, club, public: bool) -> dict[str, Any]:
    seasons = list(Season.objects.filter(club=club).order_by("-starts_on"))
    wanted = request.GET.get("season", "")
    season = next((s for s in seasons if str(s.pk) == wanted), None)
    if season is None:
        today = today_in(club.zone_name)
        season = next((s for s in seasons if s.covers(today)), seasons[0] if seasons else None)
    game = request.GET.get("game", "")
    game = game if game in games() else ALL_GAMES  # it compared with (key, name) pairs
    sort = request.GET.get("sort", "-won")
    key = sort.lstrip("-")
    if selectors.sort_key(key) is None or (public and not selectors.public_sortable(key)):
        sort = "-won"  # in public, sorting by money or units would rank by them
    rows: list[Any] = []
    if season is not None:
        settings = services.settings_of(club.pk)
        rows = list(selectors.leaderboard(season, game, [sort, "-win_rate"], settings.min_matches))
        position = 0
        for row in rows:
            position += row.ranked
            row.position = position if row.ranked else None
    columns = _columns(rows, public)
    for row in rows:
        row.cells = [_value(row, c["path"]) for c in columns]
    built, pending = selectors.freshness_of(club.pk)
    share = None
    if season is not None:
        query = f"?season={season.pk}" + (f"&game={game}" if game else "")
        share = share_for(
            request,
            club,
            title=f"{season.name} · {club.name}",
            text=texts.standings_text(club.name, season.name, game, rows),
            members_url=reverse("web:standings", args=[club.slug]) + query,
            public_url=reverse("web:public_standings", args=[club.slug]) + query,
        )
    return {
        "share": share,
        "seasons": seasons,
        "season": season,
        "game": game,
        "games": _game_choices(),
        "sort": sort,
        "columns": columns,
        "rows": rows,
        "built": built,
        "pending": pending,
        "public": public,
    }


@login_required
def leaderboard(request, slug):
    """The season's leaderboard: ranked players first, then the unranked; tap a column
    heading to sort by it. A director opens a season here (the page said "a director
    opens one", and no page let them)."""
    club, membership = club_for(request, slug)
    form = SeasonForm(
        request.POST or None, initial=SeasonForm.initial_for(today_in(club.zone_name))
    )
    context = page_context(club, membership, nav="standings", form=form)
    if request.method == "POST":
        require_role(request.user, club.pk, Role.DIRECTOR)
        if form.is_valid():
            try:
                season = services.season_create(
                    club_id=club.pk, user=signed_in(request), **form.cleaned_data
                )
            except Refusal as refusal:
                context |= _leaderboard(request, club, public=False)
                return refused(
                    request, refusal, template="web/standings/leaderboard.html", context=context
                )
            return redirect(f"{reverse('web:standings', args=[club.slug])}?season={season.pk}")
    context |= _leaderboard(request, club, public=False)
    return render(request, "web/standings/leaderboard.html", context)


def public_leaderboard(request, slug):
    """The same leaderboard for anyone, when the club publishes its results: no money."""
    club = public_club_or_404(slug)
    context = _leaderboard(request, club, public=True)
    return render(
        request, "web/standings/leaderboard.html", {"public_club": club, "club": club, **context}
    )


def _ratings(request, club) -> dict[str, Any]:
    counts = Counter(Rating.objects.filter(club=club).values_list("game", flat=True))
    played = sorted(counts)
    game = request.GET.get("game", "")
    # unless asked, the game most of the club is rated in (the first by name opened the
    # demo's ratings on a Terziglio of three players beside a Tressette of eight)
    most = min(played, key=lambda key: (-counts[key], key)) if played else ""
    game = game if game in played else most
    threshold = services.settings_of(club.pk).provisional_matches
    rows = list(
        Rating.objects.filter(club=club, game=game)
        .select_related("player")
        .annotate(
            provisional=ExpressionWrapper(Q(matches__lt=threshold), output_field=BooleanField())
        )
        .order_by("-display", "player__name")
    )
    built, pending = selectors.freshness_of(club.pk)
    return {
        "games": [(key, game_name(key)) for key in played],
        "game": game,
        "rows": rows,
        "built": built,
        "pending": pending,
    }


@login_required
def leaderboard_pdf(request, slug):
    """The leaderboard the page shows (``?season=``, ``?game=``, ``?sort=``) as an A4
    page for the notice board: the public columns only (it hangs where anyone passes)."""
    club, _membership = club_for(request, slug)
    context = _leaderboard(request, club, public=True)
    season = context["season"]
    if season is None:
        raise Http404
    pdf = noticeboard.leaderboard_pdf(club.name, season.name, context["game"], context["rows"])
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="leaderboard-{club.slug}-{season.pk}.pdf"'
    return response


@login_required
def ratings(request, slug):
    """The club's ratings in one game, by the conservative value."""
    club, membership = club_for(request, slug)
    return render(
        request,
        "web/standings/ratings.html",
        page_context(club, membership, nav="ratings", **_ratings(request, club)),
    )


def public_ratings(request, slug):
    club = public_club_or_404(slug)
    context = {"public_club": club, "club": club, "public": True, **_ratings(request, club)}
    return render(request, "web/standings/ratings.html", context)
