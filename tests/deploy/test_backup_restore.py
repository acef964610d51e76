"""A backup restores: pg_dump of a database with played nights, pg_restore into a fresh
database, and ``manage.py verify_records`` there finds every match re-deriving from its
deals and every ledger summing to zero (deploy/RUNBOOK.md, "Backups")."""

import subprocess
import sys

import psycopg
import pytest
from django.core.management import call_command
from django.db import connection

from tests.deploy.server import ROOT

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def url(settings_dict, name: str) -> str:
    host = settings_dict["HOST"] or "127.0.0.1"
    port = settings_dict["PORT"] or "5432"
    return f"postgres://{settings_dict['USER']}@{host}:{port}/{name}"


def verify(database_url: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "verify_records"],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "DATABASE_URL": database_url},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def restored(tmp_path):
    """A fresh database restored from a custom-format dump of the test database."""
    source = connection.settings_dict
    name = f"{source['NAME']}_restored"
    admin = url(source, "postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    dump = tmp_path / "scorebook.dump"
    subprocess.run(
        ["pg_dump", "--format=custom", "--file", str(dump), url(source, source["NAME"])],
        check=True,
        timeout=120,
    )
    subprocess.run(
        ["pg_restore", "--no-owner", "--exit-on-error", "--dbname", url(source, name), str(dump)],
        check=True,
        timeout=120,
    )
    yield url(source, name)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def played(transactional_db, settings):
    """Committed data for pg_dump to see: the demo's closed nights (a correction, stakes in
    two games, a settlement, league fixtures) and its open night."""
    settings.DEBUG = True
    call_command("load_demo")


def test_a_restored_dump_re_derives_every_match_and_balances_every_ledger(played, restored):
    done = verify(restored)
    assert done.returncode == 0, done.stderr
    from scorebook.matches.models import Match, Night

    matches, nights = Match.objects.count(), Night.objects.count()  # the demo's: 8 and 4
    assert matches >= 6 and nights >= 3
    assert (
        f"OK: {matches} matches re-derive from their deals, {nights} nights' ledgers sum to zero."
        in done.stdout
    )


def test_verify_records_finds_a_match_whose_state_is_not_its_deals(played, restored):
    with psycopg.connect(restored, autocommit=True) as conn:
        conn.execute(
            "UPDATE matches_match SET state = jsonb_set(state, '{deals_played}', '99')"
            " WHERE id = (SELECT min(id) FROM matches_match)"
        )
    done = verify(restored)
    assert done.returncode != 0
    assert "stored state differs from its deals" in done.stderr
