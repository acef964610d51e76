"""Shared test set-up: SQLite unless DATABASE_URL says otherwise (as DRF's own suite does).

Tests marked ``postgres`` need PostgreSQL and are skipped on SQLite.
"""

import pytest
from django.conf import settings


def pytest_configure(config):
    # Real hashing is deliberately slow; tests create many users.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def pytest_collection_modifyitems(config, items):
    engine = settings.DATABASES["default"]["ENGINE"]
    if "postgresql" in engine:
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL (set DATABASE_URL)")
    for item in items:
        if "postgres" in item.keywords:
            item.add_marker(skip)


# -- personas (healthchecks-style named test users) ------------------------------------------

ROLES = ("owner", "director", "scorer", "member")


@pytest.fixture
def club(db):
    from django.contrib.auth import get_user_model

    from scorebook.clubs.models import Club, Membership, Player

    User = get_user_model()
    home = Club.objects.create(name="Circolo San Rocco", slug="san-rocco")
    people = {}
    for role in ROLES:
        user = User.objects.create_user(role, password="pw-" + role)
        Membership.objects.create(club=home, user=user, role=role)
        people[role] = user
    players = [
        Player.objects.create(club=home, name=name, user=people.get(link))
        for name, link in (
            ("Nino", "member"),
            ("Ettore", None),
            ("Salvo", None),
            ("Walter", None),
        )
    ]
    other = Club.objects.create(name="Circolo Altrove", slug="altrove")
    stranger = User.objects.create_user("stranger", password="pw-stranger")
    Membership.objects.create(club=other, user=stranger, role="owner")
    people["stranger"] = stranger
    home.people = people
    home.seated = players
    home.other = other
    return home
