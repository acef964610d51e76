"""What the API tests share: sample deals, the personas, a client logged in as one."""

from rest_framework.test import APIClient

SIDES = {
    "sides": {"A": {"thirds": 20, "tricks": 5}, "B": {"thirds": 12, "tricks": 5}},
    "last_trick": "A",
}
SMALL = {
    "sides": {"A": {"thirds": 14, "tricks": 4}, "B": {"thirds": 18, "tricks": 6}},
    "last_trick": "B",
}
PERSONAS = ("anonymous", "stranger", "member", "scorer", "director", "owner")


def api(people, who):
    client = APIClient()
    if who != "anonymous":
        client.force_authenticate(people[who])
    return client
