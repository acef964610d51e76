"""A night with a Tressette match at table 1, and its first deal (tests/builders.py)."""

import pytest

from tests.api.common import a_deal, a_match


@pytest.fixture
def match(people):
    return a_match(people)


@pytest.fixture
def deal(match, people):
    return a_deal(people, match)
