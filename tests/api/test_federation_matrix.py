"""Every federation route x every role -> the expected status (issue 34 item 6).

The roles are those of the club matrix (tests/api/test_permission_matrix.py: anonymous, the
stranger who owns another club, a member, scorer, director and owner of San Rocco) and the
federation's officers (officer, secretary, president of the Comitato, of which San Rocco
is a member). An officer reads the federation, never a club's objects; a club's people
read the federation their club belongs to; the stranger's club is no member and sees
nothing of it (404, never 403, so ids leak nothing). The last test fails when a federation
route of the schema has no row here.
"""

import re

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from scorebook.clubs.models import Club, Membership
from scorebook.federations.models import FederationNumber, Officer, PersonLink
from scorebook.federations.services import links, membership
from tests import builders
from tests.api.common import PERSONAS

ANON, STRANGER, MEMBER, SCORER, DIRECTOR, OWNER = PERSONAS
OFFICERS = ("officer", "secretary", "president")
WHO = (*PERSONAS, *OFFICERS)
CLUB = (MEMBER, SCORER, DIRECTOR, OWNER)


def each(default, **special):
    """``default`` for every signed-in role, 401 for anonymous, ``special`` by role."""
    return {ANON: 401, **dict.fromkeys(WHO[1:], default), **special}


#: Who sees the Comitato: its officers and the people of its member club.
SEEN = each(200, stranger=404)


@pytest.fixture
def world(people):
    users = get_user_model().objects
    comitato = builders.federation(people.club, slug="comitato")
    lega = builders.federation(name="Lega G", slug="lega-g", publishes=True)
    other = builders.federation(name="Lega H", slug="lega-h")
    invite = membership.club_invite
    to_join = invite(federation=lega, slug="san-rocco", user=_president(lega))
    to_decline = invite(federation=other, slug="san-rocco", user=_president(other))
    to_withdraw = invite(federation=comitato, slug="altrove", user=_president(comitato))
    borgo = Club.objects.create(name="Borgo", slug="borgo")
    Membership.objects.create(club=borgo, user=users.create_user("borgo-owner"), role="owner")
    nino, ettore, salvo, walter = people.seated
    mario = users.create_user("mario")
    accepted = builders.linked(ettore, mario)
    proposed = links.person_link_propose(player=salvo, username="stranger", user=people.director)
    asked = links.person_link_ask(slug="san-rocco", user=users.create_user("lucia"))
    to_refuse = links.person_link_ask(slug="san-rocco", user=users.create_user("pina"))
    return {
        "federation": comitato.pk,
        "lega": lega.pk,
        "public_slug": lega.slug,
        "hidden_slug": comitato.slug,
        "officer_row": Officer.objects.get(federation=comitato, role="officer").pk,
        "to_join": to_join.pk,
        "to_decline": to_decline.pk,
        "to_withdraw": to_withdraw.pk,
        "affiliation": comitato.affiliations.get().pk,
        "number": FederationNumber.objects.get(federation=comitato, user=mario).pk,
        "accepted": accepted.pk,
        "proposed": proposed.pk,
        "asked": asked.pk,
        "to_refuse": to_refuse.pk,
        "walter": walter.pk,
        "salvo": salvo.pk,
    }


def _president(federation):
    return Officer.objects.get(federation=federation, role="president").user


