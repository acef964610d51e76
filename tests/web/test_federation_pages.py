"""The federation's pages (issue 34 items 1, 2, 6, 7), each step through the page a person
uses: a person founds a federation and is its president, invites San Rocco by its address,
San Rocco's owner accepts on the club's page; a director proposes a link and the person
accepts on /me/links (and gets a number the secretary then sets), a person asks and a
director accepts naming the player; either removes; the club leaves and its period stays;
the public page appears when the federation publishes. The president, who belongs to no
club, reads none of San Rocco's pages."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from scorebook.federations.models import (
    Affiliation,
    Federation,
    FederationNumber,
    Officer,
    PersonLink,
)

pytestmark = pytest.mark.django_db


def as_(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_federation_through_its_pages(people):
    users = get_user_model().objects
    pres, mario, lucia = (users.create_user(n) for n in ("pres", "mario", "lucia"))
    president = as_(pres)
    found = president.post(
        "/f/", {"name": "Comitato di Palermo", "slug": "comitato-pa", "level": "provincial"}
    )
    assert found.status_code == 302 and found["Location"] == "/f/comitato-pa/"
    federation = Federation.objects.get(slug="comitato-pa")
    assert Officer.objects.get(federation=federation).role == "president"
    assert "Comitato di Palermo" in president.get("/f/").content.decode()

    # the president invites San Rocco by its address; only its owner answers
    invited = president.post(
        "/f/comitato-pa/clubs", {"invite": "1", "club": "san-rocco", "days": 30}
    )
    assert invited.status_code == 302
    page = as_(people.director).get("/c/san-rocco/federations").content.decode()
    assert "Comitato di Palermo" in page and 'value="accept"' not in page
    invitation = federation.club_invitations.get()
    refused = as_(people.director).post(
        "/c/san-rocco/federations", {"invitation": invitation.pk, "answer": "accept"}
    )
    assert refused.status_code == 403
    owner = as_(people.owner)
    assert 'value="accept"' in owner.get("/c/san-rocco/federations").content.decode()
    owner.post("/c/san-rocco/federations", {"invitation": invitation.pk, "answer": "accept"})
    assert Affiliation.objects.get(federation=federation, club=people.club).current
    assert "Circolo San Rocco" in president.get("/f/comitato-pa/").content.decode()

    # a director proposes Ettore is mario; mario accepts on his account page
    nino, ettore, salvo, walter = people.seated
    director = as_(people.director)
    director.post("/c/san-rocco/links", {"propose": "1", "player": ettore.pk, "username": "mario"})
    link = PersonLink.objects.get(user=mario)
    assert link.status == "proposed"
    his = as_(mario)
    assert "Circolo San Rocco" in his.get("/me/links").content.decode()
    his.post("/me/links", {"link": link.pk, "accept": "1"})
    link.refresh_from_db()
    assert link.status == "accepted"
    number = FederationNumber.objects.get(federation=federation, user=mario)
    assert f">{number.number}<" in his.get("/me/links").content.decode()
    persons = president.get("/f/comitato-pa/persons").content.decode()
    assert "mario" in persons and "Ettore" in persons
    president.post("/f/comitato-pa/persons", {"row": number.pk, "number": "4417"})
    assert FederationNumber.objects.get(pk=number.pk).number == 4417
    taken = president.post("/f/comitato-pa/persons", {"row": number.pk, "number": "0"})
    assert taken.status_code == 400

    # lucia asks the club; a director accepts, naming Walter
    as_(lucia).post("/me/links", {"ask": "1", "club": "san-rocco"})
    asked = PersonLink.objects.get(user=lucia)
    assert "lucia" in director.get("/c/san-rocco/links").content.decode()
    director.post(
        "/c/san-rocco/links", {"link": asked.pk, "accept": "1", f"l{asked.pk}-player": walter.pk}
    )
    asked.refresh_from_db()
    assert (asked.status, asked.player) == ("accepted", walter)

    # either side removes: mario from his page, the director Walter's
    his.post("/me/links", {"link": link.pk, "remove": "1"})
    director.post("/c/san-rocco/links", {"link": asked.pk, "remove": "1"})
    assert set(PersonLink.objects.values_list("status", flat=True)) == {"removed"}

    # the president belongs to no club: nothing of San Rocco's own pages
    for url in (
        "/c/san-rocco/",
        "/c/san-rocco/players",
        "/c/san-rocco/links",
        "/c/san-rocco/members",
    ):
        assert president.get(url).status_code == 404, url
    # a stranger sees nothing of a federation that does not publish
    assert as_(people.stranger).get("/f/comitato-pa/").status_code == 404
    assert Client().get("/public/f/comitato-pa/").status_code == 404
    president.post(
        "/f/comitato-pa/settings",
        {
            "name": "Comitato di Palermo",
            "slug": "comitato-pa",
            "level": "regional",
            "publishes": "on",
        },
    )
    public = Client().get("/public/f/comitato-pa/")
    assert public.status_code == 200 and "Circolo San Rocco" in public.content.decode()

    # the club leaves; its period stays, with the day it left
    period = Affiliation.objects.get(federation=federation, club=people.club)
    owner.post("/c/san-rocco/federations", {"leave": period.pk})
    period.refresh_from_db()
    assert not period.current
    assert "Circolo San Rocco" in president.get("/f/comitato-pa/clubs").content.decode()
    assert "Circolo San Rocco" not in Client().get("/public/f/comitato-pa/").content.decode()


def test_refusals_in_words_in_italian(people):
    """A second federation at a taken address, and a link to an unknown account: the
    page says so next to the field, in Italian."""
    users = get_user_model().objects
    someone = as_(users.create_user("pres"))
    someone.post("/f/", {"name": "Comitato", "slug": "comitato", "level": "provincial"})
    again = someone.post(
        "/f/",
        {"name": "Altro", "slug": "comitato", "level": "provincial"},
        HTTP_ACCEPT_LANGUAGE="it",
    )
    assert again.status_code == 409
    assert "Un'altra federazione usa già l'indirizzo" in html.unescape(again.content.decode())
    page = as_(people.director).post(
        "/c/san-rocco/links",
        {"propose": "1", "player": people.seated[1].pk, "username": "nessuno"},
        HTTP_ACCEPT_LANGUAGE="it",
    )
    assert page.status_code == 400 and "nessuno" in page.content.decode()
    assert "Giocatori e persone" in page.content.decode()


def test_an_officer_sees_no_club_and_a_member_no_persons(people):
    from tests import builders

    federation = builders.federation(people.club, slug="comitato")
    officer = Officer.objects.get(federation=federation, role="officer").user
    assert as_(officer).get("/f/comitato/persons").status_code == 200
    assert as_(officer).get("/f/comitato/settings").status_code == 403
    assert as_(officer).get("/c/san-rocco/federations").status_code == 404
    member = as_(people.member)
    assert member.get("/f/comitato/").status_code == 200
    assert member.get("/f/comitato/persons").status_code == 403
    assert member.get("/c/san-rocco/links").status_code == 403
    assert as_(people.stranger).get("/f/comitato/clubs").status_code == 404
