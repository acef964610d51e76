"""The API's contract in /api/schema/ (issue 26 steps 1 and 2): a valid OpenAPI document;
request bodies in JSON only; request components apart from answers (no read-only field
asked for in a request); Idempotency-Key on every POST that honours it; the headers sent
(ETag, Idempotent-Replayed, Retry-After, X-Request-ID) declared; the refusals that carry
data typed (409 with ``stored``, 412 with ``current``), 500 with its ``request_id``. And
the answers given through HTTP are the ones the schema describes."""

import jsonschema
import pytest
from drf_spectacular.validation import validate_schema
from rest_framework.test import APIClient

from tests.api.common import SIDES, SMALL, api
from tests.api.shapes import live_schema, validate, validate_as
from tests.api.test_idempotency import ANONYMOUS, post_routes

METHODS = ("get", "post", "put", "patch", "delete")


@pytest.fixture
def schema(db):
    return live_schema()


def operations(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield path, method, operation


def test_the_schema_is_valid_openapi(schema):
    # The OpenAPI 3.0 JSON Schema drf-spectacular ships (openapi-spec-validator is not a
    # dependency); it raises on any invalid document.
    validate_schema(schema)
    broken = {**schema, "paths": {"/x": {"get": {"responses": {"200": {"content": 1}}}}}}
    with pytest.raises(jsonschema.ValidationError):
        validate_schema(broken)


def test_every_id_in_a_path_is_an_integer(schema, people):
    # The router's ids were strings of digits (its regex), so a generated client asked for
    # ``id: str``; the ``<id:pk>`` routes' were integers. Every one is an integer now, and a
    # server still answers a real id and refuses what is not one.
    found = {}
    for path, method, operation in operations(schema):
        for parameter in operation.get("parameters", []):
            if parameter["in"] == "path":
                found[(path, method, parameter["name"])] = parameter["schema"]
    ids = {where: shape for where, shape in found.items() if where[2] not in ("slug", "game")}
    assert len(ids) > 40
    assert {(s["type"], s.get("format"), s.get("minimum")) for s in ids.values()} == {
        ("integer", "int64", 1)
    }, [where for where, shape in ids.items() if shape["type"] != "integer"]
    client = api(people, "member")
    assert client.get(f"/api/v1/players/{people.seated[0].pk}").status_code == 200
    assert client.get("/api/v1/players/x1").status_code == 404


def test_an_operation_on_one_object_offers_no_list_filter(schema):
    # A match's deals, its confirm-remaining, a night's settlements and a league's entries
    # declared their viewset's list filters (a match's game, night, status, table...), which
    # a generated client offered as arguments that filter nothing there.
    found = {}
    for path, method, operation in operations(schema):
        if "{id}" in path:
            query = {p["name"] for p in operation.get("parameters", []) if p["in"] == "query"}
            found[(method, path)] = query - {"page", "min_shared"}
    assert len(found) > 40
    assert {where: query for where, query in found.items() if query} == {}


#: The one body that is a file: the import template's upload (docs/import.md).
MULTIPART = {("/api/v1/imports", "post")}


def test_request_bodies_are_json_only(schema):
    bodies = {
        (path, method): op["requestBody"]
        for path, method, op in operations(schema)
        if "requestBody" in op
    }
    assert len(bodies) >= 25
    for where, body in bodies.items():
        expected = ["multipart/form-data"] if where in MULTIPART else ["application/json"]
        assert list(body["content"]) == expected, where


def test_requests_have_their_own_components_without_read_only_fields(schema):
    components = schema["components"]["schemas"]
    for path, method, operation in operations(schema):
        body = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if body is None or "$ref" not in body["schema"]:
            continue
        name = body["schema"]["$ref"].rsplit("/", 1)[1]
        assert name.endswith("Request"), (method, path, name)
        shape = components[name]
        for field, described in shape.get("properties", {}).items():
            assert not described.get("readOnly"), (name, field)
    assert "id" not in components["InvitationRequest"]["properties"]
    assert "token" not in components["InvitationRequest"]["properties"]
    assert "created_at" not in components["ClubRequest"].get("required", [])
    # The login: username and password asked, the token answered.
    assert set(components["TokenRequest"]["required"]) == {"username", "password"}
    assert components["Token"]["required"] == ["token"]


def test_the_login_answer_is_the_token_component(schema, people):
    people.member.set_password("a-long-password-1")
    people.member.save()
    answer = APIClient().post(
        "/api/v1/auth/token",
        {"username": "member", "password": "a-long-password-1"},
        format="json",
    )
    assert answer.status_code == 200
    validate(schema, "Token", answer.json())


def test_every_post_that_honours_a_key_declares_it(schema):
    posts = [(path, op) for path, method, op in operations(schema) if method == "post"]
    declared = [
        path
        for path, op in posts
        if any(
            p["name"] == "Idempotency-Key" and p["in"] == "header" for p in op.get("parameters", [])
        )
    ]
    # Every POST route of the URL configuration but the login and the sign-up, which have
    # no user to key on.
    anonymous = {"/api/v1/auth/token", "/api/v1/invitations/sign-up"}
    assert len(declared) == len(post_routes() - ANONYMOUS) == len(posts) - len(anonymous)
    assert not anonymous & set(declared)
    for path, op in posts:
        successes = [r for code, r in op["responses"].items() if code.startswith("2")]
        replayed = ["Idempotent-Replayed" in r.get("headers", {}) for r in successes]
        assert replayed == [path not in anonymous] * len(successes), path


def test_headers_are_declared_where_they_are_sent(schema):
    headers = schema["components"]["headers"]
    assert set(headers) == {"X-Request-ID", "ETag", "Idempotent-Replayed", "Retry-After"}
    for path, method, operation in operations(schema):
        for code, response in operation["responses"].items():
            if code in ("414", "431"):  # the web server's, in HTML
                continue
            declared = response.get("headers", {})
            assert "X-Request-ID" in declared, (method, path, code)
            assert ("Retry-After" in declared) == (code in ("429", "503")), (method, path, code)
    deal = schema["paths"]["/api/v1/deals/{id}"]["get"]["responses"]["200"]
    assert "ETag" in deal["headers"]
    correct = schema["paths"]["/api/v1/deals/{id}/correct"]["post"]["responses"]
    assert "ETag" in correct["201"]["headers"] and "ETag" in correct["412"]["headers"]


def test_refusals_that_carry_data_are_typed_and_a_500_has_its_id(schema):
    def body(path, code):
        response = schema["paths"][path]["post"]["responses"][code]
        return response["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]

    assert body("/api/v1/matches/{id}/deals", "409") == "DealConflict"
    assert body("/api/v1/deals/{id}/correct", "412") == "StaleVersion"
    assert body("/api/v1/nights", "500") == "ServerError"
    refusal = {"errors": [{"code": "x", "path": "", "message": "m", "params": {}}]}
    with pytest.raises(jsonschema.ValidationError):
        validate(schema, "StaleVersion", refusal)  # current is required
    with pytest.raises(jsonschema.ValidationError):
        validate(schema, "ServerError", refusal)  # so is a 500's request_id
    validate(schema, "ServerError", {**refusal, "request_id": "abc"})


def test_the_answers_sent_are_the_ones_described(schema, people, match):
    url = f"/api/v1/matches/{match.pk}/deals"
    scorer = api(people, "scorer")
    first = scorer.post(url, {"deal": SIDES, "number": 1}, format="json", HTTP_IDEMPOTENCY_KEY="a")
    again = scorer.post(url, {"deal": SIDES, "number": 1}, format="json", HTTP_IDEMPOTENCY_KEY="a")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again["Idempotent-Replayed"] == "true" and again["ETag"] == first["ETag"]
    assert first["X-Request-ID"]
    validate(schema, "Deal", first.json())

    taken = api(people, "director").post(url, {"deal": SMALL, "number": 1}, format="json")
    assert taken.status_code == 409
    validate(schema, "DealConflict", taken.json())
    assert taken.json()["stored"]["id"] == first.json()["id"]

    correct = f"/api/v1/deals/{first.json()['id']}/correct"
    body = {"deal": SMALL, "reason": "x"}
    fresh = scorer.post(correct, body, format="json", HTTP_IF_MATCH=first["ETag"])
    stale = scorer.post(correct, body, format="json", HTTP_IF_MATCH=first["ETag"])
    assert (fresh.status_code, stale.status_code) == (201, 412)
    validate(schema, "StaleVersion", stale.json())
    assert stale["ETag"] == fresh["ETag"] and stale.json()["current"]["version"] == 2


def test_each_operation_lists_its_refusal_codes_from_its_code(schema):
    """Read from the views and the services they call (``api.refusal_codes``): a deal's
    entry lists the conflict and the closed night; a correction its stale version and
    missing If-Match; a confirmation the enterer's own entry; each 404 its object."""

    def codes(path, method, status):
        return schema["paths"][path][method]["responses"][status]["x-codes"]

    assert {"deal.conflict", "night.closed"} <= set(
        codes("/api/v1/matches/{id}/deals", "post", "409")
    )
    assert "rules.rejected" in codes("/api/v1/matches/{id}/deals", "post", "400")
    assert codes("/api/v1/deals/{id}/correct", "post", "412") == ["deal.stale_version"]
    assert codes("/api/v1/deals/{id}/correct", "post", "428") == ["deal.if_match_required"]
    assert "deal.own_entry" in codes("/api/v1/deals/{id}/confirm", "post", "403")
    assert "table.number_taken" in codes("/api/v1/tables", "post", "409")
    assert "club.not_found" in codes("/api/v1/public/clubs/{slug}/matches/{id}", "get", "404")
    assert "match.not_found" in codes("/api/v1/public/clubs/{slug}/matches/{id}", "get", "404")
    assert codes("/api/v1/matches", "get", "404") == ["page.not_found"]
    assert codes("/api/v1/nights/{id}/settlement", "get", "404") == ["night.not_found"]
    # A read lists no write's status, though one handler serves both.
    assert "409" not in schema["paths"]["/api/v1/matches/{id}/deals"]["get"]["responses"]
    # The description says them too, for people.
    described = schema["paths"]["/api/v1/tables"]["post"]["responses"]["409"]["description"]
    assert "`table.number_taken`" in described


def test_every_refusal_code_listed_is_a_real_one(schema):
    """Each code listed is a Refusal's, a 404's or the contract's: none is made up."""
    from scorebook.core.refusals import Refusal

    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    known = {sub.code for sub in subclasses(Refusal)}
    for path, method, operation in operations(schema):
        for status, response in operation["responses"].items():
            for code in response.get("x-codes", []):
                assert (
                    code in known
                    or code.endswith(".not_found")
                    or code.startswith(("http.", "input.", "server.", "service."))
                ), (method, path, status, code)


def test_nullable_references_are_null_to_a_strict_validator(schema):
    """OpenAPI 3.0.3: ``nullable`` counts only beside a ``type``. A reference that may be
    null is ``anyOf: [{$ref}, {type: object, nullable: true, enum: [null]}]``."""

    def untyped_nullables(node, at=""):
        if isinstance(node, list):
            return [hit for i, item in enumerate(node) for hit in untyped_nullables(item, at)]
        if not isinstance(node, dict):
            return []
        own = [at] if node.get("nullable") and "type" not in node else []
        return own + [h for k, v in node.items() for h in untyped_nullables(v, f"{at}/{k}")]

    assert untyped_nullables(schema) == []
    outcome = schema["components"]["schemas"]["Match"]["properties"]["result"]
    assert outcome["anyOf"][0] == {"$ref": "#/components/schemas/Outcome"}
    # Null passes, an object passes, anything else does not (3.0 nullable as JSON Schema).
    validate_as(schema, outcome, None)
    ended = {"reason": "target", "winners": ["A"], "losers": ["B"], "multiplier": 1, "units": {}}
    validate_as(schema, outcome, ended)
    with pytest.raises(jsonschema.ValidationError):
        validate_as(schema, outcome, "none")
