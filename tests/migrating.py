"""A migration test's old database: the test database migrated back, or a new one built
forwards when that is cheaper.

A test of a data migration needs the tables as they were before it, with rows in them.
Migrating the test database back to a point 20 migrations ago and forwards again costs
12-13 s of CPU on this machine (rendering the model states of each migration undone, then
redone); building a new, empty database forwards to the same state costs 7.5 s, whatever
the point. ``migrated_to(BEFORE)`` takes the cheaper way: for a few migrations back the
test database itself (as before), else a new, empty database of the same engine standing in
for the default one, migrated forwards to exactly the state ``migrate BEFORE`` gives a
fully migrated database (every migration applied except the later ones of BEFORE's apps
and what depends on them). Either way the test inserts its old rows and migrates to the
latest state. The way back (a migration's reverse) stays tested where it matters by
migrating the test database itself (tests/matches/test_confirmation_migration.py).
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor

Target = tuple[str, str]


def undone_by(executor: MigrationExecutor, targets: list[Target]) -> set[Target]:
    """What ``migrate targets`` unapplies on a fully migrated database: for each target,
    its app's next migration and everything that depends on it (Django's own rule in
    MigrationExecutor.migration_plan)."""
    graph = executor.loader.graph
    undone: set[Target] = set()
    for app, name in targets:
        for child in graph.node_map[(app, name)].children:
            if child[0] == app:
                undone.update(graph.backwards_plan(child))
    return undone


@contextlib.contextmanager
def empty_database() -> Iterator[None]:
    """A new, empty database (in memory on SQLite, created and dropped on PostgreSQL) as
    the default connection while the block runs."""
    test = connections[DEFAULT_DB_ALIAS]
    settings = {**test.settings_dict}
    postgres = test.vendor == "postgresql"
    if postgres:
        settings["NAME"] = f"{test.settings_dict['NAME']}_migrating"
        with test._nodb_cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{settings["NAME"]}"')
            cursor.execute(f'CREATE DATABASE "{settings["NAME"]}"')
    else:
        settings["NAME"] = f"file:migrating_{uuid.uuid4().hex}?mode=memory&cache=shared"
    fresh = test.__class__(settings, alias=DEFAULT_DB_ALIAS)
    connections[DEFAULT_DB_ALIAS] = fresh
    try:
        yield
    finally:
        connections[DEFAULT_DB_ALIAS] = test
        if fresh.connection is not None:
            fresh.connection.close()  # an in-memory SQLite database goes with it
            fresh.connection = None
        if postgres:
            with test._nodb_cursor() as cursor:
                cursor.execute(f'DROP DATABASE IF EXISTS "{settings["NAME"]}"')


#: Up to this many migrations to undo, the test database itself is migrated back: about
#: 0.6 s of CPU per migration undone and redone, against 7.5 s for building an empty one.
BACK_AT_MOST = 10


@contextlib.contextmanager
def migrated_to(targets: list[Target]) -> Iterator[MigrationExecutor]:
    """A database in the state a fully migrated one has after ``migrate targets``: the
    test database migrated back when that undoes at most BACK_AT_MOST migrations, else an
    empty database standing in for the default one (``empty_database``) migrated forwards
    to it. Yields the executor; the test migrates to the latest state (its leaf nodes)."""
    executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
    if len(undone_by(executor, targets)) <= BACK_AT_MOST:
        executor.migrate(targets)
        yield executor
        return
    with empty_database():
        executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
        undone = undone_by(executor, targets)
        everything = executor.migration_plan(executor.loader.graph.leaf_nodes(), clean_start=True)
        plan = [(m, False) for m, _ in everything if (m.app_label, m.name) not in undone]
        executor.migrate([], plan=plan)
        executor.loader.build_graph()
        applied = set(executor.loader.applied_migrations)
        assert applied == {(m.app_label, m.name) for m, _ in plan}, "not where migrate goes"
        yield executor
