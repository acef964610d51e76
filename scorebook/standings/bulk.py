"""The bulk writer of the derived tables: new rows given as tuples, COPY on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection


def bulk_insert(model: Any, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """Insert new rows given as tuples of ``columns`` (attribute names; JSON columns as
    Python values): COPY on PostgreSQL, the values adapted by psycopg's C code (no model
    instances: a rebuild writes a row per player and rated match), else bulk_create."""
    rows = list(rows)
    if not rows:
        return
    if connection.vendor != "postgresql":
        model.objects.bulk_create(
            [model(**dict(zip(columns, row, strict=True))) for row in rows], batch_size=1000
        )
        return
    from psycopg.types.json import Jsonb

    fields = {f.attname: f for f in model._meta.concrete_fields}
    json_at = [i for i, c in enumerate(columns) if fields[c].get_internal_type() == "JSONField"]
    names = ", ".join(connection.ops.quote_name(fields[c].column) for c in columns)
    table = connection.ops.quote_name(model._meta.db_table)
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy,
    ):
        for row in rows:
            if json_at:
                row = list(row)
                for i in json_at:
                    row[i] = Jsonb(row[i])
            copy.write_row(row)
