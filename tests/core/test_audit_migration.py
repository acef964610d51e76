"""AuditEvent moved from the matches app to scorebook.core (issue 12): the migration only
changes Django's state, so every row written before the move is still there after it."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.migrating import migrated_to

pytestmark = pytest.mark.migration

BEFORE = [("matches", "0003_alter_auditevent_club_alter_confirmation_deal_and_more")]


@pytest.mark.django_db(transaction=True)
def test_the_audit_log_survives_the_move():
    with migrated_to(BEFORE) as executor:
        latest = executor.loader.graph.leaf_nodes()
        old = executor.loader.project_state(BEFORE).apps.get_model("matches", "AuditEvent")
        old.objects.create(verb="night_closed", object_type="night", object_id="7", reason="why")

        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(latest)
        from scorebook.core.models import AuditEvent

        (event,) = AuditEvent.objects.filter(verb="night_closed", object_id="7")
        assert event.reason == "why"
