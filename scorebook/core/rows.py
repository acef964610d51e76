"""Read and write one model row without the ORM's query building: the deal-entry hot path.

On the bench machine, building an ORM query cost more CPU than PostgreSQL spent running
it, and deal entry reads two rows and writes three per request. These helpers do what
the ORM would, with statements built once per model: ``insert`` and ``update`` write the
very column values ``Model.save`` would (each field's ``pre_save`` and
``get_db_prep_save``: defaults, ``auto_now_add`` and JSON encoding are the same), and
``load`` turns a row of plain SQL into an instance through the same converters a
queryset applies. They send no model signals: use them only for models nothing listens
to, and only for plain models (no multi-table inheritance).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.db import connection, models


@cache
def _reader(
    model: type[models.Model], names: tuple[str, ...], vendor: str
) -> tuple[list[str], tuple[tuple[int, Any, list[Any]], ...]]:
    meta = model._meta
    fields = [meta.get_field(name) for name in names]
    converters = []
    for i, field in enumerate(fields):
        column = field.get_col(meta.db_table)
        found = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        if found:
            converters.append((i, column, found))
    return [f.attname for f in fields], tuple(converters)


def columns(model: type[models.Model], names: tuple[str, ...], alias: str) -> str:
    """The select list for ``names`` of ``model`` from table ``alias``, for ``load``."""
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(model._meta.get_field(n).column)}" for n in names)


def load(model: type[models.Model], names: tuple[str, ...], row: Any) -> Any:
    """An instance from the first ``len(names)`` values of ``row``, read as a queryset
    reads them; fields not named are deferred."""
    attnames, converters = _reader(model, names, connection.vendor)
    values = list(row[: len(attnames)])
    for i, column, functions in converters:
        for convert in functions:
            values[i] = convert(values[i], column, connection)
    return model.from_db(connection.alias, attnames, values)


@cache
def _insert_sql(model: type[models.Model], vendor: str) -> tuple[str, tuple[Any, ...]]:
    meta = model._meta
    fields = tuple(f for f in meta.concrete_fields if not f.primary_key)
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    sql = (
        f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({marks})"
        f" RETURNING {quote(meta.pk.column)}"
    )
    return sql, fields


def insert(obj: models.Model) -> models.Model:
    """INSERT ``obj`` as ``obj.save(force_insert=True)`` would; sets its primary key."""
    sql, fields = _insert_sql(type(obj), connection.vendor)
    values = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        obj.pk = cursor.fetchone()[0]
    obj._state.adding = False
    obj._state.db = connection.alias
    return obj


@cache
def _update_sql(
    model: type[models.Model], names: tuple[str, ...], vendor: str
) -> tuple[str, tuple[Any, ...]]:
    meta = model._meta
    fields = tuple(meta.get_field(name) for name in names)
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(f.column)} = %s" for f in fields)
    sql = f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %s"
    return sql, fields


def update(obj: models.Model, names: tuple[str, ...]) -> None:
    """UPDATE the named fields of ``obj`` as ``obj.save(update_fields=names)`` would."""
    sql, fields = _update_sql(type(obj), names, connection.vendor)
    values = [f.get_db_prep_save(f.pre_save(obj, False), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*values, obj.pk])
        if cursor.rowcount != 1:
            raise type(obj).DoesNotExist(f"{type(obj).__name__} {obj.pk} is gone")
