"""Erasure x the federation's outputs (issue 34 item 2), in the manner of the erasure
crawl (tests/archive/crawl.py): the demo federation, where Nino is one account
(``nino.russo``) linked to a player at San Rocco and one at Belmonte, with a federation
number. Every federation page and API answer is read, as each of its officers, the member
clubs' owners and the public, before and after Nino erases his account from /me/erase:
before, his username and his Belmonte name are in them; after, in none, and no link,
number or office of his is left."""

from __future__ import annotations

import html
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from scorebook.federations.models import (
    Affiliation,
    ClubInvitation,
    Federation,
    FederationNumber,
    Officer,
    PersonLink,
)

pytestmark = pytest.mark.django_db
NAMES = ("nino.russo", "Nino R.")


def _readers() -> list[str]:
    """The federation's officers and every member club's owner (the demo's accounts)."""
    return ["demo", "segreteria", "belmonte", "kalsa"]


def outputs() -> dict[str, str]:
    """Every federation page and API GET each reader reaches, and the public ones."""
    users = get_user_model().objects
    federation = Federation.objects.get(slug="comitato-palermo")
    fed = federation.slug
    read: dict[str, str] = {}
    anonymous = Client()
    for url in (f"/public/f/{fed}/", f"/api/v1/public/federations/{fed}"):
        read[f"anonymous {url}"] = anonymous.get(url).content.decode()
    for who in _readers():
        user = users.get(username=who)
        page, api = Client(), APIClient()
        page.force_login(user)
        api.force_authenticate(user)
        urls = [f"/f/{fed}/{tail}" for tail in ("", "clubs", "officers", "persons", "settings")]
        urls += ["/f/", "/me/links"]
        for club in ("san-rocco", "belmonte", "kalsa"):
            urls += [f"/c/{club}/links", f"/c/{club}/federations"]
        for url in urls:
            read[f"{who} {url}"] = html.unescape(page.get(url).content.decode())
        base = f"/api/v1/federations/{federation.pk}"
        calls = [base, *(f"{base}/{t}" for t in ("officers", "clubs", "invitations", "persons"))]
        calls += ["/api/v1/federations", "/api/v1/person-links", "/api/v1/affiliations"]
        calls += ["/api/v1/federation-invitations", "/api/v1/federation-numbers"]
        calls += [
            f"/api/v1/person-links/{pk}" for pk in PersonLink.objects.values_list("pk", flat=True)
        ]
        calls += [
            f"/api/v1/affiliations/{pk}" for pk in Affiliation.objects.values_list("pk", flat=True)
        ]
        calls += [
            f"/api/v1/federation-invitations/{pk}"
            for pk in ClubInvitation.objects.values_list("pk", flat=True)
        ]
        for url in calls:
            answer = api.get(url)
            assert answer.status_code < 500, url
            read[f"{who} {url}"] = json.dumps(answer.json(), ensure_ascii=False)
    return read


def holding(read: dict[str, str]) -> list[str]:
    return sorted(key for key, text in read.items() if any(name in text for name in NAMES))


def test_an_erased_person_is_in_no_federation_output(settings):
    settings.DEBUG = True  # load_demo refuses otherwise
    call_command("load_demo")
    nino = get_user_model().objects.get(username="nino.russo")
    before = holding(outputs())
    # the instruments see him before: the officers' persons page and API, the clubs' links
    for piece in (
        "demo /f/comitato-palermo/persons",
        "segreteria /api/v1/federations/",
        "belmonte /c/belmonte/links",
        "demo /c/san-rocco/links",
    ):
        assert any(piece in key for key in before), (piece, before)
    his = Client()
    his.force_login(nino)
    erased = his.post("/me/erase", {"username": "nino.russo", "understood": "on"})
    assert erased.status_code == 302
    assert holding(outputs()) == []
    for model in (PersonLink, FederationNumber, Officer):
        assert not model.objects.filter(user_id=nino.pk).exists(), model
    # the federation's other records stay: its clubs, Ettore's links and number
    assert Affiliation.objects.filter(left_at__isnull=True).count() == 3
    assert FederationNumber.objects.filter(user__username="ettore.bruno").exists()
