"""``manage.py load_demo``: a demo club to explore (idempotent: it loads once)."""

import datetime
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from scorebook.clubs import services as clubs
from scorebook.clubs.models import Club
from scorebook.matches import services
from scorebook.rules import games
from scorebook.standings import refresh
from scorebook.standings import services as standings
from scorebook.standings.leagues import services as leagues
from scorebook.web.management import demo_federal, demo_federation


def sides(a: int, ta: int, b: int, tb: int, last: str) -> dict:
    return {
        "sides": {"A": {"thirds": a, "tricks": ta}, "B": {"thirds": b, "tricks": tb}},
        "last_trick": last,
    }


T4 = [
    {
        **sides(20, 5, 12, 5, "A"),
        "declarations": [{"player": "N", "type": "napoletana", "suit": "d"}],
    },
    sides(14, 4, 18, 6, "B"),
    {"annulled_by": "E"},
    sides(17, 5, 15, 5, "A"),
    sides(20, 6, 12, 4, "A"),
]
TERZ = [
    {
        "bids": [
            {"player": "P1", "bid": "solissimo_scegliete"},
            {"player": "P2", "bid": "pass"},
            {"player": "P3", "bid": "pass"},
        ],
        "monte_shares": {"P2": 3, "P3": 1},
        "sides": {"soloist": {"thirds": 32, "tricks": 12}, "coalition": {"thirds": 0, "tricks": 0}},
        "last_trick": "soloist",
    },
    {
        "bids": [
            {"player": "P2", "bid": "solo"},
            {"player": "P3", "bid": "pass"},
            {"player": "P1", "bid": "pass"},
        ],
        "sides": {"soloist": {"thirds": 17, "tricks": 5}, "coalition": {"thirds": 15, "tricks": 7}},
        "last_trick": "coalition",
    },
]


def game_of(profile: str) -> str:
    """The game whose house rules have this profile: the demo names the rules it plays,
    the engine's registry says whose they are."""
    (key,) = [key for key, game in games().items() if profile in game.profiles]
    return key


A_WINS = sides(20, 6, 12, 4, "A")
B_WINS = sides(12, 4, 20, 6, "B")


def play_out(match, user, pattern) -> None:
    """Enter deals from ``pattern`` in turn until the match is finished (at most 20)."""
    for number in range(1, 21):
        match.refresh_from_db()
        if match.status == match.Status.FINISHED:
            return
        data = pattern[(number - 1) % len(pattern)]
        services.deal_create(match=match, data=data, expected_number=None, user=user)


def season_of(day: datetime.date) -> tuple[str, datetime.date]:
    """The club season a day falls in, September to August: its name ("2026-27") and start."""
    year = day.year if day.month >= 9 else day.year - 1
    return f"{year}-{(year + 1) % 100:02d}", datetime.date(year, 9, 1)


@dataclass
class Demo:
    """What every step of the demo needs: who acts, the club, its players by name, today."""

    user: Any
    club: Club
    ids: dict[str, int]
    today: datetime.date
    pairs_game: str

    def seat(self, night, table, who, profile="classic_21", **stake):
        """A Tressette match in pairs at ``table``, ``who`` seated N, E, S, W."""
        return services.match_create(
            night=night,
            table=table,
            game=self.pairs_game,
            rules={"profile": profile},
            seats={s: self.ids[n] for s, n in zip("NESW", who, strict=True)},
            first_dealer="N",
            user=self.user,
            **stake,
        )


class Command(BaseCommand):
    help = (
        "Load a demo club: players, three closed nights (a league's first rounds, corrections), "
        "tonight's open night at two tables, a season with its leaderboard and ratings; and "
        "a federation of three clubs with persons linked across them."
    )

    @transaction.atomic
    def handle(self, *args, **options):
        if not settings.DEBUG:
            # The demo user is a superuser whose password everybody knows.
            raise CommandError("load_demo creates the superuser demo/demo: only with DEBUG on.")
        if Club.objects.filter(slug="san-rocco").exists():
            self.stdout.write("Demo club already loaded (user demo / demo).")
            return
        User = get_user_model()
        demo = User.objects.create_user("demo", password="demo", is_staff=True, is_superuser=True)
        # Through the services, as a person would: the audit log tells the same story.
        club = clubs.club_create(name="Circolo San Rocco", slug="san-rocco", public=True, user=demo)
        names = ["Nino", "Ettore", "Salvo", "Walter", "Pina", "Carmelo", "Rosa", "Tano"]
        players = [clubs.player_create(club=club, name=n, user=demo) for n in names]
        ids = dict(zip(names, (p.pk for p in players), strict=True))
        today = datetime.date.today()
        first_day = today - datetime.timedelta(weeks=3)
        # The season the nights fall in, so the leaderboard and the ratings have them.
        name, starts_on = season_of(today)
        standings.season_create(
            club_id=club.pk,
            name=name,
            starts_on=min(starts_on, first_day),
            ends_on=None,
            user=demo,
        )
        # Tressette in pairs (classic_21 is its too)
        d = Demo(demo, club, ids, today, game_of("accuso_41"))
        league_nights(d)
        terz_game = last_week(d)
        tonight(d, terz_game)
        # The standings now rather than when a worker gets to them: with a broker set and
        # no worker running yet, the leaderboard and the ratings would stay empty.
        refresh.rebuild(club_id=club.pk)
        # The federation of three clubs with persons linked across them (issue 34).
        # Its championship under way (Belmonte-Kalsa played tonight at Belmonte's night).
        comitato = demo_federation.load(demo, club, d.pairs_game)
        # Its federal tournament, played today at Kalsa, and the ranking it makes.
        demo_federal.load(
            comitato,
            d.pairs_game,
            {"profile": "classic_21"},
            lambda match, user: play_out(match, user, [A_WINS, B_WINS, A_WINS]),
        )
        self.stdout.write(self.style.SUCCESS("Demo club loaded. Log in as demo / demo."))


