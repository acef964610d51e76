"""Shared test set-up: SQLite unless DATABASE_URL says otherwise (as DRF's own suite does).

Tests marked ``postgres`` need PostgreSQL and are skipped on SQLite.
"""

import pytest
from django.conf import settings


def pytest_collection_modifyitems(config, items):
    engine = settings.DATABASES["default"]["ENGINE"]
    if "postgresql" in engine:
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL (set DATABASE_URL)")
    for item in items:
        if "postgres" in item.keywords:
            item.add_marker(skip)
