"""Every endpoint x every role -> the expected status (issue 4's permission matrix).

Roles: anonymous, a member of another club (stranger), member, scorer, director, owner.
The "member" persona is the player Nino, seated North at the match, so he may confirm.
Objects of the home club are invisible to the stranger: 404, never 403, so ids leak nothing.
"""

import copy
import datetime

import pytest

from scorebook.clubs.models import Membership
from scorebook.clubs.services import invitation_create
from scorebook.matches import services
from scorebook.standings.leagues import services as leagues
from scorebook.standings.models import Season
from tests.api.common import PERSONAS, SIDES, SMALL, a_deal, a_match, api
from tests.once import made_once
from tests.personas import make_personas

ANON, STRANGER, MEMBER, SCORER, DIRECTOR, OWNER = PERSONAS

READ = {ANON: 401, STRANGER: 404, MEMBER: 200, SCORER: 200, DIRECTOR: 200, OWNER: 200}
LIST = {**READ, STRANGER: 200}
OPEN = dict.fromkeys(PERSONAS, 200)
HIDDEN = dict.fromkeys(PERSONAS, 404)


def writes(role_from, ok, stranger=404):
    """Expected statuses for a write that needs ``role_from`` or above."""
    order = [MEMBER, SCORER, DIRECTOR, OWNER]
    allowed = order[order.index(role_from) :]
    return {
        ANON: 401,
        STRANGER: stranger,
        **{who: (ok if who in allowed else 403) for who in order},
    }


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker):
    """The people and the world, made once for the module's tests (tests/once.py): each
    test runs in a savepoint of the transaction they were made in, rolled back after it."""

    def make():
        people = make_personas()
        match = a_match(people)
        return people, make_world(people, match, a_deal(people, match))

    yield from made_once(django_db_blocker, make)


@pytest.fixture
def people(built, db):
    return copy.deepcopy(built[0])


@pytest.fixture
def world(built, db):
    return copy.deepcopy(built[1])


