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
    # San Rocco's (Belmonte has tonight's championship night, Kalsa the federal
    # tournament's, closed)
    assert Night.objects.filter(club__slug="san-rocco").count() == 4
    assert Night.objects.filter(club__slug="san-rocco", status="closed").count() == 3
    assert Match.objects.filter(game="terziglio").exists()
    assert Deal.objects.filter(version=2, reason__isnull=False).exists()
    live = Match.objects.filter(night__club__slug="san-rocco", night__status="open")
    assert live.count() == 2
    assert all(m.status == "open" and m.state["deals_played"] == 1 for m in live)


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
        "core/auditevent",
        "matches/table",
    ):
        assert client.get(f"/admin/{name}/").status_code == 200, name
    deal = Deal.objects.first()
    page = client.get(f"/admin/matches/deal/{deal.pk}/change/")
    assert page.status_code == 200
    assert b'name="_save"' not in page.content
    match = Match.objects.first()
    assert client.get(f"/admin/matches/match/{match.pk}/change/").status_code == 200


@pytest.mark.django_db
def test_the_admin_cannot_write_around_the_services(client):
    """Night status, a match's game/stake/status and memberships (the last owner) are
    shown, never saved, by the admin: a forged POST is refused and changes nothing."""
    from scorebook.clubs.models import Membership
    from scorebook.matches.models import Night

    call_command("load_demo")
    client.post("/admin/login/", {"username": "demo", "password": "demo", "next": "/admin/"})
    night = Night.objects.filter(club__slug="san-rocco").first()
    match = Match.objects.first()
    owner = Membership.objects.filter(role="owner").first()
    for url, data in (
        (f"/admin/matches/night/{night.pk}/change/", {"status": "closed"}),
        (f"/admin/matches/match/{match.pk}/change/", {"stake_amount": "99", "status": "open"}),
        (f"/admin/clubs/membership/{owner.pk}/change/", {"role": "member"}),
        (f"/admin/clubs/membership/{owner.pk}/delete/", {"post": "yes"}),
    ):
        assert client.post(url, data).status_code == 403, url
    page = client.get(f"/admin/matches/night/{night.pk}/change/")
    assert page.status_code == 200 and b'name="_save"' not in page.content
    assert Night.objects.get(pk=night.pk).status == night.status
    assert Match.objects.get(pk=match.pk).stake_amount == match.stake_amount
    assert Membership.objects.get(pk=owner.pk).role == "owner"
