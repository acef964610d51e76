"""The hot path's plain-SQL rows read and write what the ORM would."""

import datetime
import uuid
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from scorebook.core import rows
from scorebook.matches import services
from scorebook.matches.models import Deal, IdempotencyKey, Match
from tests.api.common import SIDES

FIELDS = tuple(f.name for f in Match._meta.concrete_fields)


@pytest.fixture
def match(people):
    director = people.director
    night = services.night_open(club_id=people.club.pk, date="2026-11-20", venue="", user=director)
    n, e, s, w = people.seated
    return services.match_create(
        night=night,
        game="tressette4",
        rules={},
        seats={"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk},
        user=people.scorer,
    )


def read_back(model, pk):
    """The row as a queryset reads it, field by field."""
    found = model.objects.get(pk=pk)
    return {f.attname: getattr(found, f.attname) for f in model._meta.concrete_fields}


def fetch(model, names, pk):
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {rows.columns(model, names, 't')} FROM {model._meta.db_table} t"
            " WHERE t.id = %s",
            [pk],
        )
        return cursor.fetchone()


def test_load_converts_each_column_as_a_queryset_does(match):
    Match.objects.filter(pk=match.pk).update(stake_amount=Decimal("2.50"), result={"x": [1]})
    loaded = rows.load(Match, FIELDS, fetch(Match, FIELDS, match.pk))
    assert {f.attname: getattr(loaded, f.attname) for f in Match._meta.concrete_fields} == (
        read_back(Match, match.pk)
    )
    assert loaded.stake_amount == Decimal("2.50") and isinstance(loaded.stake_amount, Decimal)
    assert loaded.created_at.tzinfo is not None
    assert loaded._state.adding is False


def test_load_defers_the_fields_it_was_not_given(match):
    names = ("id", "game", "seats")
    loaded = rows.load(Match, names, fetch(Match, names, match.pk))
    assert loaded.get_deferred_fields() >= {"state", "result", "rules"}
    assert loaded.rules == match.rules  # read on first use, as with .only()


def test_load_reads_a_user_with_aware_datetimes(people):
    user = people.scorer
    names = tuple(f.name for f in get_user_model()._meta.concrete_fields)
    loaded = rows.load(get_user_model(), names, fetch(get_user_model(), names, user.pk))
    assert loaded == user and loaded.username == "scorer" and loaded.is_active
    assert loaded.date_joined == user.date_joined and loaded.date_joined.tzinfo is not None


def test_insert_writes_what_save_would(match, people):
    client_id = uuid.uuid4()
    deal = rows.insert(
        Deal(
            match=match,
            number=1,
            input=SIDES,
            level="totals",
            result={"points": {"A": 7, "B": 4}, "note": None},
            entered_by=people.scorer,
            client="phone",
            client_id=client_id,
        )
    )
    assert deal.pk is not None and deal._state.adding is False
    stored = read_back(Deal, deal.pk)
    assert stored["input"] == SIDES and stored["result"] == {
        "points": {"A": 7, "B": 4},
        "note": None,
    }
    assert stored["client_id"] == client_id and stored["is_current"] is True
    assert stored["version"] == 1 and stored["supersedes_id"] is None
    assert stored["entered_at"] == deal.entered_at  # auto_now_add filled in, as save() does
    assert abs(deal.entered_at - datetime.datetime.now(datetime.UTC)) < datetime.timedelta(
        minutes=1
    )


def test_insert_stores_a_null_json_as_sql_null(people):
    key = rows.insert(
        IdempotencyKey(user=people.scorer, key="k", method="POST", path="/p", body_hash="h")
    )
    assert IdempotencyKey.objects.filter(pk=key.pk, response__isnull=True).exists()


def test_update_writes_the_named_fields_only(match):
    match.state = {"totals": {"A": 3}}
    match.result = None
    match.version = 7
    match.game = "not written"
    rows.update(match, ("state", "result", "version"))
    stored = read_back(Match, match.pk)
    assert stored["state"] == {"totals": {"A": 3}} and stored["result"] is None
    assert stored["version"] == 7 and stored["game"] == "tressette4"


def test_update_of_a_row_that_is_gone_raises(match):
    Match.objects.filter(pk=match.pk).delete()
    with pytest.raises(Match.DoesNotExist):
        rows.update(match, ("version",))
