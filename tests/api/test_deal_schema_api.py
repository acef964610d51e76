"""The deal typed from the engine in the API's contract (issue 26 step 3): the deal and
house-rules components are the engine's schemas, every ``game`` is the engine's game keys,
``/api/v1/rules/games/{game}/schema`` hands them to clients, and a deal that fits its
schema but breaks the rules gets a 400 that lists the problems."""

import datetime
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from api.deal_schema import deal_component, house_rules_component
from scorebook.matches import services
from scorebook.rules import games
from scorebook.rules.schema import deal_schema, game_schemas, house_rules_schema
from tests.api.common import SIDES, api
from tests.api.shapes import answer_schema, live_schema, validate, validate_as
from tests.rules.test_deal_schema import values


@pytest.fixture
def schema(db):
    return live_schema()


def ref(name):
    return {"$ref": f"#/components/schemas/{name}"}


def property_of(schema, component, field):
    node = schema["components"]["schemas"][component]["properties"][field]
    return node["allOf"][0] if "allOf" in node else node


def test_the_components_are_the_engines_schemas(schema):
    components = schema["components"]["schemas"]
    assert components["GameKey"]["enum"] == sorted(games())
    expected = []
    for key, game in sorted(games().items()):
        assert components[house_rules_component(key)] == house_rules_schema(key)
        for level in game.levels:
            assert components[deal_component(key, level)] == deal_schema(key, level)
            expected.append(ref(deal_component(key, level)))
    assert components["DealInput"]["anyOf"] == expected
    assert len(components["HouseRules"]["anyOf"]) == len(games())


def test_the_deal_and_the_rules_point_at_them(schema):
    assert property_of(schema, "DealWriteRequest", "deal") == ref("DealInput")
    # An answer's deal is left free: a generated client tries a union's shapes in turn and
    # the first that parses would drop the other fields (the value still fits DealInput:
    # test_a_deal_answer_fits_deal_input).
    assert "DealInput" in property_of(schema, "Deal", "input")["description"]
    assert property_of(schema, "MatchCreateRequest", "rules") == ref("HouseRules")
    assert property_of(schema, "MatchCreateRequest", "game") == ref("GameKey")
    assert property_of(schema, "Match", "rules") == ref("ResolvedHouseRules")
    conflict = schema["components"]["schemas"]["DealConflict"]["allOf"][1]
    assert conflict["properties"]["stored"] == ref("Deal")


def test_every_game_is_a_game_key(schema):
    typed = [ref("GameKey"), ref("GameKeyOrBlank")]
    games_seen = 0
    for name, component in schema["components"]["schemas"].items():
        node = component.get("properties", {}).get("game")
        if node is None or name == "GameSchemas":
            continue
        games_seen += 1
        node = node["allOf"][0] if "allOf" in node else node
        assert node in typed, (name, node)
    assert games_seen >= 8
    for path, item in schema["paths"].items():
        for operation in item.values():
            for parameter in operation.get("parameters", []):
                if parameter["name"] == "game":
                    shape = parameter["schema"]
                    assert shape == ref("GameKey") or set(shape["enum"]) >= set(games()), path


@pytest.mark.django_db
@pytest.mark.parametrize("key", sorted(games()))
def test_a_games_schemas_for_clients(key, schema):
    response = APIClient().get(f"/api/v1/rules/games/{key}/schema")
    assert response.status_code == 200
    assert response.json() == json.loads(json.dumps(game_schemas(key)))
    validate(schema, "GameSchemas", response.json())
    assert set(response.json()["deal"]) == set(games()[key].levels)


@pytest.mark.django_db
def test_no_such_game_is_a_404_with_its_code():
    response = APIClient().get("/api/v1/rules/games/briscola/schema")
    assert response.status_code == 404
    assert response.json()["errors"][0]["code"] == "rules.no_such_game"


def test_a_deal_answer_fits_deal_input(schema, match, people):
    client = api(people, "scorer")
    body = {"deal": SIDES, "number": 1}
    created = client.post(f"/api/v1/matches/{match.pk}/deals", body, format="json")
    assert created.status_code == 201, created.json()
    validate(schema, "Deal", created.json())
    shape = schema["components"]["schemas"]["DealInput"]
    validate_as(schema, shape, created.json()["input"])
    answer = client.get(f"/api/v1/matches/{match.pk}")
    validate(schema, "Match", answer.json())