def make_world(people, match, deal):
    director = people[DIRECTOR]
    closed_night = services.night_open(
        club_id=people.club.pk, date=datetime.date(2026, 11, 13), venue="", user=director
    )
    n, e, s, w = people.seated
    old = services.match_create(
        night=closed_night,
        game="tressette4",
        rules=None,
        seats={"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk},
        user=director,
    )
    old_deal = services.deal_create(match=old, data=SIDES, expected_number=1, user=director)
    services.night_close(night=closed_night, user=director, end_open=[old.pk])
    league = leagues.league_create(club=people.club, name="Coppa", user=director)
    for name, pair in (("NS", [n.pk, s.pk]), ("EW", [e.pk, w.pk])):
        leagues.entry_add(league=league, name=name, player_ids=pair, user=director)
    leagues.league_start(league=league, user=director)
    fixture = league.fixtures.get()
    leagues.fixture_match_link(fixture=fixture, match=match, user=director)
    cup = leagues.league_create(club=people.club, name="Coppa KO", format="knockout", user=director)
    forfeited = leagues.league_create(club=people.club, name="Coppa 3", user=director)
    for each in (cup, forfeited):
        for name, pair in (("NS", [n.pk, s.pk]), ("EW", [e.pk, w.pk])):
            leagues.entry_add(league=each, name=name, player_ids=pair, user=director)
        leagues.league_start(league=each, user=director)
    leagues.fixture_forfeit(
        fixture=forfeited.fixtures.get(),
        entry=forfeited.entries.get(name="EW"),
        reason="absent",
        user=director,
    )
    bare = services.match_create(  # no deal yet: closed by its final score
        night=match.night,
        game="tressette4",
        rules=None,
        seats={"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk},
        user=director,
    )
    draft = leagues.league_create(club=people.club, name="Singoli", kind="players", user=director)
    for player in (n, e):
        leagues.entry_add(league=draft, name=player.name, player_ids=[player.pk], user=director)
    return {
        "club": people.club.pk,
        "night": match.night.pk,
        "closed_night": closed_night.pk,
        "open_matches": list(
            match.night.matches.filter(status="open").values_list("pk", flat=True)
        ),
        "table": match.table.pk,
        "match": match.pk,
        "deal": deal.pk,
        "etag": deal.etag,
        "old_deal": old_deal.pk,
        "old_etag": old_deal.etag,
        "player": n.pk,
        "scorer_membership": Membership.objects.get(club=people.club, user=people[SCORER]).pk,
        "member_membership": Membership.objects.get(club=people.club, user=people[MEMBER]).pk,
        "seats": {"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk},
        "newbie": people[STRANGER].username,
        "season": Season.objects.create(
            club=people.club, name="2026-27", starts_on=datetime.date(2026, 9, 1)
        ).pk,
        "league": league.pk,
        "draft_league": draft.pk,
        "fixture": fixture.pk,
        "league_entry": league.entries.first().pk,
        "cup_final": cup.fixtures.get().pk,
        "cup_entry": cup.entries.get(name="EW").pk,
        "forfeited_fixture": forfeited.fixtures.get().pk,
        "old_match": old.pk,
        "bare_match": bare.pk,
        "salvo": s.pk,
        "slug": people.club.slug,
        "token": invitation_create(
            club=people.club, role="member", user=director, max_uses=10
        ).token,
    }


# name: (method, url, body, headers, expected by persona)
MATRIX = {
    "rules games": ("get", "/api/v1/rules/games", None, {}, OPEN),
    "rules score": (
        "post",
        "/api/v1/rules/score",
        {"game": "tressette4", **SIDES},
        {},
        OPEN,
    ),
    "list clubs": ("get", "/api/v1/clubs", None, {}, LIST),
    "found a club": (
        "post",
        "/api/v1/clubs",
        lambda w, who: {"name": f"Circolo {who}", "slug": f"c-{who}"},
        {},
        {**dict.fromkeys(PERSONAS, 201), ANON: 401},
    ),
    "read club": ("get", "/api/v1/clubs/{club}", None, {}, READ),
    "change club": ("patch", "/api/v1/clubs/{club}", {"public": True}, {}, writes(OWNER, 200)),
    "list memberships": ("get", "/api/v1/memberships", None, {}, LIST),
    "add member": (
        "post",
        "/api/v1/memberships",
        lambda w, who: {"club": w["club"], "username": w["newbie"], "role": "member"},
        {},
        {**dict.fromkeys(PERSONAS, 405), ANON: 401},  # joining is an invitation accepted
    ),
    "read membership": ("get", "/api/v1/memberships/{scorer_membership}", None, {}, READ),
    "change role": (
        "patch",
        "/api/v1/memberships/{scorer_membership}",
        {"role": "director"},
        {},
        writes(DIRECTOR, 200),
    ),
    "remove member": (
        "delete",
        "/api/v1/memberships/{member_membership}",
        None,
        {},
        writes(DIRECTOR, 204),
    ),
    "list invitations": ("get", "/api/v1/invitations", None, {}, LIST),
    "invite": (
        "post",
        "/api/v1/invitations",
        lambda w, who: {"club": w["club"], "role": "member"},
        {},
        writes(DIRECTOR, 201, stranger=400),  # another club's id is as unknown as a missing one
    ),
    "accept invitation": (
        "post",
        "/api/v1/invitations/accept",
        lambda w, who: {"token": w["token"]},
        {},
        {**dict.fromkeys(PERSONAS, 409), ANON: 401, STRANGER: 201},  # 409: already a member
    ),
    "list players": ("get", "/api/v1/players", None, {}, LIST),
    "add player": (
        "post",
        "/api/v1/players",
        lambda w, who: {"club": w["club"], "name": "Ospite", "guest": True},
        {},
        writes(SCORER, 201, stranger=400),  # another club's id: as unknown as a missing one
    ),
    "read player": ("get", "/api/v1/players/{player}", None, {}, READ),
    "change player": (
        "patch",
        "/api/v1/players/{player}",
        {"name": "Nino B."},
        {},
        writes(SCORER, 200),
    ),
    "list nights": ("get", "/api/v1/nights", None, {}, LIST),
    "open night": (
        "post",
        "/api/v1/nights",
        lambda w, who: {"club": w["club"], "date": "2026-11-27"},
        {},
        writes(DIRECTOR, 201, stranger=400),  # another club's id: as unknown as a missing one
    ),
    "read night": ("get", "/api/v1/nights/{night}", None, {}, READ),
    "close night": (
        "post",
        "/api/v1/nights/{night}/close",
        lambda w, who: {"end_open": w["open_matches"]},  # tonight's match, ended with it
        {},
        writes(DIRECTOR, 200),
    ),
    "list entries": ("get", "/api/v1/entries", None, {}, LIST),
    "night settlement": ("get", "/api/v1/nights/{night}/settlement", None, {}, READ),
    "settlement history": ("get", "/api/v1/nights/{night}/settlements", None, {}, READ),
    "settlement csv": ("get", "/api/v1/nights/{night}/settlement/csv", None, {}, READ),
    "settlement pdf": ("get", "/api/v1/nights/{night}/settlement/pdf", None, {}, READ),
    "settle night": ("post", "/api/v1/nights/{night}/settle", None, {}, writes(DIRECTOR, 200)),
    "list tables": ("get", "/api/v1/tables", None, {}, LIST),
    "add table": (
        "post",
        "/api/v1/tables",
        lambda w, who: {"night": w["night"], "number": 2},
        {},
        writes(DIRECTOR, 201, stranger=400),  # another club's id: as unknown as a missing one
    ),
    "read table": ("get", "/api/v1/tables/{table}", None, {}, READ),
    "list matches": ("get", "/api/v1/matches", None, {}, LIST),
    "start match": (
        "post",
        "/api/v1/matches",
        lambda w, who: {"night": w["night"], "game": "tressette4", "seats": w["seats"]},
        {},
        writes(SCORER, 201, stranger=400),  # another club's id: as unknown as a missing one
    ),
    "read match": ("get", "/api/v1/matches/{match}", None, {}, READ),
    "match state": ("get", "/api/v1/matches/{match}/state", None, {}, READ),
    "list deals": ("get", "/api/v1/matches/{match}/deals", None, {}, READ),
    "enter deal": (
        "post",
        "/api/v1/matches/{match}/deals",
        {"deal": SIDES, "number": 2},
        {},
        writes(SCORER, 201),
    ),
    "read deal": ("get", "/api/v1/deals/{deal}", None, {}, READ),
    "deal history": ("get", "/api/v1/deals/{deal}/history", None, {}, READ),
    "correct deal": (
        "post",
        "/api/v1/deals/{deal}/correct",
        {"deal": SMALL, "reason": "typo"},
        {"HTTP_IF_MATCH": "{etag}"},
        writes(SCORER, 201),
    ),
    "correct deal of a closed night": (
        "post",
        "/api/v1/deals/{old_deal}/correct",
        {"deal": SMALL, "reason": "checked the sheet"},
        {"HTTP_IF_MATCH": "{old_etag}"},
        writes(DIRECTOR, 201),
    ),
    "confirm deal": (
        "post",
        "/api/v1/deals/{deal}/confirm",
        {},
        {},
        {ANON: 401, STRANGER: 404, MEMBER: 201, SCORER: 403, DIRECTOR: 403, OWNER: 403},
    ),
    # The table phone: a tap for seat E on the caller's phone (a scorer's phone, or a
    # seated player's: Nino); the deal was entered by the unseated scorer.
    "confirm on the table phone": (
        "post",
        "/api/v1/deals/{deal}/confirm",
        {"seat": "E"},
        {},
        writes(MEMBER, 201),
    ),
    "confirm the remaining deals": (
        "post",
        "/api/v1/matches/{match}/confirm-remaining",
        {"seat": "E"},
        {},
        writes(MEMBER, 200),
    ),
    "record a final score": (
        "post",
        "/api/v1/matches/{bare_match}/final-score",
        {"totals": {"A": 21, "B": 13}},
        {},
        writes(DIRECTOR, 200),
    ),
    "change what counts as a confirmation": (
        "patch",
        "/api/v1/clubs/{club}",
        {"confirmation_policy": "pin"},
        {},
        writes(DIRECTOR, 200),
    ),
    "override confirmation": (
        "post",
        "/api/v1/deals/{deal}/confirm",
        {"override_reason": "Nino left early"},
        {},
        writes(DIRECTOR, 201),
    ),
    "list seasons": ("get", "/api/v1/seasons", None, {}, LIST),
    "read season": ("get", "/api/v1/seasons/{season}", None, {}, READ),
    "open season": (
        "post",
        "/api/v1/seasons",
        lambda world, who: {"club": world["club"], "name": f"S-{who}", "starts_on": "2027-09-01"},
        {},
        # DRF checks the club field against the caller's clubs only in the service.
        writes(DIRECTOR, 201, stranger=400),  # another club's id: as unknown as a missing one
    ),
    "change season": (
        "patch",
        "/api/v1/seasons/{season}",
        {"name": "Autunno"},
        {},
        writes(DIRECTOR, 200),
    ),
    "leaderboard": ("get", "/api/v1/leaderboard?season={season}", None, {}, READ),
    "leaderboard csv": ("get", "/api/v1/leaderboard?season={season}&format=csv", None, {}, READ),
    "ratings": ("get", "/api/v1/ratings?club={club}&game=tressette4", None, {}, READ),
    "rating history": (
        "get",
        "/api/v1/rating-history?club={club}&game=tressette4",
        None,
        {},
        READ,
    ),
    "standings settings": ("get", "/api/v1/clubs/{club}/standings-settings", None, {}, READ),
    "change standings settings": (
        "patch",
        "/api/v1/clubs/{club}/standings-settings",
        {"min_matches": 1},
        {},
        writes(DIRECTOR, 200),
    ),
    "public leaderboard of a private club": (
        "get",
        "/api/v1/public/clubs/san-rocco/leaderboard?season={season}",
        None,
        {},
        dict.fromkeys(PERSONAS, 404),
    ),
    "list leagues": ("get", "/api/v1/leagues", None, {}, LIST),
    "create league": (
        "post",
        "/api/v1/leagues",
        lambda w, who: {"club": w["club"], "name": f"Lega {who}"},
        {},
        writes(DIRECTOR, 201, stranger=400),  # another club's id: as unknown as a missing one
    ),
    "read league": ("get", "/api/v1/leagues/{league}", None, {}, READ),
    "change league": (
        "patch",
        "/api/v1/leagues/{league}",
        {"points_win": 3},
        {},
        writes(DIRECTOR, 200),
    ),
    "list league entries": ("get", "/api/v1/leagues/{league}/entries", None, {}, READ),
    "add league entry": (
        "post",
        "/api/v1/leagues/{draft_league}/entries",
        lambda w, who: {"name": "Salvo", "players": [w["salvo"]]},
        {},
        writes(DIRECTOR, 201),
    ),
    "start league": (
        "post",
        "/api/v1/leagues/{draft_league}/start",
        None,
        {},
        writes(DIRECTOR, 200),
    ),
    "make a knockout stage": (
        "post",
        "/api/v1/leagues/{league}/knockout",
        lambda w, who: {"name": f"KO {who}", "top": 2},
        {},
        writes(DIRECTOR, 201),
    ),
    "league standings": ("get", "/api/v1/leagues/{league}/standings", None, {}, READ),
    "league standings csv": ("get", "/api/v1/leagues/{league}/standings/csv", None, {}, READ),
    "withdraw league entry": (
        "post",
        "/api/v1/league-entries/{league_entry}/withdraw",
        {"reason": "moved"},
        {},
        writes(DIRECTOR, 200),
    ),
    "list fixtures": ("get", "/api/v1/fixtures", None, {}, LIST),
    "read fixture": ("get", "/api/v1/fixtures/{fixture}", None, {}, READ),
    "count a match for a fixture": (
        "post",
        "/api/v1/fixtures/{fixture}/matches",
        lambda w, who: {"match": w["old_match"]},
        {},
        writes(SCORER, 201),
    ),
    "unlink a match": (
        "post",
        "/api/v1/fixtures/{fixture}/unlink",
        lambda w, who: {"match": w["match"]},
        {},
        writes(DIRECTOR, 200),
    ),
    "forfeit a fixture": (
        "post",
        "/api/v1/fixtures/{cup_final}/forfeit",
        lambda w, who: {"entry": w["cup_entry"], "reason": "did not turn up"},
        {},
        writes(DIRECTOR, 201),
    ),
    "plan a fixture's night": (
        "post",
        "/api/v1/fixtures/{cup_final}/plan",
        {"planned_on": "2026-12-04"},
        {},
        writes(DIRECTOR, 200),
    ),
    "undo a forfeit": (
        "post",
        "/api/v1/fixtures/{forfeited_fixture}/forfeit/undo",
        {"reason": "they had called ahead"},
        {},
        writes(DIRECTOR, 200),
    ),
    # Issue 28: the club's whole record (directors), one's own data, forgetting a person.
    "export a club": (
        "get",
        "/api/v1/clubs/{club}/export",
        None,
        {},
        {ANON: 401, STRANGER: 404, MEMBER: 403, SCORER: 403, DIRECTOR: 200, OWNER: 200},
    ),
    "export my data": ("get", "/api/v1/me/export", None, {}, {**OPEN, ANON: 401}),
    "erase a player": (
        "post",
        "/api/v1/players/{salvo}/erase",
        {"name": "Salvo"},
        {},
        writes(DIRECTOR, 200),
    ),
    # the owner and the stranger are the only owners of their clubs
    "erase my account": (
        "post",
        "/api/v1/me/erase",
        lambda w, who: {"username": who},
        {},
        {ANON: 401, STRANGER: 409, MEMBER: 204, SCORER: 204, DIRECTOR: 204, OWNER: 409},
    ),
    "player statistics": ("get", "/api/v1/players/{player}/statistics", None, {}, READ),
    # the club does not publish its results: hidden from everyone, members included
    "public leagues": ("get", "/api/v1/public/clubs/{slug}/leagues", None, {}, HIDDEN),
    "public league standings": (
        "get",
        "/api/v1/public/clubs/{slug}/leagues/{league}/standings",
        None,
        {},
        HIDDEN,
    ),
    "public league standings csv": (
        "get",
        "/api/v1/public/clubs/{slug}/leagues/{league}/standings/csv",
        None,
        {},
        HIDDEN,
    ),
    "public player statistics": (
        "get",
        "/api/v1/public/clubs/{slug}/players/{player}/statistics",
        None,
        {},
        HIDDEN,
    ),
}


@pytest.mark.parametrize("who", PERSONAS)
@pytest.mark.parametrize("name", MATRIX)
def test_matrix(people, world, name, who):
    method, url, body, headers, expected = MATRIX[name]
    if callable(body):
        body = body(world, who)
    headers = {key: value.format(**world) for key, value in headers.items()}
    client = api(people, who)
    response = getattr(client, method)(url.format(**world), body, format="json", **headers)
    assert response.status_code == expected[who], response.content
    if response.status_code >= 400:
        assert response.json()["errors"][0]["code"]
