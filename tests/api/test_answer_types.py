"""Every answer typed (issue 26 step 4): no JSON answer in the schema is a bare object (or
an untyped value) unless it says it is free-form; and the answers given through HTTP are
valid for their components: a match's state, a settlement and a settle, a paid transfer
(player ids beside ledger accounts), a confirmation (the shape of a deal's confirmations),
player statistics, the games and a stateless score. Every time is UTC, written with Z."""

import re
from decimal import Decimal

import pytest

from scorebook.ledger.models import Transfer
from scorebook.matches import services
from tests.api.common import SIDES, api
from tests.api.shapes import answer_schema, live_schema, mismatches, validate, validate_as

METHODS = ("get", "post", "put", "patch", "delete")
#: Free on purpose or still untyped, each for a reason: an answer's deal is free (a
#: generated client would read a union of every game's deal by trying each in turn, see
#: docs/api.md); a game's schemas are JSON Schema documents; a resolved house rule's values map
#: each switch to its value (the game's HouseRules types them); a tournament's rules
#: landed untyped with the tournaments (issue 27).
PENDING = {
    "Deal.input",
    "GameSchemas.house_rules",
    "GameSchemas.deal{}",
    "ResolvedHouseRules.values",
    "Tournament.rules",
    # a championship's house rules as its officer gave them (a profile and switches; the
    # engine's HouseRules types each game's), untyped as a tournament's
    "Championship.rules",
    "ChampionshipDetail.rules",
    "FederalTournament.rules",
}
FREE_FORM = "Free-form"


def untyped(schema):
    """Every place in an answer's description that is an object with no properties, or a
    value with no type, outside the parts that say they are free-form."""
    components = schema["components"]["schemas"]
    found, seen = [], set()

    def walk(node, at):
        if not isinstance(node, dict):
            return
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[1]
            if name not in seen:
                seen.add(name)
                walk(components[name], name)
            return
        if str(node.get("description", "")).startswith(FREE_FORM):
            return
        kind = node.get("type")
        shaped = ("allOf", "oneOf", "anyOf", "enum", "properties", "items")
        open_map = node.get("additionalProperties") in (None, True, {})
        if node.get("enum") == [None]:  # the null of a nullable reference
            return
        if (kind == "object" or "additionalProperties" in node) and not node.get("properties"):
            if open_map:
                found.append(at)
        elif kind is None and not any(key in node for key in shaped):
            found.append(at)
        for key, value in node.get("properties", {}).items():
            walk(value, f"{at}.{key}")
        walk(node.get("items"), f"{at}[]")
        if isinstance(node.get("additionalProperties"), dict):
            walk(node["additionalProperties"], f"{at}{{}}")
        for key in ("allOf", "oneOf", "anyOf"):
            for item in node.get(key, []):
                walk(item, at)

    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method not in METHODS:
                continue
            for code, response in operation["responses"].items():
                body = response.get("content", {}).get("application/json")
                if code.startswith("2") and body:
                    walk(body["schema"], f"{method} {path} {code}")
    return found


@pytest.fixture
def schema(db):
    return live_schema()


def test_no_answer_is_an_untyped_object(schema):
    assert set(untyped(schema)) == PENDING


def test_the_check_finds_an_untyped_answer(schema):
    operation = schema["paths"]["/api/v1/me"]["get"]
    operation["responses"]["200"]["content"]["application/json"]["schema"] = {"type": "object"}
    assert "get /api/v1/me 200" in untyped(schema)
    free = {"type": "object", "description": "Free-form: anything."}
    operation["responses"]["200"]["content"]["application/json"]["schema"] = free
    assert "get /api/v1/me 200" not in untyped(schema)


def answer_of(schema, path, method="get", code="200"):
    return answer_schema(schema, path, method, code)


@pytest.fixture
def finished(people, match):
    match.stake_amount = Decimal("0.50")
    match.stake_currency = "EUR"
    match.stake_unit = "money"
    match.save()
    for _ in range(3):
        services.deal_create(match=match, data=SIDES, expected_number=None, user=people.scorer)
    match.refresh_from_db()
    return match


def test_a_match_state_is_typed(schema, people, finished):
    answer = api(people, "member").get(f"/api/v1/matches/{finished.pk}/state")
    assert answer.status_code == 200
    validate_as(schema, answer_of(schema, "/api/v1/matches/{id}/state"), answer.json())
    assert mismatches(schema, answer_of(schema, "/api/v1/matches/{id}/state"), answer.json()) == []
    assert answer.json()["match"]["finished"] is True
    assert len(answer.json()["deals"]) == 3
    match = api(people, "member").get(f"/api/v1/matches/{finished.pk}").json()
    validate(schema, "Match", match)
    assert match["result"]["winners"] == answer.json()["match"]["outcome"]["winners"]


