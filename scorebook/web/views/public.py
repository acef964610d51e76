"""Results of clubs that publish them, for anyone: the nights, each match's score and
deals (never the stakes), and the café's TV view that refreshes itself."""

import time
from typing import Any

from django.db.models import Count, OuterRef, Subquery
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from scorebook.clubs.models import Club, Player
from scorebook.core.dates import today_in
from scorebook.core.numbers import parse_int
from scorebook.federations import championship_selectors as championship_reads
from scorebook.matches.models import Match, Night
from scorebook.sharing import texts
from scorebook.standings import selectors
from scorebook.standings import services as standings_services
from scorebook.standings.models import ALL_GAMES, Season
from scorebook.tournaments import boards as tournament_boards
from scorebook.tournaments import selectors as tournament_selectors
from scorebook.tournaments.models import Round, Tournament
from scorebook.web import tournament_bracket
from scorebook.web.scores import game_name, scoreboard
from scorebook.web.share import share_for
from scorebook.web.views.matches import match_context

#: How often the TV view asks for fresh scores (seconds).
TV_REFRESH_SECONDS = 5


def public_club_or_404(slug):
    club = get_object_or_404(Club, slug=slug)
    if not club.public:
        raise Http404
    return club


def _nights_with_scores(club, nights, names=None):
    if names is None:
        names = dict(Player.objects.filter(club=club).values_list("id", "name"))
    matches = Match.objects.filter(night__in=nights).select_related("table").order_by("id")
    by_night: dict[int, list[dict[str, Any]]] = {night.pk: [] for night in nights}
    for match in matches:
        by_night[match.night_id].append(
            {"match": match, "game": game_name(match.game), "board": scoreboard(match, names)}
        )
    return [{"night": night, "matches": by_night[night.pk]} for night in nights]


def public_club(request, slug):
    club = public_club_or_404(slug)
    # Nights of one date are told apart by their order that day (they read as one night
    # twice): how many the date has, and how many of them were opened up to this one.
    same_day = Night.objects.filter(club=club, date=OuterRef("date")).values("date")
    count = same_day.annotate(n=Count("pk")).values("n")
    upto = same_day.filter(pk__lte=OuterRef("pk")).annotate(n=Count("pk")).values("n")
    nights = list(
        Night.objects.filter(club=club)
        .annotate(day_nights=Subquery(count), day_order=Subquery(upto))
        .order_by("-date", "-id")[:10]
    )
    names = dict(Player.objects.filter(club=club).values_list("id", "name"))
    shown = _nights_with_scores(club, nights, names)
    for entry in shown:
        night = entry["night"]
        entry["ordinal"] = night.day_order if night.day_nights > 1 else None
    url = reverse("web:public_club", args=[club.slug])
    text = club.name
    if shown:  # the latest night, from what the page read already
        latest = shown[0]["night"]
        latest.club = club
        text = texts.night_text(latest, names, [m["match"] for m in shown[0]["matches"]])
    share = share_for(
        request,
        club,
        title=club.name,
        text=text,
        members_url=url,
        public_url=url,
    )
    return render(
        request, "web/public/club.html", {"public_club": club, "nights": shown, "share": share}
    )


def public_match(request, slug, pk):
    club = public_club_or_404(slug)
    match = get_object_or_404(
        Match.objects.select_related("night__club", "table"), pk=pk, night__club=club
    )
    context = {"public_club": club, "public": True, **match_context(match)}
    url = reverse("web:public_match", args=[club.slug, match.pk])
    context["share"] = share_for(
        request,
        club,
        title=f"{context['game_label']} · {club.name}",
        text=texts.match_text(match, context["names"]),
        members_url=url,
        public_url=url,
    )
    return render(request, "web/public/match.html", context)


#: How many matches a TV page holds (two rows of two beside the standings, readable at
#: 1280 x 720); more turn a page every TV_PAGE_SECONDS.
TV_MATCHES_PER_PAGE = 4
TV_PAGE_SECONDS = 15


def tonights_night(club):
    """The night the TV shows: the latest open night that has begun (today's, or one left
    open since), else the latest night that has begun, else the next one. A night opened
    in advance for tomorrow replaced tonight's live matches."""
    today = today_in(club.zone_name)
    begun = Night.objects.filter(club=club, date__lte=today).order_by("-date", "-id")
    return (
        begun.filter(status=Night.Status.OPEN).first()
        or begun.first()
        or Night.objects.filter(club=club).order_by("date", "id").first()
    )


