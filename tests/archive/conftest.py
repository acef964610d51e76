"""The demo club (``load_demo``: two closed nights, tonight's, corrected deals, a league,
a season's standings and ratings, published results), with Carmelo linked to an account
of his own, the person the erasure tests forget."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from scorebook.clubs.models import Club, Membership, Player


@pytest.fixture
def demo(settings, db, django_capture_on_commit_callbacks):
    settings.DEBUG = True  # load_demo refuses otherwise
    with django_capture_on_commit_callbacks(execute=True):
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