def test_schema_valid_but_rule_breaking_deals_are_400(schema, match, people):
    """The schema says the shape; the engine the rules: thirds that do not add up, a card
    twice, the wrong dealer all fit the schema and are refused with their codes."""
    client = api(people, "scorer")
    shape = schema["components"]["schemas"]["DealInput"]
    twice = {
        "sides": {
            "A": {"cards": ["Ad", "Ad"], "tricks": 5},
            "B": {"cards": ["3c"], "tricks": 5},
        },
        "last_trick": "A",
    }
    cases = [
        ({**SIDES, "sides": {**SIDES["sides"], "A": {"thirds": 19, "tricks": 5}}}, "capture"),
        (twice, "card.duplicate"),
        ({**SIDES, "dealer": "S"}, "deal.wrong_dealer"),
    ]
    for deal, code in cases:
        validate_as(schema, shape, deal)
        response = client.post(f"/api/v1/matches/{match.pk}/deals", {"deal": deal}, format="json")
        assert response.status_code == 400, response.json()
        codes = [e["code"] for e in response.json()["errors"]]
        assert any(c.startswith(code) for c in codes), codes
    assert not match.deals.exists()


def test_match_create_rules_answer_is_resolved(schema, people):
    client = api(people, "director")
    night = client.post(
        "/api/v1/nights", {"club": people.club.pk, "date": "2026-11-20"}, format="json"
    ).json()
    key = sorted(games())[0]
    game = games()[key]
    seats = game.seats(game.rules(None), game.player_counts[0])
    players = [p.pk for p in people.seated]
    body = {
        "night": night["id"],
        "game": key,
        "rules": {"profile": next(iter(game.profiles))} if game.profiles else {},
        "seats": dict(zip(seats, players, strict=False)),
    }
    validate_as(schema, schema["components"]["schemas"]["HouseRules"], body["rules"])
    response = client.post("/api/v1/matches", body, format="json")
    assert response.status_code == 201, response.json()
    validate(schema, "Match", response.json())
    rules = response.json()["rules"]
    validate_as(
        schema, schema["components"]["schemas"][house_rules_component(key)], rules["values"]
    )


def game_match(people, key):
    """A match of game ``key`` at a new night, with the fewest players it takes."""
    game = games()[key]
    seats = game.seats(game.rules(None), min(game.player_counts))
    night = services.night_open(
        club_id=people.club.pk, date=datetime.date(2026, 11, 21), venue="", user=people.director
    )
    return services.match_create(
        night=night,
        game=key,
        rules={},
        seats={seat: player.pk for seat, player in zip(seats, people.seated, strict=False)},
        user=people.scorer,
    )


@pytest.mark.django_db
@pytest.mark.parametrize("key", sorted(games()))
def test_deals_drawn_from_the_schema_are_stored_or_refused_never_a_500(key, people):
    """What schemathesis does to the deals endpoint, with a real match of every game: a
    deal drawn from the game's schemas is stored (201) or refused (400, the match over:
    409), never a 500, and a refusal stores nothing."""
    match = game_match(people, key)
    client = api(people, "scorer")
    client.raise_request_exception = False  # a 500 is an answer to count, not to raise
    shapes = [deal_schema(key, level) for level in games()[key].levels]
    statuses = set()

    @settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
    @given(deal=st.one_of([values(shape) for shape in shapes]))
    def post(deal):
        before = match.deals.count()
        response = client.post(f"/api/v1/matches/{match.pk}/deals", {"deal": deal}, format="json")
        statuses.add(response.status_code)
        assert response.status_code in (201, 400, 409), (deal, response.content[:500])
        if response.status_code != 201:
            assert match.deals.count() == before

    post()
    assert 400 in statuses


def test_a_league_of_any_game_fits_its_answers_schema(schema, people):
    """A league of any game (its game blank) fits the answer's schema wherever it is shown:
    the public list said ``GameKey`` for the read-only field and schemathesis caught a ``""``
    there (CI, stop 29)."""
    club = people.club
    club.public = True
    club.save()
    director = api(people, "director")
    league = director.post(
        "/api/v1/leagues", {"club": club.pk, "name": "Any", "game": ""}, format="json"
    )
    assert league.status_code == 201, league.content
    anonymous = api(people, "anonymous")
    for client, path in [
        (director, "/api/v1/leagues"),
        (anonymous, "/api/v1/public/clubs/{slug}/leagues"),
    ]:
        response = client.get(path.format(slug=club.slug))
        assert response.status_code == 200, (path, response.content)
        shown = response.json()
        rows = shown["results"] if isinstance(shown, dict) else shown
        assert "" in [row["game"] for row in rows], path
        validate_as(schema, answer_schema(schema, path, "get", "200"), shown)
    for name in ("PublicLeague", "League"):
        assert property_of(schema, name, "game") == ref("GameKeyOrBlank"), name
