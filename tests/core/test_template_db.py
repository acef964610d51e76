"""tests/template_db.py: the test database copied from a template migrated once."""

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from tests import template_db


@pytest.mark.django_db
def test_the_test_database_has_every_migration_applied():
    """From the template or migrated in place, a worker's database is fully migrated: a
    stale template (a migration added since) fails here before anything else."""
    loader = MigrationLoader(connection)
    assert set(loader.applied_migrations) == set(loader.graph.nodes)
    assert not loader.detect_conflicts()


def test_the_key_follows_each_migration_and_model(tmp_path, monkeypatch):
    app = tmp_path / "scorebook" / "clubs"
    (app / "migrations").mkdir(parents=True)
    migration = app / "migrations" / "0001_initial.py"
    migration.write_text("operations = []\n")
    (app / "models.py").write_text("# models\n")
    monkeypatch.setattr(template_db, "ROOT", tmp_path)
    first = template_db.key()
    assert template_db.key() == first
    migration.write_text("operations = ['changed']\n")
    second = template_db.key()
    assert second != first
    (app / "models.py").write_text("# models, changed\n")
    third = template_db.key()
    (app / "migrations" / "0002_more.py").write_text("operations = []\n")
    assert len({first, second, third, template_db.key()}) == 4


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_session_left_open_on_the_test_database_is_ended_and_named():
    """A session something left open would keep the test database from being dropped
    after the last test ("is being accessed by other users"): it is ended and named."""
    import psycopg

    settings_dict = connection.settings_dict
    stray = psycopg.connect(
        dbname=settings_dict["NAME"],
        host=settings_dict["HOST"] or None,
        port=settings_dict["PORT"] or None,
        user=settings_dict["USER"],
        application_name="a stray session",
    )
    try:
        with pytest.warns(UserWarning, match="1 session.*'a stray session'"):
            template_db.end_sessions_left_open()
        with connection.cursor() as cursor:
            # pg_stat_activity is read once per transaction unless its snapshot is cleared.
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            assert cursor.fetchone() == (0,)
        with pytest.raises(psycopg.OperationalError):
            stray.execute("SELECT 1")
    finally:
        stray.close()
