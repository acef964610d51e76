"""A night with a Tressette match at table 1, and its first deal (tests/builders.py)."""

import pytest

from tests import builders as build
from tests.api.common import SIDES


@pytest.fixture
def match(people):
    night = build.night(people, venue="Bar")
    table = build.table(people, night, 1, "Tavolo 1")
    return build.match(people, night, first_dealer="N", table=table)


@pytest.fixture
def deal(match, people):
    # entered on the scorer's phone (seated nowhere) for side A (N, S): E and W confirm it
    (made,) = build.deals(people, match, SIDES, entered_side="A")
    return made