# name: (method, url, body, expected by role)
MATRIX = {
    "list federations": ("get", "/api/v1/federations", None, each(200)),
    "found a federation": (
        "post",
        "/api/v1/federations",
        lambda w, who: {"name": f"Lega {who}", "slug": f"lega-{who}", "level": "regional"},
        each(201),
    ),
    "read a federation": ("get", "/api/v1/federations/{federation}", None, SEEN),
    "change a federation": (
        "patch",
        "/api/v1/federations/{federation}",
        {"publishes": True},
        each(403, stranger=404, president=200),
    ),
    "list officers": ("get", "/api/v1/federations/{federation}/officers", None, SEEN),
    "name an officer": (
        "post",
        "/api/v1/federations/{federation}/officers",
        {"username": "borgo-owner", "role": "officer"},
        each(403, stranger=404, president=201),
    ),
    "change an officer's role": (
        "patch",
        "/api/v1/federation-officers/{officer_row}",
        {"role": "secretary"},
        each(403, stranger=404, president=200),
    ),
    "remove an officer (or step down)": (
        "delete",
        "/api/v1/federation-officers/{officer_row}",
        None,
        each(403, stranger=404, president=204, officer=204),
    ),
    "member clubs": ("get", "/api/v1/federations/{federation}/clubs", None, SEEN),
    "open invitations": (
        "get",
        "/api/v1/federations/{federation}/invitations",
        None,
        each(403, stranger=404, officer=200, secretary=200, president=200),
    ),
    "invite a club": (
        "post",
        "/api/v1/federations/{federation}/invitations",
        {"club": "borgo", "days": 30},
        each(403, stranger=404, secretary=201, president=201),
    ),
    "the federation's persons": (
        "get",
        "/api/v1/federations/{federation}/persons",
        None,
        each(403, stranger=404, officer=200, secretary=200, president=200),
    ),
    "list club invitations": ("get", "/api/v1/federation-invitations", None, each(200)),
    "read a club invitation": (
        "get",
        "/api/v1/federation-invitations/{to_join}",
        None,
        each(404, **dict.fromkeys(CLUB, 200)),
    ),
    # Lega G's invitation to San Rocco: its owner answers; the Comitato's officers are not
    # Lega G's and see nothing of it
    "accept a club invitation": (
        "post",
        "/api/v1/federation-invitations/{to_join}/accept",
        None,
        each(404, member=403, scorer=403, director=403, owner=201),
    ),
    "decline a club invitation": (
        "post",
        "/api/v1/federation-invitations/{to_decline}/decline",
        None,
        each(404, member=403, scorer=403, director=403, owner=200),
    ),
    # the Comitato's invitation to the stranger's club: its secretary withdraws it
    "withdraw a club invitation": (
        "post",
        "/api/v1/federation-invitations/{to_withdraw}/withdraw",
        None,
        each(404, stranger=403, officer=403, secretary=200, president=200),
    ),
    "list affiliations": ("get", "/api/v1/affiliations", None, each(200)),
    "read an affiliation": ("get", "/api/v1/affiliations/{affiliation}", None, SEEN),
    "a club leaves": (
        "post",
        "/api/v1/affiliations/{affiliation}/leave",
        None,
        each(403, stranger=404, owner=200),
    ),
    "my federation numbers": ("get", "/api/v1/federation-numbers", None, each(200)),
    "set a federation number": (
        "patch",
        "/api/v1/federation-numbers/{number}",
        {"number": 777},
        each(404, officer=403, secretary=200, president=200),
    ),
    "list person links": ("get", "/api/v1/person-links", None, each(200)),
    "read a person link": (
        "get",
        "/api/v1/person-links/{accepted}",
        None,
        each(404, director=200, owner=200),
    ),
    "propose a link": (
        "post",
        "/api/v1/person-links",
        lambda w, who: {"player": w["walter"], "username": "borgo-owner"},
        each(404, member=403, scorer=403, director=201, owner=201),
    ),
    # the stranger has San Rocco's proposal waiting: one live link per account in a club
    "ask a club for a link": (
        "post",
        "/api/v1/person-links/ask",
        {"club": "san-rocco"},
        each(201, stranger=409),
    ),
    # proposed by San Rocco to the stranger's account: the stranger answers
    "accept a proposed link": (
        "post",
        "/api/v1/person-links/{proposed}/accept",
        {},
        each(404, stranger=200, director=403, owner=403),
    ),
    # asked by a person: a director answers, naming the player
    "accept a person's request": (
        "post",
        "/api/v1/person-links/{asked}/accept",
        lambda w, who: {"player": w["walter"]},
        each(404, director=200, owner=200),
    ),
    "decline a link": (
        "post",
        "/api/v1/person-links/{to_refuse}/decline",
        None,
        each(404, director=200, owner=200),
    ),
    "remove a link": (
        "post",
        "/api/v1/person-links/{accepted}/remove",
        None,
        each(404, director=200, owner=200),
    ),
    "a public federation": (
        "get",
        "/api/v1/public/federations/{public_slug}",
        None,
        dict.fromkeys(WHO, 200),
    ),
    "a federation that does not publish": (
        "get",
        "/api/v1/public/federations/{hidden_slug}",
        None,
        dict.fromkeys(WHO, 404),
    ),
}


def client_of(people, who):
    client = APIClient()
    if who in OFFICERS:
        client.force_authenticate(get_user_model().objects.get(username=f"comitato-{who}"))
    elif who != ANON:
        client.force_authenticate(people[who])
    return client


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize("name", MATRIX)
def test_federation_matrix(people, world, name, who):
    method, url, body, expected = MATRIX[name]
    if callable(body):
        body = body(world, who)
    response = getattr(client_of(people, who), method)(url.format(**world), body, format="json")
    assert response.status_code == expected[who], response.content
    if response.status_code >= 400:
        assert response.json()["errors"][0]["code"]


def test_an_officer_reads_no_club_object(people, world):
    """The Comitato's president sees San Rocco's name in the federation, and none of its
    nights, players, members, money or links through the club's own routes."""
    client = client_of(people, "president")
    club = people.club.pk
    for url in (
        f"/api/v1/clubs/{club}",
        f"/api/v1/players/{people.seated[0].pk}",
        f"/api/v1/person-links/{world['accepted']}",
    ):
        assert client.get(url).status_code == 404, url
    for url in ("/api/v1/nights", "/api/v1/players", "/api/v1/memberships", "/api/v1/entries"):
        assert client.get(url).json()["count"] == 0, url
    assert PersonLink.objects.filter(club=people.club).count() == 4


FEDERATION_ROUTES = re.compile(r"^/api/v1/(federation|affiliation|person-link|public/federation)")


def test_every_federation_operation_is_in_the_matrix():
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()

    def shape(url):
        return re.sub(r"\{[^}]+\}", "{}", url)

    covered = {(method, shape(url)) for method, url, _body, _expected in MATRIX.values()}
    wanted = {
        (method, shape(path))
        for path, operations in schema["paths"].items()
        if FEDERATION_ROUTES.match(path)
        for method in operations
        if method in ("get", "post", "patch", "put", "delete")
    }
    assert wanted and not (wanted - covered), sorted(wanted - covered)
