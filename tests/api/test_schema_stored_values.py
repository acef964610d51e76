"""Every value a stored row may hold fits the answer's schema (issue 23, after CI's stop 29).

Schemathesis met a league of any game (``game: ""``) where the public schema said
``GameKey``: DRF drops ``allow_blank`` from a read-only model field, so the schema was
narrower than what the model lets a row hold. The same can happen wherever an answer's
field reads a model field that may be null (or reads through a relation that may be null)
or blank, and its schema does not say so. This walks every answer component the schema
generator made from a model serializer and asks, field by field, whether ``null`` (a
nullable column, or a nullable relation on the way) and ``""`` (a blank text column) are
valid for the property as the schema states it."""

import json
from typing import Any

import jsonschema
import pytest
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from drf_spectacular.generators import SchemaGenerator
from rest_framework import serializers

from tests.api.shapes import validate_as


def _schema_and_serializers() -> tuple[dict[str, Any], list[tuple[str, Any]]]:
    generator = SchemaGenerator()
    schema = json.loads(json.dumps(generator.get_schema(request=None, public=True), default=str))
    found = []
    for (name, kind), component in generator.registry._components.items():
        if kind != "schemas" or name.endswith("Request"):  # answers only
            continue
        serializer = component.object
        if isinstance(serializer, type) and issubclass(serializer, serializers.BaseSerializer):
            serializer = serializer()
        if isinstance(serializer, serializers.ModelSerializer):
            found.append((name, serializer))
    return schema, found


def _may_hold(serializer: Any, field: Any) -> tuple[bool, bool] | None:
    """(may be null, may be blank) for a field that reads a model field, else None."""
    model = serializer.Meta.model
    if field.source == "*" or not field.source_attrs:
        return None
    nullable = False
    model_field: Any = None
    for i, attr in enumerate(field.source_attrs):
        try:
            model_field = model._meta.get_field(attr)
        except FieldDoesNotExist:
            return None  # a property or a method: the model does not say
        if model_field.one_to_many or model_field.many_to_many:
            return None  # a list, never null
        nullable = nullable or bool(getattr(model_field, "null", False))
        if i < len(field.source_attrs) - 1:
            if model_field.related_model is None:
                return None
            model = model_field.related_model
    blank = bool(getattr(model_field, "blank", False)) and isinstance(
        model_field, models.CharField | models.TextField
    )
    return nullable, blank and isinstance(field, serializers.CharField | serializers.ChoiceField)


def _narrow() -> list[str]:
    schema, found = _schema_and_serializers()
    narrow = []
    for name, serializer in found:
        properties = schema["components"]["schemas"].get(name, {}).get("properties", {})
        for field_name, field in serializer.fields.items():
            if field.write_only or field_name not in properties:
                continue
            holds = _may_hold(serializer, field)
            if holds is None:
                continue
            for may, value in zip(holds, (None, ""), strict=True):
                if not may:
                    continue
                try:
                    validate_as(schema, properties[field_name], value)
                except jsonschema.ValidationError:
                    narrow.append(f"{name}.{field_name} ({field.source}): {value!r}")
    return narrow


@pytest.mark.django_db
def test_every_value_a_stored_row_may_hold_fits_its_answers_schema():
    assert _narrow() == []


def test_the_walk_finds_what_it_looks_for():
    """The walk reads real components: a league's game may be blank, a deal's
    supersedes may be null, and both are found and pass."""
    _schema, found = _schema_and_serializers()
    names = {name for name, _serializer in found}
    assert {"League", "PublicLeague", "Deal", "Tournament"} <= names
    league = dict(found)["League"]
    assert _may_hold(league, league.fields["game"]) == (False, True)
    deal = dict(found)["Deal"]
    assert _may_hold(deal, deal.fields["supersedes"])[0] is True
    assert _may_hold(deal, deal.fields["entered_by"])[0] is True  # a deleted account


@pytest.mark.django_db
def test_a_tournament_without_money_and_a_deal_of_a_deleted_account_fit_their_schemas(people):
    """The two the walk found, as answered over HTTP: a tournament with no fee (its
    currency blank: ``""`` fitted both branches of the schema's ``oneOf``, so neither) and a
    deal whose account was deleted since (``entered_by`` null, the schema said string)."""
    from scorebook.matches.models import Deal
    from tests.api.common import SIDES, api
    from tests.api.shapes import answer_schema, live_schema
    from tests.tournaments.helpers import open_night, tournament

    schema = live_schema()
    night = open_night(people)
    free = tournament(people, night)
    assert free.currency == ""
    director = api(people, "director")
    answer = director.get(f"/api/v1/tournaments/{free.pk}")
    assert answer.status_code == 200
    validate_as(
        schema, answer_schema(schema, "/api/v1/tournaments/{id}", "get", "200"), answer.json()
    )

    from django.contrib.auth import get_user_model

    from scorebook.matches import services

    n, e, s, w = people.seated
    match = services.match_create(
        night=night,
        game="tressette4",
        rules={"profile": "classic_21"},
        seats={"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk},
        user=people.director,
    )
    leaver = get_user_model().objects.create_user("leaver", password="x")
    from scorebook.clubs.models import Membership

    Membership.objects.create(club=people.club, user=leaver, role="scorer")
    deal = services.deal_create(match=match, data=SIDES, expected_number=1, user=leaver)
    leaver.delete()
    assert Deal.objects.get(pk=deal.pk).entered_by is None
    answer = director.get(f"/api/v1/deals/{deal.pk}")
    assert answer.status_code == 200, answer.content
    assert answer.json()["entered_by"] is None
    validate_as(schema, answer_schema(schema, "/api/v1/deals/{id}", "get", "200"), answer.json())
