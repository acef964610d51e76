"""What the API tests share: sample deals, the personas, a client logged in as one."""

from rest_framework.test import APIClient

from tests import builders as build

# The API tests' names for the builders' deals (tests/builders.py).
from tests.builders import A_WINS as SIDES  # noqa: F401
from tests.builders import B_WINS_SMALL as SMALL  # noqa: F401

PERSONAS = ("anonymous", "stranger", "member", "scorer", "director", "owner")


def api(people, who):
    client = APIClient()
    if who != "anonymous":
        client.force_authenticate(people[who])
    return client


def a_match(people):
    """A night at the Bar, table 1, a Tressette match there (the ``match`` fixture)."""
    night = build.night(people, venue="Bar")
    table = build.table(people, night, 1, "Tavolo 1")
    return build.match(people, night, first_dealer="N", table=table)


def a_deal(people, match):
    # entered on the scorer's phone (seated nowhere) for side A (N, S): E and W confirm it
    (made,) = build.deals(people, match, SIDES, entered_side="A")
    return made
