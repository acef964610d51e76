"""Migration matches 0011: a match a close left open on a closed night (the close used to
shut a night with its matches open) is abandoned, with no reason; a match of an open
night, and a finished one, are left as they are."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.migrating import migrated_to

pytestmark = pytest.mark.migration

BEFORE = [("matches", "0010_match_stopped")]


@pytest.mark.django_db(transaction=True)
def test_open_matches_on_closed_nights_are_abandoned():
    with migrated_to(BEFORE) as executor:
        latest = executor.loader.graph.leaf_nodes()
        old = executor.loader.project_state(BEFORE).apps
        Night, Match = old.get_model("matches", "Night"), old.get_model("matches", "Match")
        from scorebook.clubs.models import Club  # the clubs app stays as it is now

        club = Club.objects.create(name="Vecchio", slug="vecchio")
        closed = Night.objects.create(club_id=club.pk, date="2026-11-01", status="closed")
        tonight = Night.objects.create(club_id=club.pk, date="2026-11-08")

        def match(night, status):
            return Match.objects.create(
                night=night, game="terziglio", rules={}, players=3, seats={}, first_dealer="P1",
                status=status,
            )  # fmt: skip

        left, done, playing = (
            match(closed, "open"),
            match(closed, "finished"),
            match(tonight, "open"),
        )

        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(latest)
        from scorebook.matches.models import Match as New

        rows = {m.pk: m for m in New.objects.all()}
        assert (rows[left.pk].status, rows[left.pk].ended_reason) == ("abandoned", "")
        assert rows[left.pk].version == left.version + 1
        assert rows[done.pk].status == "finished" and rows[playing.pk].status == "open"
