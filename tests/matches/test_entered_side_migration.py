"""Migration matches 0009 (Deal.entered_side): a deal stored before it, entered by an
account seated at its match, is its seat's side (from the engine's description of the
table: A for North-South in pairs, the seat itself where sides are not fixed); a deal
entered by an account seated nowhere there stays blank (nobody said)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.migrating import migrated_to

pytestmark = pytest.mark.migration

BEFORE = [("matches", "0008_match_final_winner"), ("clubs", "0005_club_usual_night")]


@pytest.mark.django_db(transaction=True)
def test_stored_deals_get_the_side_that_entered_them():
    with migrated_to(BEFORE) as executor:
        latest = executor.loader.graph.leaf_nodes()
        old = executor.loader.project_state(BEFORE).apps
        User = old.get_model("auth", "User")
        Club, Player = old.get_model("clubs", "Club"), old.get_model("clubs", "Player")
        Night, Match = old.get_model("matches", "Night"), old.get_model("matches", "Match")
        Deal = old.get_model("matches", "Deal")
        club = Club.objects.create(name="Vecchio", slug="vecchio")
        walter, boss = User.objects.create(username="walter"), User.objects.create(username="boss")
        names = ("Nino", "Ettore", "Salvo", "Walter")
        players = [
            Player.objects.create(club=club, name=n, user=walter if n == "Walter" else None)
            for n in names
        ]
        night = Night.objects.create(club=club, date="2026-11-01")
        pairs = Match.objects.create(
            night=night,
            game="tressette4",
            rules={"values": {}},
            players=4,
            seats={s: p.pk for s, p in zip("NESW", players, strict=True)},
            first_dealer="N",
        )
        alone = Match.objects.create(
            night=night,
            game="tressette4i",
            rules={"values": {}},
            players=4,
            seats={f"P{i}": p.pk for i, p in enumerate(players, start=1)},
            first_dealer="P1",
        )

        def deal(match, user, number=1):
            return Deal.objects.create(
                match=match, number=number, input={}, level="totals", result={}, entered_by=user
            )

        by_walter, by_boss, walter_alone = (
            deal(pairs, walter),
            deal(pairs, boss, 2),
            deal(alone, walter),
        )

        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(latest)
        from scorebook.matches.models import Deal as New

        sides = dict(New.objects.values_list("pk", "entered_side"))
        assert sides[by_walter.pk] == "B"  # West plays with East
        assert sides[by_boss.pk] == ""  # seated nowhere: nobody said
        assert sides[walter_alone.pk] == "P4"  # each for himself: his seat
