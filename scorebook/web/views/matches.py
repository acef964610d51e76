"""Starting a match (game, house rules switch by switch, stake, seats, first dealer) and
the match page (running score, whose deal, the deals in words, the chart)."""

from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import Count
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from scorebook.clubs import services as clubs
from scorebook.clubs.models import Player, Role
from scorebook.core.numbers import object_or_404, parse_int
from scorebook.core.people import signed_in
from scorebook.core.refusals import Refusal
from scorebook.ledger import selectors as ledger_reads
from scorebook.matches import services
from scorebook.matches.models import Match, Night
from scorebook.rules import get_game
from scorebook.sharing import texts
from scorebook.standings.leagues import services as leagues
from scorebook.standings.models import Fixture, FixtureMatch
from scorebook.web import confirming
from scorebook.web.access import member_of, page_context
from scorebook.web.errors import refused
from scorebook.web.forms.matches import MatchForm
from scorebook.web.scores import (
    breakdown,
    catalogue,
    chart,
    deal_summary,
    dealer_name,
    game_name,
    rules_words,
    scoreboard,
    scorer_labels,
)
from scorebook.web.seats import pairs, seat_letter
from scorebook.web.share import share_for
from scorebook.web.switches import profile_label
from scorebook.web.views.nights import night_for


@login_required
def match_new(request, pk):
    """Step 1 picks the game and the number of players; step 2 is the form."""
    night, membership = night_for(request, pk)
    clubs.require_role(request.user, night.club_id, Role.SCORER)
    context = page_context(night.club, membership, nav="club", night=night)
    fixture = _fixture(request, night)
    if fixture is not None:
        context |= {"fixture": fixture, "fixture_words": fixture_words(fixture)}
    games = catalogue()
    key = request.GET.get("game")
    if key not in games:
        # The club's own games first, the most played at the top (Tressette a coppie sat
        # tenth of eleven, under games the club never plays), then the rest by name.
        played = dict(
            Match.objects.filter(night__club_id=night.club_id)
            .values_list("game")
            .annotate(n=Count("id"))
            .values_list("game", "n")
        )
        context["games"] = sorted(
            ({"key": k, "name": game_name(k), "players": g["players"]} for k, g in games.items()),
            key=lambda g: (-played.get(g["key"], 0), g["name"].casefold()),
        )
        context["table"] = request.GET.get("table", "")
        return render(request, "web/matches/choose_game.html", context)
    game = games[key]
    count = parse_int(request.GET.get("players") or game["players"][0], low=1, high=99)
    if count is None or count not in game["players"]:
        raise Http404
    profile = request.GET.get("profile", "")
    if profile and profile not in game["profiles"]:
        profile = ""
    engine = get_game(key)
    rules = engine.rules({"profile": profile} if profile else {})
    seats = list(engine.seats(rules, count))
    shape = engine.table_shape(rules.values, tuple(seats))
    players = Player.objects.filter(club_id=night.club_id, active=True).order_by("name")
    form = MatchForm(
        request.POST or None,
        game=game,
        seats=seats,
        profile=profile,
        players=players,
        tables=night.tables.order_by("number"),
        initial=_fixture_seats(fixture, shape.members, seats) | _carried(request, seats),
    )
    context |= {
        "game": game,
        "game_label": game_name(key),
        "count": count,
        "profile": profile,
        "profile_label": profile_label(key, profile) if profile else "",
        "profiles": [(p, profile_label(key, p)) for p in game["profiles"]],
        "table": request.GET.get("table", ""),
        "form": form,
        "pairs": pairs(shape),
        "pot_game": get_game(key).pot_game,
        "pots": ledger_reads.night_pots(night) if get_game(key).pot_game else [],
    }
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():  # a match its fixture refuses is not kept
                match = _start(request, night, key, form, seats)
                if fixture is not None:
                    leagues.fixture_match_link(
                        fixture=fixture, match=match, user=signed_in(request)
                    )
        except Refusal as refusal:
            return refused(request, refusal, template="web/matches/new.html", context=context)
        return redirect("web:match", pk=match.pk)
    # a form sent and refused is a 400, as a refusal of the service is
    status = 400 if request.method == "POST" else 200
    return render(request, "web/matches/new.html", context, status=status)


def _fixture(request, night):
    """The league fixture the form is for (``?fixture=``, from "play this fixture"): one
    of the night's club whose two entries are known."""
    if "fixture" not in request.GET:
        return None
    fixture = object_or_404(
        Fixture.objects.select_related("league", "home", "away"),
        request.GET["fixture"],
        league__club_id=night.club_id,
    )
    if fixture.home_id is None or fixture.away_id is None:
        raise Http404
    return fixture


def fixture_words(fixture):
    """'Coppa d'inverno, round 2: Nino-Ettore against Salvo-Walter'."""
    return _("%(league)s, round %(round)s: %(home)s against %(away)s") % {
        "league": fixture.league.name,
        "round": fixture.round,
        "home": fixture.home.name,
        "away": fixture.away.name,
    }


def _fixture_seats(fixture, members, seats):
    """The fixture's entries seated: where the game has sides of fixed seats (the engine's
    ``members``), the home entry on the first side and the away entry on the second; else
    the home players in the first seats, the away players in the next."""
    if fixture is None:
        return {}
    home, away = (list(e.players.order_by("name")) for e in (fixture.home, fixture.away))
    sides = list(members.values())
    if len(sides) == 2 and (len(sides[0]), len(sides[1])) == (len(home), len(away)):
        placed = [*zip(sides[0], home, strict=True), *zip(sides[1], away, strict=True)]
    else:
        placed = list(zip(seats, home + away, strict=False))  # players left out: chosen by hand
    return {f"seats.{seat}": str(player.pk) for seat, player in placed}


