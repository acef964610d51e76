"""The demo's federation (issue 34): the Comitato Provinciale di Palermo, which publishes,
with three member clubs (San Rocco, Belmonte, Kalsa), a secretary, and persons linked
across clubs: Nino plays at San Rocco and at Belmonte, Ettore at San Rocco and at Kalsa,
each one account with a federation number; Rosa's request to Kalsa waits for a director.
Everything through the services, as the people would (the audit log tells the same story).

Its championship (item 3) is under way: three teams (San Rocco, Belmonte, Kalsa) of two
tables each, home and away; tonight Belmonte played Kalsa at Belmonte's night (both
tables finished, the Kalsa captain confirmed), Kalsa's home fixture against San Rocco was
put off to a later night, the rest are planned a week apart."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from scorebook.clubs import services as clubs
from scorebook.clubs.models import Club
from scorebook.core.dates import today_in
from scorebook.federations.models import Federation
from scorebook.federations.services import championships as champs
from scorebook.federations.services import federation as federations
from scorebook.federations.services import links, membership
from scorebook.matches import services as matches

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


#: The championship's teams: club, team name, its four regulars and a substitute.
TEAMS = (
    ("san-rocco", "San Rocco", ("Nino", "Ettore", "Salvo", "Walter"), ("Pina",)),
    ("belmonte", "Belmonte", ("Nino R.", "Gianni", "Lia", "Turi"), ()),
    ("kalsa", "Kalsa", ("Ettore B.", "Santo", "Marta", "Ciccio"), ()),
)
#: A deal the first side (the home team) wins, and one the other side wins.
HOME_DEAL = {
    "sides": {"A": {"thirds": 20, "tricks": 6}, "B": {"thirds": 12, "tricks": 4}},
    "last_trick": "A",
}
AWAY_DEAL = {
    "sides": {"A": {"thirds": 12, "tricks": 4}, "B": {"thirds": 20, "tricks": 6}},
    "last_trick": "B",
}


def load(president: Any, home: Club, game: str | None = None) -> Federation:
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
    if game is not None:
        championship(comitato, president, owners, game)
    return comitato


def championship(comitato: Federation, president: Any, owners: dict[str, Any], game: str) -> None:
    """The championship under way: entered, started, one fixture played and confirmed
    tonight at Belmonte, one put off."""
    today = timezone.localdate()
    made = champs.championship_create(
        federation=comitato,
        name="Campionato provinciale a squadre",
        season=f"{today.year}/{(today.year + 1) % 100:02d}",
        game=game,
        rules_spec={"profile": "classic_21"},
        tables=2,
        legs=2,
        first_day=today,
        user=president,
    )
    teams = {}
    for slug, name, regulars, substitutes in TEAMS:
        club = Club.objects.get(slug=slug)
        ids = dict(club.players.values_list("name", "pk"))
        teams[slug] = champs.team_enter(
            championship=made,
            club=club,
            name=name,
            player_ids=[ids[n] for n in regulars],
            substitute_ids=[ids[n] for n in substitutes],
            user=owners[slug],
        )
    champs.championship_start(championship=made, user=president)
    fixtures = made.fixtures.select_related("home__club")
    played = fixtures.get(home=teams["belmonte"], away=teams["kalsa"])
    matches.night_open(
        club_id=played.home.club_id,
        date=today_in(played.home.club.zone_name),
        venue="Circolo Belmonte",
        user=owners["belmonte"],
    )
    champs.fixture_play(fixture=played, user=owners["belmonte"])
    for table, deal in zip(
        played.boards.select_related("match"), (HOME_DEAL, AWAY_DEAL), strict=True
    ):
        for number in range(1, 21):
            match = table.match
            match.refresh_from_db()
            if match.status != match.Status.OPEN:
                break
            matches.deal_create(
                match=match, data=deal, expected_number=number, user=owners["belmonte"]
            )
    champs.fixture_confirm(fixture=played, user=owners["kalsa"])
    put_off = fixtures.get(home=teams["kalsa"], away=teams["san-rocco"])
    champs.fixture_plan(
        fixture=put_off,
        day=(put_off.planned_on or today) + datetime.timedelta(days=3),
        reason="Rinviata: la sala del circolo è occupata",
        user=owners["kalsa"],
    )
