"""The three reads of deal entry's hot path written as plain SQL, and why.

Every API deal entry (and correction) looks up the caller's token, locks its match and
reads the night's status, its club, the caller's role and whether the caller sits at the
match (the side entering the deal, ``Deal.entered_side``). Building those statements
through the ORM cost about a third of a deal entry's Python time. In one process on
PostgreSQL (``make bench-deal-profile``, 200 interleaved requests, median Python CPU per
request on the shared 2-core machine): deal entry 8.8-10.6 ms with the ORM reads, the
bare INSERT view 1.6-2.0 ms (ratio 0.18-0.19); with these reads the ratio is the one in
docs/performance.md.

Only documented API: ``Manager.raw()`` (it returns ordinary model instances, so every
write still goes through ``save()``) and ``connection.cursor()``, with table and column
names read from the models' ``_meta`` (the documented Model _meta API). Nothing here
writes.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.apps import apps
from django.db import connection


def _table(label: str) -> Any:
    return apps.get_model(label)._meta


#: Where the night statement takes the match's seated players (one placeholder each).
SEATS = "/*seats*/"


@cache
def _statements(vendor: str) -> dict[str, str]:
    match, night, member, player = (
        _table(m) for m in ("matches.Match", "matches.Night", "clubs.Membership", "clubs.Player")
    )
    user, token = _table("auth.User"), _table("authtoken.Token")
    m, n, c, u, t = match.db_table, night.db_table, member.db_table, user.db_table, token.db_table
    lock = f'SELECT "{m}".* FROM "{m}" WHERE "{m}"."{match.pk.column}" = %s'
    if vendor == "postgresql":
        lock += " FOR UPDATE"  # SQLite has no row locks: its write lock serializes
    club = night.get_field("club").column
    c_club, c_user = member.get_field("club").column, member.get_field("user").column
    p, p_id, p_user = player.db_table, player.pk.column, player.get_field("user").column
    return {
        "lock": lock,
        "night": (
            f'SELECT "{n}"."status", "{n}"."{club}", "{c}"."role", '
            # the caller's player among the match's seats (deal entry: whose side enters)
            f'(SELECT MIN("{p}"."{p_id}") FROM "{p}" WHERE "{p}"."{p_user}" = %s '
            f'AND "{p}"."{p_id}" IN ({SEATS})) '
            f'FROM "{n}" '
            f'JOIN "{c}" ON "{c}"."{c_club}" = "{n}"."{club}" AND "{c}"."{c_user}" = %s '
            f'WHERE "{n}"."{night.pk.column}" = %s'
        ),
        "token": (
            f'SELECT "{u}".* FROM "{u}" '
            f'JOIN "{t}" ON "{t}"."{token.get_field("user").column}" = "{u}"."{user.pk.column}" '
            f'WHERE "{t}"."{token.pk.column}" = %s'
        ),
    }


def _sql(name: str) -> str:
    return _statements(connection.vendor)[name]


def match_locked(match_id: int) -> Any:
    """The match row, locked FOR UPDATE until the transaction ends; None if missing."""
    found = list(apps.get_model("matches.Match").objects.raw(_sql("lock"), [match_id]))
    return found[0] if found else None


def night_status_club_role(
    night_id: int, user_id: int | None, seated: list[int] | tuple[int, ...] = ()
) -> tuple[str, int, str, int | None] | None:
    """The night's status, its club, ``user_id``'s role there and the player of theirs
    among ``seated`` (the match's players; None when they sit nowhere there); None for
    outsiders. One statement: the player is a subquery of it."""
    players = [int(pid) for pid in seated] or [0]
    sql = _sql("night").replace(SEATS, ", ".join(["%s"] * len(players)))
    with connection.cursor() as cursor:
        cursor.execute(sql, [user_id, *players, user_id, night_id])
        row = cursor.fetchone()
    return (row[0], row[1], row[2], row[3]) if row else None


def user_of_token(key: str) -> Any:
    """The user whose API token ``key`` is, or None."""
    found = list(apps.get_model("auth.User").objects.raw(_sql("token"), [key]))
    return found[0] if found else None
