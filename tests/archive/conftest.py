"""The demo club (``load_demo``: two closed nights, tonight's, corrected deals, a league,
a season's standings and ratings, published results), with Carmelo linked to an account
of his own, the person the erasure tests forget."""

import copy

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client, TestCase, override_settings

from scorebook.clubs.models import Club, Membership, Player
from tests.once import made_once


@pytest.fixture
def demo(settings, db):
    settings.DEBUG = True  # load_demo refuses otherwise
    return make_demo()


@pytest.fixture(scope="module")
def demo_once(django_db_setup, django_db_blocker):
    """The demo club made once for a module (tests/once.py; 0.5 s of CPU each time): a
    module whose tests are not transactional says ``demo = demo_made_once``."""
    with override_settings(DEBUG=True):
        yield from made_once(django_db_blocker, make_demo)


@pytest.fixture
def demo_made_once(demo_once, settings, db):
    """``demo``, from the module's one demo club: each test in a savepoint of it."""
    settings.DEBUG = True
    return copy.deepcopy(demo_once)


def make_demo():
    """``load_demo`` (its on-commit work run), Carmelo with an account, a director."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        call_command("load_demo")
    club = Club.objects.get(slug="san-rocco")
    users = get_user_model().objects
    carmelo = users.create_user(
        "carmelo.bellini",
        password="pw-carmelo",
        email="carmelo@example.org",
        first_name="Carmelo",
        last_name="Bellini",
    )
    Membership.objects.create(club=club, user=carmelo, role="member")
    Player.objects.filter(club=club, name="Carmelo").update(user=carmelo)
    director = users.create_user("director", password="pw-director")
    Membership.objects.create(club=club, user=director, role="director")
    return club


def client_of(username: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(get_user_model().objects.get(username=username))
    return client
