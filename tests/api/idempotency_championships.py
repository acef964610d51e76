"""The championships' POSTs (issue 34 item 3) for tests/api/test_idempotency.py, in its
shape (route -> (who posts, build(people, match) -> (url, body, extra headers))). The
director presides the federation San Rocco belongs to (so is an officer too); the member
captains the away team."""

from __future__ import annotations

from typing import Any

from scorebook.core.dates import today_in
from scorebook.federations.models import Championship, Federation
from scorebook.federations.services import championships as champs
from scorebook.federations.services import federation as federations
from scorebook.federations.services import membership
from scorebook.matches import services as matches
from tests import builders


def _federation(people: Any) -> Federation:
    made = federations.federation_create(name="Lega C", slug="lega-c", user=people.director)
    invitation = membership.club_invite(
        federation=made, slug=people.club.slug, user=people.director
    )
    membership.club_invitation_accept(invitation=invitation, user=people.owner)
    return made


def _open(people: Any, **settings: Any) -> Championship:
    return champs.championship_create(
        federation=_federation(people),
        name="Campionato",
        season="2026",
        game=builders.GAME,
        user=people.director,
        **{"tables": 1, **settings},
    )


def _entered(people: Any, teams: int = 2, **settings: Any) -> Championship:
    made = _open(people, **settings)
    pool = [*people.seated, *builders.players(people.club, 2 * teams, "Riserva ")]
    for i in range(teams):
        champs.team_enter(
            championship=made,
            club=people.club,
            name=f"Squadra {i + 1}",
            player_ids=[p.pk for p in pool[2 * i : 2 * i + 2]],
            captain=people.member,
            user=people.director,
        )
    return made


def _fixture(people: Any, *, playing: bool = False):
    made = _entered(people)
    champs.championship_start(championship=made, user=people.director)
    fixture = made.fixtures.order_by("round").first()
    matches.night_open(
        club_id=people.club.pk,
        date=today_in(people.club.zone_name),
        venue="",
        user=people.director,
    )
    if playing:
        champs.fixture_play(fixture=fixture, user=people.director)
        for table in fixture.boards.select_related("match"):
            builders.finish(people, table.match)
    return fixture


def _knockout_ready(people: Any) -> Championship:
    made = _entered(people, teams=4, format="groups_knockout", groups=2, advance=1, legs=1)
    champs.championship_start(championship=made, user=people.director)
    for fixture in made.fixtures.all():
        champs.fixture_forfeit(fixture=fixture, team=fixture.away, reason="", user=people.director)
    return made


def _forfeited(people: Any):
    fixture = _fixture(people)
    champs.fixture_forfeit(fixture=fixture, team=fixture.away, reason="", user=people.director)
    return fixture


def _on_fixture(verb: str, body: dict[str, Any], playing: bool = False) -> Any:
    return lambda people, match: (
        f"/api/v1/championship-fixtures/{_fixture(people, playing=playing).pk}/{verb}",
        body,
        {},
    )


CHAMPIONSHIP_POSTS = {
    "v1:federation-championships": (
        "director",
        lambda people, match: (
            f"/api/v1/federations/{_federation(people).pk}/championships",
            {"name": "Coppa", "season": "2026", "game": builders.GAME},
            {},
        ),
    ),
    "v1:championship-teams": (
        "director",
        lambda people, match: (
            f"/api/v1/championships/{_open(people, tables=2).pk}/teams",
            {"club": "san-rocco", "name": "A", "players": [p.pk for p in people.seated]},
            {},
        ),
    ),
    "v1:championship-team-withdraw": (
        "director",
        lambda people, match: (
            f"/api/v1/championship-teams/{_entered(people).teams.first().pk}/withdraw",
            {},
            {},
        ),
    ),
    "v1:championship-start": (
        "director",
        lambda people, match: (f"/api/v1/championships/{_entered(people).pk}/start", {}, {}),
    ),
    "v1:championship-knockout": (
        "director",
        lambda people, match: (
            f"/api/v1/championships/{_knockout_ready(people).pk}/knockout",
            {},
            {},
        ),
    ),
    "v1:championship-fixture-play": ("director", _on_fixture("play", {})),
    "v1:championship-fixture-confirm": ("member", _on_fixture("confirm", {}, playing=True)),
    "v1:championship-fixture-forfeit": (
        "director",
        lambda people, match: (
            f"/api/v1/championship-fixtures/{(f := _fixture(people)).pk}/forfeit",
            {"team": f.away_id, "reason": "assente"},
            {},
        ),
    ),
    "v1:championship-fixture-undo-forfeit": (
        "director",
        lambda people, match: (
            f"/api/v1/championship-fixtures/{_forfeited(people).pk}/undo-forfeit",
            {"reason": "errore"},
            {},
        ),
    ),
    "v1:championship-fixture-plan": (
        "director",
        _on_fixture("plan", {"day": "2027-01-15", "reason": "neve"}),
    ),
}
