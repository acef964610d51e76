"""The demo club loads once, and the admin shows every model but never edits a deal."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from scorebook.matches.models import Deal, Match, Night


@pytest.fixture(autouse=True)
def debug(settings):
    settings.DEBUG = True  # load_demo refuses otherwise


@pytest.mark.django_db
def test_load_demo_refuses_without_debug(settings):
    """The demo user is a superuser with a known password: never on a production site."""
    settings.DEBUG = False
    with pytest.raises(CommandError, match="only with DEBUG on"):
        call_command("load_demo")
    assert not get_user_model().objects.exists()
    assert not Night.objects.exists()


@pytest.mark.django_db
def test_load_demo_is_idempotent_and_has_history():
    call_command("load_demo")
    call_command("load_demo")
    assert Night.objects.count() == 2
    assert Night.objects.filter(status="closed").count() == 1
    assert Match.objects.filter(game="terziglio").exists()
    assert Deal.objects.filter(version=2, reason__isnull=False).exists()
    live = Match.objects.filter(night__status="open").get()
    assert live.status == "open" and live.state["deals_played"] == 1


@pytest.mark.django_db
def test_admin_pages_and_deals_read_only(client):
    call_command("load_demo")
    # Through the login form, as a person would (django-axes needs the request).
    login = client.post(
        "/admin/login/", {"username": "demo", "password": "demo", "next": "/admin/"}
    )
    assert login.status_code == 302
    for name in (
        "clubs/club",
        "clubs/player",
        "clubs/membership",
        "matches/night",
        "matches/match",
        "matches/deal",
        "matches/auditevent",
        "matches/table",
    ):
        assert client.get(f"/admin/{name}/").status_code == 200, name
    deal = Deal.objects.first()
    page = client.get(f"/admin/matches/deal/{deal.pk}/change/")
    assert page.status_code == 200
    assert b'name="_save"' not in page.content
    match = Match.objects.first()
    assert client.get(f"/admin/matches/match/{match.pk}/change/").status_code == 200
