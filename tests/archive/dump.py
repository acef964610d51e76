"""The whole test database as text, table by table, and a search of it for a person's
names (issue 31: after an erasure the database holds the name nowhere).

Every table the database has (the models' and the others: the cache, the migrations),
read with SQL row by row, every value as text (JSON as JSON without escapes, bytes as
Latin-1); sessions once more decoded (they are stored encoded); and on PostgreSQL the
output of ``pg_dump`` of the test database as well, when the tool is installed (the
rows must be committed for it to see them: a ``transaction=True`` test).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterable, Iterator
from typing import Any

from django.contrib.sessions.models import Session
from django.db import connection

from tests.archive.crawl import holding_text


def _text(value: Any) -> str:
    if isinstance(value, (bytes, memoryview)):
        return bytes(value).decode("latin-1")
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, str) and value[:1] in "[{":
        try:
            return json.dumps(json.loads(value), ensure_ascii=False)
        except ValueError:
            return value
    return "" if value is None else str(value)


def rows() -> Iterator[tuple[str, str]]:
    """(table, a row as text) for every row of every table, and each session decoded."""
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
            for row in cursor.fetchall():
                yield table, " | ".join(_text(value) for value in row)
    for session in Session.objects.all():
        yield "django_session (decoded)", _text(session.get_decoded())


def pg_dump() -> str | None:
    """``pg_dump`` of the test database's data, on PostgreSQL with the tool installed."""
    if connection.vendor != "postgresql" or shutil.which("pg_dump") is None:
        return None
    settings = connection.settings_dict
    command = ["pg_dump", "--data-only", "--no-owner", "--dbname", settings["NAME"]]
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if settings.get(key):
            command += [flag, str(settings[key])]
    env = {**os.environ, "PGPASSWORD": str(settings.get("PASSWORD") or "")}
    done = subprocess.run(command, capture_output=True, env=env, check=True, timeout=300)
    return done.stdout.decode("utf-8", "replace")


def holding(names: Iterable[str]) -> list[str]:
    """Where the database holds one of ``names`` (any case, any spelling): each row's
    table and its first 200 characters, and the pg_dump lines."""
    names = list(names)
    found = [f"{table}: {text[:200]}" for table, text in rows() if holding_text(text, names)]
    dumped = pg_dump()
    if dumped is not None:
        found += [
            f"pg_dump: {line[:200]}" for line in dumped.splitlines() if holding_text(line, names)
        ]
    return found
