"""Every federation route x every role -> the expected status (issue 34 item 6).

The roles are those of the club matrix (tests/api/test_permission_matrix.py: anonymous, the
stranger who owns another club, a member, scorer, director and owner of San Rocco) and the
federation's officers (officer, secretary, president of the Comitato, of which San Rocco
is a member). An officer reads the federation, never a club's objects; a club's people
read the federation their club belongs to; the stranger's club is no member and sees
nothing of it (404, never 403, so ids leak nothing). The last test fails when a federation
route of the schema has no row here.
"""

import datetime
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
    cup = _championships(people, comitato, lega)
    federal = _federal(people, comitato)
    return {
        **cup,
        **federal,
        "mario": mario.pk,
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


def _championships(people, comitato, lega):
    """A championship of the Comitato under way (two San Rocco teams of one table, the
    member their captain; tonight's night open), one still taking entries, and one of the
    Lega that publishes."""
    from scorebook.core.dates import today_in
    from scorebook.federations.services import championships as champs
    from scorebook.matches import services as matches

    boss = _president(comitato)
    made = [
        champs.championship_create(
            federation=comitato,
            name=name,
            season="2026/27",
            game=builders.GAME,
            tables=1,
            user=boss,
        )
        for name in ("Campionato", "Coppa")
    ]
    nino, ettore, salvo, walter = people.seated
    for name, pair in (("San Rocco A", (nino, ettore)), ("San Rocco B", (salvo, walter))):
        champs.team_enter(
            championship=made[0],
            club=people.club,
            name=name,
            player_ids=[p.pk for p in pair],
            captain=people.member,
            user=people.director,
        )
    champs.championship_start(championship=made[0], user=boss)
    leaving = champs.team_enter(  # the Coppa's only team, for its club to withdraw
        championship=made[1],
        club=people.club,
        name="San Rocco C",
        player_ids=[nino.pk, ettore.pk],
        user=people.director,
    )
    matches.night_open(
        club_id=people.club.pk, date=today_in(people.club.zone_name), venue="", user=people.director
    )
    fresh = builders.players(people.club, 2, "Nuovo ")
    public = champs.championship_create(
        federation=lega, name="Lega", season="2026/27", game=builders.GAME, user=_president(lega)
    )
    fixture = made[0].fixtures.order_by("round").first()
    return {
        "championship": made[0].pk,
        "open_championship": made[1].pk,
        "public_championship": public.pk,
        "fixture": fixture.pk,
        "home_team": fixture.home_id,
        "leaving": leaving.pk,
        "started_team": made[0].teams.first().pk,
        "fresh": [p.pk for p in fresh],
    }


def _federal(people, comitato):
    """A federal tournament hosted by San Rocco today with a pair registered (two persons
    of San Rocco), another to cancel, tonight's night; the member is a linked person
    (Nino) so that they may register."""
    from django.utils import timezone

    from scorebook.federations.services import federal_tournaments as federal

    users = get_user_model().objects
    builders.linked(people.seated[0], people.member)
    first, second = (users.create_user(name) for name in ("p-uno", "p-due"))
    quinto, sesto = builders.named(people.club, "Quinto", "Sesto")
    for player, account in ((quinto, first), (sesto, second)):
        builders.linked(player, account)
    officer = Officer.objects.get(federation=comitato, role="officer").user
    values = {
        "date": timezone.localdate(),
        "host": "san-rocco",
        "level": "provincial",
        "game": builders.GAME,
        "rules": builders.RULES,
        "cap": 8,
    }
    announced = federal.federal_tournament_announce(
        federation=comitato, user=officer, name="Provinciale", **values
    )
    to_cancel = federal.federal_tournament_announce(
        federation=comitato, user=officer, name="Da annullare", **values
    )
    pair = federal.registration_add(federal_tournament=announced, partner="p-due", user=first)
    night = builders.night(people, date=timezone.localdate())
    return {
        "federal": announced.pk,
        "to_cancel": to_cancel.pk,
        "registration": pair.pk,
        "night": night.pk,
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
    # the stranger has San Rocco's proposal waiting, the member is linked (Nino): one live
    # link per account in a club
    "ask a club for a link": (
        "post",
        "/api/v1/person-links/ask",
        {"club": "san-rocco"},
        each(201, stranger=409, member=409),
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
    "list championships": ("get", "/api/v1/federations/{federation}/championships", None, SEEN),
    "create a championship": (
        "post",
        "/api/v1/federations/{federation}/championships",
        lambda w, who: {"name": f"Torneo {who}", "season": "2027", "game": builders.GAME},
        each(403, stranger=404, **dict.fromkeys(OFFICERS, 201)),
    ),
    "read a championship": ("get", "/api/v1/championships/{championship}", None, SEEN),
    "enter a team": (
        "post",
        "/api/v1/championships/{open_championship}/teams",
        lambda w, who: {"club": "san-rocco", "name": f"Squadra {who}", "players": w["fresh"]},
        each(403, stranger=404, director=201, owner=201),
    ),
    "withdraw a team": (
        "post",
        "/api/v1/championship-teams/{leaving}/withdraw",
        None,
        each(403, stranger=404, director=200, owner=200, **dict.fromkeys(OFFICERS, 200)),
    ),
    # after the start an officer only, by the withdrawal rule (docs/federation.md)
    "withdraw a team once it has started": (
        "post",
        "/api/v1/championship-teams/{started_team}/withdraw",
        {"reason": "il circolo chiude"},
        each(403, stranger=404, **dict.fromkeys(OFFICERS, 200)),
    ),
    "start a championship": (
        "post",
        "/api/v1/championships/{open_championship}/start",
        None,
        each(403, stranger=404, **dict.fromkeys(OFFICERS, 409)),  # one team only
    ),
    "draw the knockout": (
        "post",
        "/api/v1/championships/{championship}/knockout",
        None,
        each(403, stranger=404, **dict.fromkeys(OFFICERS, 409)),  # a round robin
    ),
    "read a fixture": ("get", "/api/v1/championship-fixtures/{fixture}", None, SEEN),
    "play a fixture": (
        "post",
        "/api/v1/championship-fixtures/{fixture}/play",
        {},
        each(403, stranger=404, director=200, owner=200),
    ),
    # the member captains the away team: nothing to confirm before it is played
    "confirm a fixture": (
        "post",
        "/api/v1/championship-fixtures/{fixture}/confirm",
        None,
        each(403, stranger=404, member=409, director=409, owner=409),
    ),
    "forfeit a fixture": (
        "post",
        "/api/v1/championship-fixtures/{fixture}/forfeit",
        lambda w, who: {"team": w["home_team"], "reason": "assente"},
        each(403, stranger=404, **dict.fromkeys(OFFICERS, 200)),
    ),
    # nothing forfeited in the world: an officer is answered 409, anyone else 403
    "undo a forfeit": (
        "post",
        "/api/v1/championship-fixtures/{fixture}/undo-forfeit",
        {"reason": "errore"},
        each(403, stranger=404, **dict.fromkeys(OFFICERS, 409)),
    ),
    "move a fixture's night": (
        "post",
        "/api/v1/championship-fixtures/{fixture}/plan",
        {"day": "2027-01-15", "reason": "neve"},
        each(403, stranger=404, director=200, owner=200, **dict.fromkeys(OFFICERS, 200)),
    ),
    "a public championship": (
        "get",
        "/api/v1/public/championships/{public_championship}",
        None,
        dict.fromkeys(WHO, 200),
    ),
    "a championship that is not public": (
        "get",
        "/api/v1/public/championships/{championship}",
        None,
        dict.fromkeys(WHO, 404),
    ),
    # federal tournaments (issue 34 item 4) and the ranking (item 5)
    "federal tournaments": ("get", "/api/v1/federations/{federation}/tournaments", None, SEEN),
    "announce a federal tournament": (
        "post",
        "/api/v1/federations/{federation}/tournaments",
        lambda w, who: {
            "name": f"Torneo {who}",
            "date": datetime.date.today().isoformat(),
            "host": "san-rocco",
            "level": "regional",
            "game": builders.GAME,
            "rules": builders.RULES,
            "format": "knockout",
            "cap": 16,
        },
        each(403, stranger=404, officer=201, secretary=201, president=201),
    ),
    "read a federal tournament": ("get", "/api/v1/federal-tournaments/{federal}", None, SEEN),
    "cancel a federal tournament": (
        "post",
        "/api/v1/federal-tournaments/{to_cancel}/cancel",
        {"reason": "il circolo è chiuso"},
        each(403, stranger=404, officer=200, secretary=200, president=200),
    ),
    # the host's director (or owner) opens it on tonight's night
    "open a federal tournament": (
        "post",
        "/api/v1/federal-tournaments/{federal}/open",
        lambda w, who: {"night": w["night"]},
        each(403, stranger=404, director=200, owner=200),
    ),
    "federal registrations": (
        "get",
        "/api/v1/federal-tournaments/{federal}/registrations",
        None,
        SEEN,
    ),
    # only a person of a member club registers (the member is Nino, linked)
    "register a pair": (
        "post",
        "/api/v1/federal-tournaments/{federal}/registrations",
        {"partner": "mario"},
        each(400, stranger=404, member=201),
    ),
    # the pair's persons or an officer withdraw it
    "withdraw a registration": (
        "post",
        "/api/v1/federal-registrations/{registration}/withdraw",
        None,
        each(403, stranger=404, officer=200, secretary=200, president=200),
    ),
    "the federation ranking": ("get", "/api/v1/federations/{federation}/ranking", None, SEEN),
    "a person's federal history": (
        "get",
        "/api/v1/federations/{federation}/ranking/{mario}",
        None,
        SEEN,
    ),
    "a public ranking": (
        "get",
        "/api/v1/public/federations/{public_slug}/ranking",
        None,
        dict.fromkeys(WHO, 200),
    ),
    "a ranking not public": (
        "get",
        "/api/v1/public/federations/{hidden_slug}/ranking",
        None,
        dict.fromkeys(WHO, 404),
    ),
    # the rating across the member clubs (item 5): who sees the federation; public only
    # for a federation that publishes
    "the federation's ratings": ("get", "/api/v1/federations/{federation}/ratings", None, SEEN),
    "a person's federation ratings": (
        "get",
        "/api/v1/federations/{federation}/ratings/{mario}",
        None,
        SEEN,
    ),
    "public ratings": (
        "get",
        "/api/v1/public/federations/{public_slug}/ratings",
        None,
        dict.fromkeys(WHO, 200),
    ),
    "ratings not public": (
        "get",
        "/api/v1/public/federations/{hidden_slug}/ratings",
        None,
        dict.fromkeys(WHO, 404),
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
    assert PersonLink.objects.filter(club=people.club).count() == 7  # 4, and the federal 3


FEDERATION_ROUTES = re.compile(
    r"^/api/v1/(federation|federal|affiliation|person-link|public/federation|championship|"
    r"public/championship)"
)


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
