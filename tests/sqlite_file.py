"""The SQLite test database in a file per worker, in WAL mode, instead of in memory.

Django's SQLite test database is by default a shared-cache in-memory database, and its
live server (``LiveServerThread``, pytest-django's ``live_server``) then hands the test
thread's one connection to every request thread, because a second connection to a private
in-memory database would see another, empty database. The browser tests ran on that: the
test's thread (signing a phone in, reading what a save stored, flushing the tables after
the test) and the server's request threads used one ``sqlite3`` connection at once, with
one transaction state between them. What that gave in CI:

- "database table is locked" (SQLITE_LOCKED): a lock inside one connection or its shared
  cache, which SQLite's busy timeout does not wait on, when the test thread wrote while a
  request's statement was still open (``force_login``, the flush after a test);
- each thread's ``atomic()`` reading the other's ``in_atomic_block`` on the shared
  connection: a request entering a transaction the test thread (or another request) had
  open took a savepoint inside it instead of a transaction of its own.

A file gives every thread its own connection, as in production: the live server has no
connection to share (``is_in_memory_db()`` is false), writers wait for each other with
the settings' busy timeout and ``BEGIN IMMEDIATE``, and in WAL mode readers do not wait
for a writer. The file is in ``/dev/shm`` where there is one (memory, as before), one per
process (xdist workers, and other runs on the machine, each have their own), and dropped
at the end of the session as Django drops any file test database. ``synchronous=OFF``: a
test database need not survive a power cut.

TEST_DB_FILE=0 keeps Django's in-memory database.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Any

PRAGMAS = "PRAGMA journal_mode=WAL;PRAGMA synchronous=OFF"


def folder() -> Path:
    shm = Path("/dev/shm")
    base = shm if shm.is_dir() and os.access(shm, os.W_OK) else Path(tempfile.gettempdir())
    path = base / "scorebook-test-sqlite"
    path.mkdir(exist_ok=True)
    return path


def _forget_the_dead(path: Path) -> None:
    """Files left by a worker that was killed (Django drops the file only at the end)."""
    for stale in path.glob("test-*-*.sqlite3*"):
        pid = stale.name.split(".")[0].rsplit("-", 1)[-1]
        if not pid.isdigit():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            with contextlib.suppress(FileNotFoundError):
                stale.unlink()
        except PermissionError:
            pass  # alive, someone else's


def configure(databases: dict[str, Any]) -> None:
    """Point each SQLite alias's test database at a file of this process's own (unless a
    TEST NAME is set already) and open every connection to it in WAL mode."""
    if os.environ.get("TEST_DB_FILE", "1") == "0":
        return
    path = None
    for alias, database in databases.items():
        test = database.setdefault("TEST", {})
        if database["ENGINE"] != "django.db.backends.sqlite3" or test.get("NAME"):
            continue
        if test.get("MIRROR"):
            continue
        if path is None:
            path = folder()
            _forget_the_dead(path)
        test["NAME"] = str(path / f"test-{alias}-{os.getpid()}.sqlite3")
        options = database.setdefault("OPTIONS", {})
        before = options.get("init_command", "")
        options["init_command"] = f"{before};{PRAGMAS}" if before else PRAGMAS
