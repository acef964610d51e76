"""The test database migrated once, copied for every worker and every run.

Building the test database runs every migration (rendering each model state as it goes):
7.5 s of CPU on this machine, once per pytest-xdist worker and per run, and 10 to 15
times that in wall time when the two cores are shared. Here the first worker that needs
it builds the database as pytest-django always did (``migrate`` from nothing), saves it as
a template, and every other worker, and every later run, starts from a copy:

- SQLite: the test database is copied to a file (the sqlite3 backup API) and copied back
  into each worker's test database (a file of its own in WAL mode, tests/sqlite_file.py);
- PostgreSQL: ``CREATE DATABASE test_<name>_gwN TEMPLATE test_<name>_template_<key>``.

Django's ``migrate`` still runs on each copy, with nothing left to apply: it finds every
migration recorded and only checks. A template is keyed by the content of every migration
and model module, Django's version and the settings that shape the schema, so a new or
changed migration builds a new one. ``--create-db`` (as .ci/run's PostgreSQL pass says)
builds it again from nothing; TEST_DB_TEMPLATE=0 does without it.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import sqlite3
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import django
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.test.utils import setup_databases

ROOT = Path(__file__).resolve().parents[1]
FOLDER = Path(tempfile.gettempdir()) / "scorebook-test-db"


def enabled() -> bool:
    return os.environ.get("TEST_DB_TEMPLATE", "1") != "0"


def key() -> str:
    """What the migrated schema depends on: the migrations (and the model modules some of
    them import), Django, the apps and the cache table's settings, the database engine."""
    digest = hashlib.sha256()
    files = [*ROOT.glob("scorebook/*/migrations/*.py"), *ROOT.glob("scorebook/*/models.py")]
    for path in sorted(files):
        digest.update(path.relative_to(ROOT).as_posix().encode())
        digest.update(path.read_bytes())
    database = settings.DATABASES[DEFAULT_DB_ALIAS]
    for part in (django.get_version(), settings.INSTALLED_APPS, settings.CACHES):
        digest.update(repr(part).encode())
    digest.update(f"{database['ENGINE']} {database['HOST']} {database['PORT']}".encode())
    digest.update(sqlite3.sqlite_version.encode())
    return digest.hexdigest()[:16]


@contextlib.contextmanager
def locked(name: str) -> Iterator[None]:
    """One process at a time (the xdist workers, and other runs on the machine)."""
    FOLDER.mkdir(exist_ok=True)
    with open(FOLDER / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def setup(*, verbosity: int, rebuild: bool, aliases: Any, serialized_aliases: Any) -> Any:
    """``django.test.utils.setup_databases`` for the default database, from the template
    when there is one (building it when there is not). Returns what teardown needs."""
    connection = connections[DEFAULT_DB_ALIAS]
    name = key()

    def build() -> Any:
        return setup_databases(
            verbosity=verbosity,
            interactive=False,
            aliases=aliases,
            serialized_aliases=serialized_aliases,
        )

    with locked(f"{connection.vendor}-{name}"):
        # --create-db builds it again once per run, not once per worker: the workers of
        # one run share pytest-xdist's run id.
        run = os.environ.get("PYTEST_XDIST_TESTRUNUID") or f"pid-{os.getpid()}"
        stamp = FOLDER / f"{connection.vendor}-{name}.run"
        rebuild = rebuild and not (stamp.exists() and stamp.read_text() == run)
        if connection.vendor == "sqlite":
            config = _sqlite(connection, FOLDER / f"{name}.sqlite3", build, rebuild)
        elif connection.vendor == "postgresql":
            config = _postgresql(connection, name, build, rebuild)
        else:
            return build()
        if rebuild:
            stamp.write_text(run)
        return config


def _sqlite(connection: Any, path: Path, build: Any, rebuild: bool) -> Any:
    if rebuild or not path.exists():
        config = build()
        connection.ensure_connection()
        partial = path.with_name(f"{path.name}.{os.getpid()}")
        target = sqlite3.connect(partial)
        connection.connection.backup(target)
        target.close()
        os.replace(partial, path)
        return config
    test = connection.settings_dict["TEST"]
    migrate = test.get("MIGRATE", True)
    test["MIGRATE"] = False  # tables from the models, replaced by the template's below
    try:
        config = build()
    finally:
        test["MIGRATE"] = migrate
    connection.ensure_connection()
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    source.backup(connection.connection)
    source.close()
    return config


def _postgresql(connection: Any, name: str, build: Any, rebuild: bool) -> Any:
    base = connection.settings_dict["NAME"]
    template = f"test_{base}_template_{name}"
    with connection._nodb_cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [template])
        exists = cursor.fetchone() is not None
    if rebuild or not exists:
        config = build()
        built = connection.settings_dict["NAME"]
        connection.close()
        with connection._nodb_cursor() as cursor:
            cursor.execute(
                "SELECT datname FROM pg_database WHERE datname LIKE %s",
                [f"test_{base}_template_%"],
            )
            for (old,) in cursor.fetchall():
                with contextlib.suppress(Exception):  # another run may be copying it
                    cursor.execute(f'DROP DATABASE "{old}"')
            cursor.execute(f'CREATE DATABASE "{template}" TEMPLATE "{built}"')
        return config
    test = connection.settings_dict["TEST"]
    before = test.get("TEMPLATE")
    test["TEMPLATE"] = template
    try:
        return build()
    finally:
        test["TEMPLATE"] = before


def end_sessions_left_open():
    """End the sessions something left on a PostgreSQL test database, naming them in a
    warning, so that the database can be dropped. A CI run on PostgreSQL ended in an error
    after all its tests ("database test_scorebook_gw1 is being accessed by other users",
    6 sessions) because of them; the warning says whose they were. Each is waited for (up
    to 5 s: PostgreSQL 14 and later), as DROP DATABASE does not wait."""
    from django.db import connections

    for alias in connections:
        connection = connections[alias]
        if connection.vendor != "postgresql":
            continue
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pid, application_name, state, left(query, 160),"
                " pg_terminate_backend(pid, 5000) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            left_open = cursor.fetchall()
        if left_open:
            warnings.warn(
                f"{len(left_open)} session(s) were still open on the test database"
                f" {connection.settings_dict['NAME']} after the last test; ended: "
                + "; ".join(
                    f"pid {pid} {app!r} {state}: {query}" for pid, app, state, query, _ in left_open
                ),
                stacklevel=1,
            )
