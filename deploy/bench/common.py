"""What the benches and checks under deploy/ share: the throw-away database each runs on,
the bench club, and waiting for the gunicorn they start.

Each run starts from an empty database of its own, so its figures never depend on what
an earlier run left behind. Imported as ``deploy.bench.common`` with the repository root
on ``sys.path`` (the scripts run as files, not as modules).
"""

from __future__ import annotations

import socket
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any


def fresh_database(url: str) -> None:
    """Make the database ``url`` names exist and be empty (migrating is the caller's).

    PostgreSQL: dropped and created again through the server's ``postgres`` database,
    ``WITH (FORCE)`` because a run stopped half-way can leave sessions open on it.
    SQLite: the file is deleted; Django creates it on first connection.
    """
    if url.startswith("sqlite"):
        Path(url.removeprefix("sqlite:///")).unlink(missing_ok=True)
        return
    import psycopg  # only the PostgreSQL runs need it

    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def free_port() -> int:
    """A port nothing listens on now (benches started side by side do not collide)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def bench_club() -> tuple[Any, Callable[[], Any]]:
    """A club with a scorer and a director, an open night and four players: what a deal
    needs before it can be entered. Returns the scorer and a maker of new matches
    (Tressette in four to 41, so five deals of 7-4 never end one). After django.setup().
    """
    from django.contrib.auth import get_user_model

    from scorebook.clubs.models import Club, Membership, Player
    from scorebook.matches import services

    users = get_user_model().objects
    scorer, director = users.create_user("bench-scorer"), users.create_user("bench-director")
    club = Club.objects.create(name="Bench club", slug="bench")
    Membership.objects.create(club=club, user=scorer, role="scorer")
    Membership.objects.create(club=club, user=director, role="director")
    night = services.night_open(club_id=club.pk, date="2026-11-22", venue="", user=director)
    players = [Player.objects.create(club=club, name=n) for n in "NESW"]
    seats = dict(zip("NESW", (p.pk for p in players), strict=True))

    def new_match():
        return services.match_create(
            night=night, game="tressette4", rules={"t4.target": 41}, seats=seats, user=scorer
        )

    return scorer, new_match


def wait_until_up(base: str, seconds: float = 180) -> None:
    """Return once the server at ``base`` answers ``/healthz`` at all. Its 503 counts: a
    bench runs no Celery worker, so with a broker the check is never ok, and it answers
    only after waiting HEALTHZ_TIMEOUT (2 s) for one, hence the long timeout here.
    Raises if nothing answers in time, rather than measuring nothing.
    """
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"{base}/healthz", timeout=15).close()
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{base} did not start in {seconds:.0f} s")


def copy_columns(model: Any, given: list[str]) -> tuple[str, str]:
    """What a COPY of ``model`` from generated text writes: the ``given`` columns (the
    caller's text, in this order) and then every other column of the table at its model
    default. Returns the column list for ``COPY table (...)`` and the text to append to
    each row (tab-led). A column added to the model later is filled by its default, so a
    bench loader does not stop at a new column (``matches_match.ended_reason`` stopped
    ``make bench-standings`` with a NotNullViolation); a NOT NULL column with no default
    that the loader does not give is refused here, by name, before anything is written.
    """
    import json

    fields = [f for f in model._meta.concrete_fields if f.column not in given]
    extra = []
    for field in fields:
        value = field.get_default()
        if value is None and not field.null:
            raise SystemExit(
                f"{model._meta.db_table}.{field.column} is NOT NULL with no default: "
                "give it a value in the bench's COPY"
            )
        if value is None:
            extra.append("\\N")
        elif field.get_internal_type() == "JSONField":
            extra.append(_copy_text(json.dumps(value)))
        elif isinstance(value, bool):
            extra.append("t" if value else "f")
        else:
            extra.append(_copy_text(str(value)))
    columns = ", ".join([*given, *(f.column for f in fields)])
    return columns, "".join("\t" + text for text in extra)


def _copy_text(text: str) -> str:
    """A value in COPY's text format: backslash, tab and line breaks escaped."""
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
