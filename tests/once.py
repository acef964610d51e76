"""Rows a whole test module reads, made once for it (Django's ``TestCase.setUpTestData``).

``made_once`` makes them inside a transaction of the module's own, rolled back after its
last test; each test runs inside it in a savepoint (pytest-django's ``db``: Django's
TestCase), rolled back after the test, so every test starts from the rows as made, whatever
the test before it wrote. For modules whose tests each rebuilt the same club, matches and
leagues (tests/api/test_permission_matrix.py: 600 tests, 0.13 s of CPU each to build).
Not for transactional tests (``transaction=True``, live servers): their flush would empty
the rows of the others. A fixture of this kind gives each test a copy of what it returns
(``copy.deepcopy``), so a test that changes an object in memory changes its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from django.conf import settings
from django.db import transaction
from django.utils import translation

T = TypeVar("T")


def made_once(django_db_blocker: Any, make: Callable[[], T]) -> Iterator[T]:
    """A module-scoped fixture's body: ``yield from made_once(django_db_blocker, make)``."""
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic._from_testcase = True  # as TestCase's own: a durable block inside is allowed
        atomic.__enter__()
        try:
            with translation.override(settings.LANGUAGE_CODE):
                made = make()
        except BaseException:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)
            raise
    try:
        yield made
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)
