"""The demo's federation (issue 34): the Comitato Provinciale di Palermo, which publishes,
with three member clubs (San Rocco, Belmonte, Kalsa), a secretary, and persons linked
across clubs: Nino plays at San Rocco and at Belmonte, Ettore at San Rocco and at Kalsa,
each one account with a federation number; Rosa's request to Kalsa waits for a director.
Everything through the services, as the people would (the audit log tells the same story).
Another step of the demo may add the federation's championship and tournaments to it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from scorebook.clubs import services as clubs
from scorebook.clubs.models import Club
from scorebook.federations.models import Federation
from scorebook.federations.services import federation as federations
from scorebook.federations.services import links, membership

#: The demo federation's address: /f/comitato-palermo/ and /public/f/comitato-palermo/.
SLUG = "comitato-palermo"
#: The other member clubs: address, name, owner's account, players.
CLUBS = (
    ("belmonte", "Circolo Belmonte", "belmonte", ("Nino R.", "Gianni", "Lia", "Turi")),
    ("kalsa", "Circolo Kalsa", "kalsa", ("Ettore B.", "Santo", "Marta", "Ciccio")),
)
#: One person across clubs: their account, and their player's name at each club.
PERSONS = (
    ("nino.russo", {"san-rocco": "Nino", "belmonte": "Nino R."}),
    ("ettore.bruno", {"san-rocco": "Ettore", "kalsa": "Ettore B."}),
)


def load(president: Any, home: Club) -> Federation:
    """The federation founded by ``president`` (the demo user, owner of ``home``), its
    clubs joined, its persons linked. Every account's password is ``demo``."""
    users = get_user_model().objects
    comitato = federations.federation_create(
        name="Comitato Provinciale di Palermo",
        slug=SLUG,
        level="provincial",
        publishes=True,
        user=president,
    )
    users.create_user("segreteria", password="demo")
    federations.officer_add(
        federation=comitato, username="segreteria", role="secretary", user=president
    )
    owners = {home.slug: president}
    for slug, name, owner_name, players in CLUBS:
        owner = users.create_user(owner_name, password="demo")
        club = clubs.club_create(name=name, slug=slug, public=True, user=owner)
        for player_name in players:
            clubs.player_create(club=club, name=player_name, user=owner)
        owners[slug] = owner
    for slug, owner in owners.items():
        invitation = membership.club_invite(federation=comitato, slug=slug, user=president)
        membership.club_invitation_accept(invitation=invitation, user=owner)
    for username, at_clubs in PERSONS:
        person = users.create_user(username, password="demo")
        for slug, name in at_clubs.items():
            linked = Club.objects.get(slug=slug).players.get(name=name)
            link = links.person_link_propose(player=linked, username=username, user=owners[slug])
            links.person_link_accept(link=link, user=person)
    links.person_link_ask(slug="kalsa", user=users.create_user("rosa.greco", password="demo"))
    return comitato
