"""IdempotencyKey moved from the api app to scorebook.core (issue 25 step 4: the pages'
saves use the store, and the pages must not depend on the API). The migrations only
change Django's state (the table keeps its name), so every key stored before the move is
still there after it, and a retry of a POST answered before the deploy still replays."""

import pytest
from django.conf import settings
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.migrating import migrated_to

pytestmark = pytest.mark.migration

BEFORE = [("api", "0002_idempotency_headers"), ("core", "0002_cache_table")]


def keys_survive_the_move():
    with migrated_to(BEFORE) as executor:
        latest = executor.loader.graph.leaf_nodes()
        old = executor.loader.project_state(BEFORE).apps
        user = old.get_model(settings.AUTH_USER_MODEL).objects.create(username="retrier")
        old.get_model("api", "IdempotencyKey").objects.create(
            user_id=user.pk,
            key="k-1",
            method="POST",
            path="/api/v1/matches/7/deals",
            body_hash="ab" * 32,
            status=201,
            response={"number": 3},
            headers={"ETag": '"3"'},
        )

        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(latest)
        from scorebook.core.models import IdempotencyKey

        (row,) = IdempotencyKey.objects.filter(user_id=user.pk, key="k-1")
        assert (row.status, row.response, row.headers) == (201, {"number": 3}, {"ETag": '"3"'})
        assert IdempotencyKey._meta.db_table == "matches_idempotencykey"
        assert executor.loader.project_state(latest).apps.get_model("core", "IdempotencyKey")
        with pytest.raises(LookupError):
            executor.loader.project_state(latest).apps.get_model("api", "IdempotencyKey")


@pytest.mark.django_db(transaction=True)
def test_stored_keys_survive_the_move():
    """On SQLite in `make test`, on PostgreSQL in .ci/run's PostgreSQL pass (a second copy
    marked ``postgres`` ran the same migrations twice there)."""
    keys_survive_the_move()
