"""Shared test set-up: SQLite unless DATABASE_URL says otherwise (as DRF's own suite does).

Tests marked ``postgres`` need PostgreSQL and are skipped on SQLite.
"""

import pytest
from django.conf import settings
from hypothesis import settings as hypothesis

# No per-example deadline, as Hypothesis's own "ci" profile (loaded under CI=true) has: on
# two shared cores under `pytest -n` an example of 0.05 ms took 260 ms once and failed
# tests/standings/test_roundrobin.py. What the deadline measured was the machine's load;
# each property test's budget (its number of examples) is unchanged.
hypothesis.register_profile("suite", hypothesis(hypothesis.default, deadline=None))
hypothesis.load_profile("suite")


def pytest_configure(config):
    # Real hashing is deliberately slow; tests create many users.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts in the site's language. A request through Django's test client
    leaves its language (Italian, say) active in the thread after the answer, so a test
    that read text after another test's Italian request met Italian words."""
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """SQLite: each worker's test database in a file of its own (tests/sqlite_file.py), not
    Django's shared in-memory database, so the live server's threads and the test's own
    thread each have a connection and wait for SQLite's lock rather than share one."""
    from tests import sqlite_file

    sqlite_file.configure(settings.DATABASES)


@pytest.fixture(scope="session")
def django_db_setup(
    request,
    django_test_environment,
    django_db_blocker,
    django_db_use_migrations,
    django_db_keepdb,
    django_db_createdb,
    django_db_modify_db_settings,
):
    """pytest-django's own fixture, the test database copied from a template migrated once
    (tests/template_db.py) rather than migrated again in every worker and every run.
    ``--nomigrations``, ``--reuse-db``, a serialized rollback and TEST_DB_TEMPLATE=0 take
    pytest-django's way."""
    from django.test.utils import setup_databases, teardown_databases
    from pytest_django.fixtures import _disable_migrations, _get_databases_for_setup

    from tests import template_db

    aliases, serialized_aliases = _get_databases_for_setup(request.session.items)
    verbosity = request.config.option.verbose
    keep = django_db_keepdb and not django_db_createdb
    with django_db_blocker.unblock():
        if (
            django_db_use_migrations
            and not keep
            and not serialized_aliases
            and template_db.enabled()
        ):
            config = template_db.setup(
                verbosity=verbosity,
                rebuild=django_db_createdb,
                aliases=aliases,
                serialized_aliases=serialized_aliases,
            )
        else:
            if not django_db_use_migrations:
                _disable_migrations()
            config = setup_databases(
                verbosity=verbosity,
                interactive=False,
                aliases=aliases,
                serialized_aliases=serialized_aliases,
                keepdb=keep,
            )
    yield
    if not keep:
        with django_db_blocker.unblock():
            template_db.end_sessions_left_open()
            teardown_databases(config, verbosity=verbosity)


@pytest.fixture
def eager_tasks(settings):
    """Celery tasks run in-process, also in the PostgreSQL + Redis pass (where a broker is
    set and nothing in the test would consume it)."""
    settings.CELERY_TASK_ALWAYS_EAGER = True


def pytest_collection_modifyitems(config, items):
    _group_the_migration_tests(items)
    engine = settings.DATABASES["default"]["ENGINE"]
    if "postgresql" in engine:
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL (set DATABASE_URL)")
    for item in items:
        if "postgres" in item.keywords:
            item.add_marker(skip)


def _group_the_migration_tests(items):
    """The tests that migrate the test database back and forth (marked ``migration``) run
    as one group on one worker under ``pytest -n`` (``--dist loadgroup``, as `make test`
    runs): each worker has a database of its own, so this is for their cost, one worker's
    time rather than a migration round trip in the middle of every worker's queue. A test
    module that drives Django's MigrationExecutor must mark its migrating tests."""
    unmarked = set()
    for item in items:
        if item.get_closest_marker("migration"):
            item.add_marker(pytest.mark.xdist_group("migrations"))
        elif "MigrationExecutor" in vars(getattr(item, "module", None) or object):
            unmarked.add(item.module.__name__)
    for name in unmarked - {i.module.__name__ for i in items if i.get_closest_marker("migration")}:
        raise pytest.UsageError(f"{name} uses MigrationExecutor: mark its tests 'migration'")


# -- personas (tests/personas.py: healthchecks-style named test users) ------------------------


@pytest.fixture
def people(db):
    """The named people of the San Rocco club (and the stranger): see tests/personas.py."""
    from tests.personas import make_personas

    return make_personas()


@pytest.fixture
def club(people):
    """The San Rocco club itself."""
    return people.club


# -- builders (tests/builders.py: what the tests make, with the usual defaults) -------------


@pytest.fixture
def night(people):
    """Friday 20 November 2026 at San Rocco, opened by the director (``build.night``)."""
    from tests import builders

    return builders.night(people)