def league_nights(d: Demo) -> None:
    """A league of pairs at Tressette, its first two rounds played on the first nights."""
    demo = d.user
    league = leagues.league_create(
        club=d.club, name="Coppa d'inverno", game=d.pairs_game, user=demo
    )
    pairs = [("Nino", "Salvo"), ("Ettore", "Walter"), ("Pina", "Rosa"), ("Carmelo", "Tano")]
    entries = {
        pair: leagues.entry_add(
            league=league,
            name=f"{pair[0]} e {pair[1]}",
            player_ids=[d.ids[p] for p in pair],
            user=demo,
        )
        for pair in pairs
    }
    leagues.league_start(league=league, user=demo)

    pair_of = {entry.pk: pair for pair, entry in entries.items()}
    # The league's first two rounds, one a night three and two weeks ago, a match per
    # fixture at two tables: everybody has played twice and round 3 is still to play.
    # (One match per table a night: the import template orders a night's matches by
    # table, so the export's round trip keeps the order the ratings were computed in.)
    patterns = iter(([A_WINS, B_WINS, A_WINS], [B_WINS], [A_WINS], [B_WINS, A_WINS]))
    for round_number, weeks in ((1, 3), (2, 2)):
        earlier = services.night_open(
            club_id=d.club.pk,
            date=d.today - datetime.timedelta(weeks=weeks),
            venue="Circolo San Rocco",
            user=demo,
        )
        fixtures = league.fixtures.filter(round=round_number).order_by("pk")
        for number, fixture in enumerate(fixtures, start=1):
            table = services.table_create(
                night=earlier, number=number, name=f"Tavolo {number}", user=demo
            )
            # A round robin's fixtures have both entries from the start.
            assert fixture.home_id is not None and fixture.away_id is not None
            home, away = pair_of[fixture.home_id], pair_of[fixture.away_id]
            match = d.seat(earlier, table, (home[0], away[0], home[1], away[1]))
            play_out(match, demo, next(patterns))
            leagues.fixture_match_link(fixture=fixture, match=match, user=demo)
        services.night_close(night=earlier, user=demo)


def last_week(d: Demo) -> str:
    """A week ago: a Tressette match to 41 at a stake with a corrected deal, a Terziglio
    for chips at the second table; the night closed. Returns the Terziglio's game."""
    demo = d.user
    closed = services.night_open(
        club_id=d.club.pk,
        date=d.today - datetime.timedelta(days=7),
        venue="Circolo San Rocco",
        user=demo,
    )
    table = services.table_create(night=closed, number=1, name="Tavolo 1", user=demo)
    t4 = d.seat(
        closed,
        table,
        ("Nino", "Ettore", "Salvo", "Walter"),
        "accuso_41",
        stake_currency="EUR",
        stake_amount="0.50",
    )
    deals = []
    for number, data in enumerate(T4, start=1):
        deals.append(services.deal_create(match=t4, data=data, expected_number=number, user=demo))
    fixed = sides(17, 5, 15, 5, "B")
    services.deal_correct(
        deal=deals[1],
        data=fixed,
        reason="Counted the thirds wrong",
        user=demo,
        expected_version=1,
    )
    play_out(t4, demo, [A_WINS])  # to 41
    second = services.table_create(night=closed, number=2, name="Tavolo 2", user=demo)
    terz = services.match_create(
        night=closed,
        table=second,
        game=game_of("chips_1_2_4_8_16"),
        rules={"profile": "chips_1_2_4_8_16"},
        seats={"P1": d.ids["Pina"], "P2": d.ids["Carmelo"], "P3": d.ids["Rosa"]},
        first_dealer="P3",
        user=demo,
        stake_currency="EUR",
        stake_amount=Decimal("0.10"),
    )
    for number, data in enumerate(TERZ, start=1):
        services.deal_create(match=terz, data=data, expected_number=number, user=demo)
    # A chips session has no end of its own: the director finishes it at the close, with
    # its scores, as the close page offers (no match stays open on a closed night).
    services.night_close(night=closed, user=demo, end_open=[terz.pk])
    return terz.game


def tonight(d: Demo, terz_game: str) -> None:
    """Tonight: two tables playing, as the TV view and the director's room show them."""
    demo = d.user
    night = services.night_open(
        club_id=d.club.pk, date=d.today, venue="Circolo San Rocco", user=demo
    )
    first = services.table_create(night=night, number=1, name="Tavolo 1", user=demo)
    live = d.seat(night, first, ("Nino", "Ettore", "Salvo", "Walter"))
    services.deal_create(match=live, data=T4[1], expected_number=1, user=demo)
    second = services.table_create(night=night, number=2, name="Tavolo 2", user=demo)
    three = services.match_create(
        night=night,
        table=second,
        game=terz_game,
        rules={"profile": "chips_1_2_4_8_16"},
        seats={"P1": d.ids["Pina"], "P2": d.ids["Carmelo"], "P3": d.ids["Tano"]},
        first_dealer="P1",
        user=demo,
    )
    services.deal_create(match=three, data=TERZ[1], expected_number=1, user=demo)