def test_the_settlement_settle_and_a_paid_transfer_are_typed_with_players(schema, people, finished):
    night = finished.night_id
    director = api(people, "director")
    sheet = api(people, "member").get(f"/api/v1/nights/{night}/settlement").json()
    validate_as(schema, answer_of(schema, "/api/v1/nights/{id}/settlement"), sheet)
    assert mismatches(schema, answer_of(schema, "/api/v1/nights/{id}/settlement"), sheet) == []
    settled = director.post(f"/api/v1/nights/{night}/settle")
    assert settled.status_code == 200
    validate_as(schema, answer_of(schema, "/api/v1/nights/{id}/settle", "post"), settled.json())
    by_name = {p.name: p.pk for p in people.seated}
    for transfer in settled.json()["transfers"]:
        assert transfer["payer_player"] == by_name[transfer["payer_name"]]
        assert transfer["payee_player"] == by_name[transfer["payee_name"]]
    nets = settled.json()["groups"][0]["nets"]
    assert {n["player"] for n in nets} == {by_name[n["name"]] for n in nets}

    transfer = Transfer.objects.first()
    paid = director.post(f"/api/v1/transfers/{transfer.pk}/paid")
    assert paid.status_code == 200
    validate(schema, "Transfer", paid.json())
    assert (
        mismatches(schema, answer_of(schema, "/api/v1/transfers/{id}/paid", "post"), paid.json())
        == []
    )
    assert paid.json()["payer_player"] == transfer.payer.player_id
    history = api(people, "member").get(f"/api/v1/nights/{night}/settlements").json()
    validate_as(schema, answer_of(schema, "/api/v1/nights/{id}/settlements"), history)


def test_a_confirmation_answers_the_shape_of_a_deals_confirmations(schema, people, deal):
    confirmed = api(people, "member").post(f"/api/v1/deals/{deal.pk}/confirm", {}, format="json")
    assert confirmed.status_code == 201, confirmed.content
    validate(schema, "Confirmation", confirmed.json())
    stored = api(people, "member").get(f"/api/v1/deals/{deal.pk}").json()["confirmations"]
    assert stored == [confirmed.json()]
    assert answer_of(schema, "/api/v1/deals/{id}/confirm", "post", "201") == {
        "$ref": "#/components/schemas/Confirmation"
    }


def test_player_statistics_are_typed(schema, people, finished):
    player = people.seated[0]
    private = api(people, "member").get(f"/api/v1/players/{player.pk}/statistics")
    assert private.status_code == 200
    shape = answer_of(schema, "/api/v1/players/{id}/statistics")
    validate_as(schema, shape, private.json())
    assert mismatches(schema, shape, private.json()) == []
    assert private.json()["player"] == {"id": player.pk, "name": player.name}


def test_the_games_and_a_stateless_score_are_typed(schema, people):
    games = api(people, "anonymous").get("/api/v1/rules/games")
    validate_as(schema, answer_of(schema, "/api/v1/rules/games"), games.json())
    assert mismatches(schema, answer_of(schema, "/api/v1/rules/games"), games.json()) == []
    game = games.json()["games"][0]["key"]
    assert game
    scored = api(people, "anonymous").post(
        "/api/v1/rules/score", {"game": "tressette4", **SIDES}, format="json"
    )
    whole = api(people, "anonymous").post(
        "/api/v1/rules/score", {"game": "tressette4", "deals": [SIDES, SIDES]}, format="json"
    )
    assert scored.status_code == whole.status_code == 200
    shape = answer_of(schema, "/api/v1/rules/score", "post")
    validate_as(schema, shape, scored.json())
    validate_as(schema, shape, whole.json())
    validate(schema, "ScoredDeal", scored.json())
    validate(schema, "ScoredMatch", whole.json())


UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")
MOMENT = re.compile(r"^\d{4}-\d\d-\d\dT")


def moments(value):
    """Every string in an answer that is a date with a time."""
    if isinstance(value, dict):
        return [m for v in value.values() for m in moments(v)]
    if isinstance(value, list):
        return [m for v in value for m in moments(v)]
    return [value] if isinstance(value, str) and MOMENT.match(value) else []


@pytest.mark.parametrize("zone", ["Europe/Rome", "America/New_York"])
def test_every_time_is_utc_with_z(settings, people, finished, zone):
    settings.TIME_ZONE = zone
    night = finished.night_id
    director = api(people, "director")
    deal = finished.deals.order_by("id").first()
    api(people, "member").post(f"/api/v1/deals/{deal.pk}/confirm", {}, format="json")
    director.post(f"/api/v1/nights/{night}/close")
    director.post(f"/api/v1/transfers/{Transfer.objects.first().pk}/paid")
    answers = [
        director.get(f"/api/v1/matches/{finished.pk}").json(),
        director.get(f"/api/v1/deals/{deal.pk}").json(),
        director.get(f"/api/v1/nights/{night}").json(),
        director.get(f"/api/v1/nights/{night}/settlement").json(),
        director.get(f"/api/v1/nights/{night}/settlements").json(),
        director.get(f"/api/v1/entries?night={night}").json(),
    ]
    found = moments(answers)
    assert len(found) >= 8
    assert [m for m in found if not UTC.match(m)] == []