def tv(request, slug):
    """Tonight's matches in big type beside the season's standings, one screen with no
    scrolling; htmx replaces them every few seconds, turning the page when there are more
    matches than a screen holds (``?page=N`` shows one page)."""
    club = public_club_or_404(slug)
    night = tonights_night(club)
    shown = _nights_with_scores(club, [night])[0] if night else None
    pages = 1
    page = 1
    if shown:
        matches = shown["matches"]
        pages = max(1, -(-len(matches) // TV_MATCHES_PER_PAGE))
        raw = request.GET.get("page")
        if raw is None:  # the page turns by itself, with the clock
            page = int(time.time() // TV_PAGE_SECONDS) % pages + 1
        else:  # one page asked for; a page that is not one shows the first
            page = parse_int(raw, low=1, high=pages) or 1
        start = (page - 1) * TV_MATCHES_PER_PAGE
        shown = {**shown, "matches": matches[start : start + TV_MATCHES_PER_PAGE]}
    template = "web/public/tv_scores.html" if request.htmx else "web/public/tv.html"
    season, standing = _tv_standings(club)
    cup = _tv_tournament(night, request.GET.get("show"))
    fixtures = _tv_fixtures(night)
    return render(
        request,
        template,
        {
            "public_club": club,
            "shown": shown,
            "page": page,
            "pages": pages,
            "refresh": TV_REFRESH_SECONDS,
            "season": season,
            "standing": standing,
            "cup": cup,
            "fixtures": fixtures,
        },
    )


def _tv_fixtures(night):
    """Tonight's championship fixtures played at the club (issue 34): each as a team
    result, tables won then game points (read from the tables' matches, so it moves with
    each deal), and whether it is still being played, waits for the away captain, or is
    confirmed. No money: a fixture has none."""
    if night is None:
        return []
    found = []
    for fixture in championship_reads.fixtures_of_night(night.pk):
        found.append({"fixture": fixture, "result": championship_reads.result(fixture)})
    return found


#: How many standings rows of a tournament the TV shows at once.
TV_TOURNAMENT_LINES = 12
#: How many tables of a round the TV shows at once (each two lines, a pair a line); more
#: turn a screen every TV_PAGE_SECONDS.
TV_PAIRING_LINES = 8


def _clock_page(items: list[Any], size: int) -> list[Any]:
    """The screenful of ``items`` the clock shows now, turning every TV_PAGE_SECONDS."""
    pages = [items[start : start + size] for start in range(0, len(items), size)] or [[]]
    return pages[int(time.time() // TV_PAGE_SECONDS) % len(pages)]


def _tv_tournament(night, show):
    """Tonight's tournament, if any, for the TV: the current round's pairings by table,
    then the standings, turning with the clock (``?show=pairings|standings`` shows one).
    A groups tournament shows its group tables for the standings, a screenful at a time;
    in a knockout round there are no standings: the round's pairings under its name
    (semifinals, final) stay. No money: the TV is a public page."""
    if night is None:
        return None
    tournament = tournament_selectors.tournaments_of_night(night.pk).last()
    if tournament is None:
        return None
    if show not in ("pairings", "standings"):
        show = ("pairings", "standings")[int(time.time() // TV_PAGE_SECONDS) % 2]
    current = tournament_selectors.current_round(tournament)
    knockout_round = current is not None and current.stage == Round.Stage.KNOCKOUT
    if current is None:
        show = "standings"
    elif knockout_round:
        show = "pairings"
    found: dict[str, Any] = {"tournament": tournament, "show": show}
    if show == "pairings" and current is not None:
        board = tournament_boards.round_board(tournament, current)
        found.update(round=board.round, lines=_clock_page(board.lines, TV_PAIRING_LINES))
        if knockout_round:
            found["title"] = _knockout_round_title(tournament, current)
    elif tournament.format == Tournament.Format.GROUPS:
        found["show"] = "groups"
        found["groups"] = _tv_groups_page(tournament_bracket.groups(tournament))
    else:
        found["rows"] = tournament_selectors.standings(tournament)[:TV_TOURNAMENT_LINES]
    return found


def _knockout_round_title(tournament, round_):
    """'Semifinals', 'Final': the knockout round's name as the bracket calls it."""
    rounds = [
        r for r in tournament_selectors.rounds_of(tournament) if r.stage == Round.Stage.KNOCKOUT
    ]
    number = [r.pk for r in rounds].index(round_.pk) + 1
    return tournament_bracket.round_title(number, len(tournament_selectors.bracket(tournament)))


#: How many pairs of the group tables the TV shows at once (two groups of four).
TV_GROUP_LINES = 8


def _tv_groups_page(groups):
    """The groups a screen holds (at most ``TV_GROUP_LINES`` pairs, one group at least),
    turning with the clock when there are more."""
    pages: list[list[Any]] = [[]]
    for group in groups:
        rows = sum(len(g.rows) for g in pages[-1])
        if pages[-1] and rows + len(group.rows) > TV_GROUP_LINES:
            pages.append([])
        pages[-1].append(group)
    return pages[int(time.time() // TV_PAGE_SECONDS) % len(pages)]


#: How many of the season's leaderboard the TV shows under tonight's scores.
TV_STANDINGS = 10


def _tv_standings(club):
    """The current season's first players (VISION, step 8: the TV shows the standings; it
    showed only tonight's scores). The leaderboard's own order, no money."""
    today = today_in(club.zone_name)
    seasons = list(Season.objects.filter(club=club).order_by("-starts_on"))
    season = next((s for s in seasons if s.covers(today)), seasons[0] if seasons else None)
    if season is None:
        return None, []
    min_matches = standings_services.settings_of(club.pk).min_matches
    rows = list(selectors.leaderboard(season, ALL_GAMES, ["-won", "-win_rate"], min_matches))
    position = 0
    for row in rows:
        position += row.ranked
        row.position = position if row.ranked else None
    return season, rows[:TV_STANDINGS]
