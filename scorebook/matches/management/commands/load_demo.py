"""``manage.py load_demo``: a demo club to explore (idempotent: it loads once)."""

import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from scorebook.clubs import services as clubs
from scorebook.clubs.models import Club
from scorebook.matches import services
from scorebook.rules import games


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
    {"bids": [{"player": "P1", "bid": "solissimo_scegliete"}, {"player": "P2", "bid": "pass"},
              {"player": "P3", "bid": "pass"}],
     "monte_shares": {"P2": 3, "P3": 1},
     "sides": {"soloist": {"thirds": 32, "tricks": 12}, "coalition": {"thirds": 0, "tricks": 0}},
     "last_trick": "soloist"},
    {"bids": [{"player": "P2", "bid": "solo"}, {"player": "P3", "bid": "pass"},
              {"player": "P1", "bid": "pass"}],
     "sides": {"soloist": {"thirds": 17, "tricks": 5}, "coalition": {"thirds": 15, "tricks": 7}},
     "last_trick": "coalition"},
]  # fmt: skip


def game_of(profile: str) -> str:
    """The game whose house rules have this profile: the demo names the rules it plays,
    the engine's registry says whose they are."""
    (key,) = [key for key, game in games().items() if profile in game.profiles]
    return key


class Command(BaseCommand):
    help = "Load a demo club: players, a closed night with corrections, an open night."

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
        names = ["Nino", "Ettore", "Salvo", "Walter", "Pina", "Carmelo", "Rosa"]
        players = [clubs.player_create(club=club, name=n, user=demo) for n in names]
        ids = [p.pk for p in players]
        closed = services.night_open(
            club_id=club.pk,
            date=datetime.date.today() - datetime.timedelta(days=7),
            venue="Circolo San Rocco",
            user=demo,
        )
        table = services.table_create(night=closed, number=1, name="Tavolo 1", user=demo)
        t4 = services.match_create(
            night=closed,
            table=table,
            game=game_of("accuso_41"),
            rules={"profile": "accuso_41"},
            seats=dict(zip("NESW", ids[:4], strict=True)),
            first_dealer="N",
            user=demo,
            stake_currency="EUR",
            stake_amount="0.50",
        )
        deals = []
        for number, data in enumerate(T4, start=1):
            deals.append(
                services.deal_create(match=t4, data=data, expected_number=number, user=demo)
            )
        fixed = sides(17, 5, 15, 5, "B")
        services.deal_correct(
            deal=deals[1],
            data=fixed,
            reason="Counted the thirds wrong",
            user=demo,
            expected_version=1,
        )
        while t4.status != t4.Status.FINISHED and len(deals) < 12:  # play it out to 41
            deals.append(
                services.deal_create(
                    match=t4, data=sides(20, 6, 12, 4, "A"), expected_number=None, user=demo
                )
            )
            t4.refresh_from_db()
        terz = services.match_create(
            night=closed,
            game=game_of("chips_1_2_4_8_16"),
            rules={"profile": "chips_1_2_4_8_16"},
            seats={"P1": ids[4], "P2": ids[5], "P3": ids[6]},
            first_dealer="P3",
            user=demo,
            stake_currency="EUR",
            stake_amount="0.10",
        )
        for number, data in enumerate(TERZ, start=1):
            services.deal_create(match=terz, data=data, expected_number=number, user=demo)
        services.night_close(night=closed, user=demo)
        tonight = services.night_open(
            club_id=club.pk, date=datetime.date.today(), venue="Circolo San Rocco", user=demo
        )
        live = services.match_create(
            night=tonight,
            game=t4.game,
            rules={"profile": "classic_21"},
            seats=dict(zip("NESW", ids[:4], strict=True)),
            first_dealer="N",
            user=demo,
        )
        services.deal_create(match=live, data=T4[1], expected_number=1, user=demo)
        self.stdout.write(self.style.SUCCESS("Demo club loaded. Log in as demo / demo."))
