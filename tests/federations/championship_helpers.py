"""What the championship tests share: San Rocco (the personas' club) and Altrove (the
stranger's) in a federation, each with a team of four players (two tables of Tressette a
coppie), and the championship started: round 1 at San Rocco, round 2 at Altrove."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from scorebook.core.dates import today_in
from scorebook.federations.models import Championship, ChampionshipFixture, Federation
from scorebook.federations.services import championships as champs
from scorebook.matches import services as matches
from tests import builders as build


def officer(fed: Federation, role: str = "officer") -> Any:
    return get_user_model().objects.get(username=f"{fed.slug}-{role}")


def league(
    people,
    *,
    start: bool = True,
    federation: Federation | None = None,
    name: str = "Campionato a squadre",
    **settings: Any,
) -> Championship:
    """The federation of San Rocco and Altrove (or ``federation``, already theirs), its
    championship and the two teams."""
    fed = federation or build.federation(people.club, people.other)
    size = 2 * settings.get("tables", 2)
    made = champs.championship_create(
        federation=fed,
        name=name,
        season="2026/27",
        game=build.GAME,
        rules_spec=build.RULES,
        user=officer(fed),
        **settings,
    )
    champs.team_enter(
        championship=made,
        club=people.club,
        name="San Rocco A",
        player_ids=[p.pk for p in people.seated[:size]],
        user=people.director,
        captain=people.member,
    )
    # a second championship of the same federation: its own away players
    away = build.players(people.other, 5, "Altrove " if federation is None else f"{name} ")
    champs.team_enter(
        championship=made,
        club=people.other,
        name="Altrove A",
        player_ids=[p.pk for p in away[:size]],
        substitute_ids=[away[4].pk],
        user=people.stranger,
    )
    if start:
        champs.championship_start(championship=made, user=officer(fed))
        made.refresh_from_db()
    return made


def home_fixture(made: Championship) -> ChampionshipFixture:
    """The fixture at San Rocco."""
    return made.fixtures.get(home__club__slug="san-rocco")


def tonight(people, club=None, user=None):
    club = club or people.club
    return matches.night_open(
        club_id=club.pk, date=today_in(club.zone_name), venue="", user=user or people.director
    )


def play_out(people, fixture: ChampionshipFixture, data=build.A_WINS) -> None:
    """Every table's match played to its end with ``data`` (A, the home side, wins)."""
    for table in fixture.boards.select_related("match"):
        build.finish(people, table.match, data)