#: What the house rules' choice carries over from the form (the seats are added per game).
CARRIED = ("first_dealer", "stake_amount", "stake_currency")


def _carried(request, seats):
    """The form's first values: what was chosen before the house rules were (the profile's
    form sends it along), only as initial values, checked when the form is sent."""
    names = [*CARRIED, *(f"{kind}.{seat}" for seat in seats for kind in ("seats", "guest"))]
    initial = {name: request.GET[name] for name in names if request.GET.get(name)}
    initial["table"] = request.GET.get("table") or None
    return initial


@transaction.atomic
def _start(request, night, key, form, seats):
    """Add the guests named on the form, then start the match: both or neither."""
    data = form.cleaned_data
    seat_players = {}
    for seat in seats:
        guest = data.get(f"guest.{seat}", "").strip()
        if guest:
            player = clubs.player_create(
                club=night.club, name=guest, user=signed_in(request), guest=True
            )
            seat_players[seat] = player.pk
        else:
            seat_players[seat] = int(data[f"seats.{seat}"])
    return services.match_create(
        night=night,
        game=key,
        rules=form.rules_spec(),
        seats=seat_players,
        user=signed_in(request),
        table=data.get("table"),
        first_dealer=data.get("first_dealer") or None,
        stake_amount=data["stake_amount"],
        stake_currency=data.get("stake_currency", ""),
    )


def match_context(match):
    """What the match page and its public twin show."""
    names = dict(Player.objects.filter(club_id=match.night.club_id).values_list("id", "name"))
    deals = list(
        match.deals.filter(is_current=True)
        .select_related("entered_by")
        .prefetch_related("confirmations")
        .order_by("number")
    )
    labels = scorer_labels(match, names)
    return {
        "match": match,
        "names": names,
        "game_label": game_name(match.game),
        "board": scoreboard(match, names),
        "dealer": dealer_name(match, names),
        "seat_names": [
            (seat_letter(seat), names.get(match.seats[seat], "?")) for seat in match.seat_order()
        ],
        "pairs": pairs(
            get_game(match.game).table_shape(match.rules["values"], match.seat_order()),
            {seat: names.get(pid, "?") for seat, pid in match.seats.items()},
        ),
        "deals": [
            {
                "deal": deal,
                "lines": breakdown(deal.result, labels),
                "notes": deal_summary(deal.result),
                "confirmed": confirming.badge(deal.confirmations.all()),
            }
            for deal in reversed(deals)
        ],
        "chart": chart(match, [d.result for d in deals], names),
    }


#: How often an open match's page asks for the score again: the deal entered across the
#: table shows on every phone without a reload.
MATCH_REFRESH_SECONDS = 15


@login_required
def match(request, pk):
    return match_page(request, pk)


def match_page(request, pk, errors=(), status=200):
    """The match page, with a refusal's ``errors`` on top when a tap on it was refused."""
    the_match = get_object_or_404(
        Match.objects.select_related(
            "night__club",
            "table",
            "fixture_link__fixture__league",
            "fixture_link__fixture__home",
            "fixture_link__fixture__away",
        ),
        pk=pk,
    )
    membership = member_of(request, the_match.night.club_id)
    context = page_context(the_match.night.club, membership, nav="club", night=the_match.night)
    context |= match_context(the_match)
    context["refresh"] = MATCH_REFRESH_SECONDS
    context["rules_words"] = rules_words(the_match)  # members only: the public page has no stakes
    # The player across the table confirms from here, in one tap (the match page did not
    # say a deal awaited them: they had to know to open it). Not the one who entered it.
    seated = Player.objects.filter(pk__in=the_match.seats.values(), user=request.user).exists()
    # The newest deal nobody has confirmed yet, one at a time.
    if seated and the_match.night.status == Night.Status.OPEN:
        context["to_confirm"] = [
            shown
            for shown in context["deals"]
            if not shown["confirmed"] and shown["deal"].entered_by_id != request.user.pk
        ][:1]
    # The table phone: the other side confirms the newest deal here with one tap, and any
    # seat its remaining deals.
    context["confirm_here"] = confirming.confirm_here(
        the_match,
        request.user,
        back="match",
        deals=[shown["deal"] for shown in context["deals"]],
        names=context["names"],
        membership=membership,
    )
    try:
        link = the_match.fixture_link  # read with the match: no query of its own
    except FixtureMatch.DoesNotExist:
        link = None
    if link is not None:
        league = link.fixture.league
        context["fixture_words"] = fixture_words(link.fixture)
        context["fixture_url"] = reverse(
            "web:league", kwargs={"slug": the_match.night.club.slug, "league_id": league.pk}
        )
    context["errors"] = list(errors)
    club = the_match.night.club
    context["share"] = share_for(
        request,
        club,
        title=f"{context['game_label']} · {club.name}",
        text=texts.match_text(the_match, context["names"]),
        members_url=reverse("web:match", args=[the_match.pk]),
        public_url=reverse("web:public_match", args=[club.slug, the_match.pk]),
    )
    return render(request, "web/matches/match.html", context, status=status)
