"""Shared test set-up: SQLite unless DATABASE_URL says otherwise (as DRF's own suite does).

Tests marked ``postgres`` need PostgreSQL and are skipped on SQLite.
"""

import pytest
from django.conf import settings


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


@pytest.fixture
def eager_tasks(settings):
    """Celery tasks run in-process, also in the PostgreSQL + Redis pass (where a broker is
    set and nothing in the test would consume it)."""
    settings.CELERY_TASK_ALWAYS_EAGER = True


def pytest_collection_modifyitems(config, items):
    engine = settings.DATABASES["default"]["ENGINE"]
    if "postgresql" in engine:
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL (set DATABASE_URL)")
    for item in items:
        if "postgres" in item.keywords:
            item.add_marker(skip)


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
