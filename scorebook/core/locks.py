"""A lock on a name, for a fact no unique constraint of the database can see.

``auth.User``'s username is unique as typed, but the sign-up refuses a name taken in any
case ("Nuovo" beside "nuovo"): two sign-ups of "nuovo" and "NUOVO" at the same moment each
found the other's row not there yet and both were made. ``name_lock`` makes such checks
take turns, per name, until the transaction ends.
"""

from __future__ import annotations

import hashlib

from django.db import connection


def name_lock(kind: str, name: str) -> None:
    """Wait for any other transaction holding the lock of ``kind``'s ``name`` (in any case)
    and hold it until this transaction ends. PostgreSQL: a transaction-level advisory
    lock; SQLite has one writer at a time already (IMMEDIATE transactions)."""
    if connection.vendor != "postgresql":
        return
    digest = hashlib.blake2b(f"{kind}\x1f{name.casefold()}".encode(), digest_size=8).digest()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [int.from_bytes(digest, signed=True)])
