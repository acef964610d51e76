"""The web tests' night (tests/web/conftest.py): a match being played at table 1, a
finished one at table 2 (stake 0.50 EUR each), a closed night, an invitation."""

import pytest
from django.utils import translation

from tests.web.conftest import world  # noqa: F401  (the fixture, shared)


@pytest.fixture(autouse=True)
def _language_reset():
    yield
    translation.deactivate()
