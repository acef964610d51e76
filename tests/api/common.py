"""What the API tests share: sample deals, the personas, a client logged in as one."""

from rest_framework.test import APIClient

# The API tests' names for the builders' deals (tests/builders.py).
from tests.builders import A_WINS as SIDES  # noqa: F401
from tests.builders import B_WINS_SMALL as SMALL  # noqa: F401

PERSONAS = ("anonymous", "stranger", "member", "scorer", "director", "owner")


def api(people, who):
    client = APIClient()
    if who != "anonymous":
        client.force_authenticate(people[who])
    return client
