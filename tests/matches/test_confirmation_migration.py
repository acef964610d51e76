"""Migration matches 0005 keeps every confirmation stored before it: an override stays an
override (with its reason), the rest become the player's own phone's, each with the player
the match seated there and the account's phone; a second row for one seat keeps its row
without the seat (the new rule: one confirmation per seat)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.migrating import migrated_to

pytestmark = pytest.mark.migration

BEFORE = [("matches", "0004_delete_auditevent"), ("clubs", "0003_player_name_any_case")]


@pytest.mark.django_db(transaction=True)
def test_confirmations_keep_their_meaning():
    with migrated_to(BEFORE) as executor:
        latest = executor.loader.graph.leaf_nodes()
        old = executor.loader.project_state(BEFORE).apps
        User = old.get_model("auth", "User")
        Club, Player = old.get_model("clubs", "Club"), old.get_model("clubs", "Player")
        Night, Match = old.get_model("matches", "Night"), old.get_model("matches", "Match")
        Deal, Confirmation = (
            old.get_model("matches", "Deal"),
            old.get_model("matches", "Confirmation"),
        )
        club = Club.objects.create(name="Vecchio", slug="vecchio")
        nino, boss, relinked = (User.objects.create(username=n) for n in ("nino", "boss", "ex"))
        seats = {
            seat: Player.objects.create(club=club, name=name).pk
            for seat, name in (("N", "Nino"), ("E", "Ettore"), ("S", "Salvo"), ("W", "Walter"))
        }
        night = Night.objects.create(club=club, date="2026-11-01")
        match = Match.objects.create(
            night=night, game="tressette4", rules={}, players=4, seats=seats, first_dealer="N"
        )
        deal = Deal.objects.create(match=match, number=1, input={}, level="totals", result={})
        own = Confirmation.objects.create(deal=deal, user=nino, seat="N")
        override = Confirmation.objects.create(deal=deal, user=boss, override=True, reason="late")
        twice = Confirmation.objects.create(deal=deal, user=relinked, seat="N")

        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(latest)
        from scorebook.clubs.models import Club as NewClub
        from scorebook.matches.models import Confirmation as New

        rows = {c.pk: c for c in New.objects.all()}
        assert (rows[own.pk].method, rows[own.pk].seat, rows[own.pk].player_id) == (
            "own_phone",
            "N",
            seats["N"],
        )
        assert rows[own.pk].device_user_id == nino.pk and rows[own.pk].user_id == nino.pk
        assert rows[override.pk].method == "override" and rows[override.pk].override
        assert rows[override.pk].reason == "late" and rows[override.pk].player_id is None
        assert (rows[twice.pk].seat, rows[twice.pk].user_id) == ("", relinked.pk)
        # The club that existed keeps what it had: a PIN or the player's own phone.
        assert NewClub.objects.get(slug="vecchio").confirmation_policy == "pin"


@pytest.mark.django_db(transaction=True)
def test_it_goes_back_dropping_only_the_taps_without_an_account(people):
    from scorebook.matches import services
    from scorebook.matches.models import Confirmation

    night = services.night_open(
        club_id=people.club.pk, date="2026-11-20", venue="", user=people.director
    )
    match = services.match_create(
        night=night,
        game="tressette4",
        rules=None,
        user=people.director,
        seats=dict(zip("NESW", (p.pk for p in people.seated), strict=True)),
    )
    deal = services.deal_create(
        match=match,
        data={
            "sides": {"A": {"thirds": 20, "tricks": 5}, "B": {"thirds": 12, "tricks": 5}},
            "last_trick": "A",
        },
        expected_number=1,
        user=people.scorer,
        entered_side="A",
    )
    services.deal_confirm_at_table(deal=deal, seat="E", user=people.scorer)
    services.deal_confirm(deal=deal, user=people.member)
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps.get_model("matches", "Confirmation")
    assert [(c.user_id, c.seat, c.override) for c in old.objects.all()] == [
        (people.member.pk, "N", False)
    ]
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(latest)
    assert Confirmation.objects.get().method == "own_phone"
