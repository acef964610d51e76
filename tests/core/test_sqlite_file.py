"""The SQLite test database is a file per worker (tests/sqlite_file.py): the live server's
threads and the test's thread each have a connection, and a write waits for another
thread's transaction instead of failing "database table is locked"."""

import os
import threading

import pytest
from django.db import connection, connections, transaction

from tests import sqlite_file

pytestmark = pytest.mark.django_db(transaction=True)

sqlite_only = pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's test database")


@sqlite_only
def test_the_live_server_shares_no_connection_with_the_test(live_server):
    assert not connection.is_in_memory_db()
    assert live_server.thread.connections_override == {}
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"


@sqlite_only
def test_a_write_waits_for_another_thread_s_transaction(django_user_model):
    """A request's transaction in another thread holds the write lock for a moment; the
    test thread's write (a phone signing in) waits for it, and both land. On the shared
    in-memory database the second write failed at once: "database table is locked"."""
    holding, done, failed = threading.Event(), threading.Event(), []

    def request():
        try:
            with transaction.atomic():
                django_user_model.objects.create(username="in-the-server")
                holding.set()
                done.wait(0.5)
        except Exception as error:  # noqa: BLE001 - said by the assertion below
            failed.append(error)
            holding.set()
        finally:
            connections.close_all()

    server = threading.Thread(target=request)
    server.start()
    assert holding.wait(20)
    django_user_model.objects.create(username="in-the-test")
    done.set()
    server.join()
    assert not failed
    assert set(django_user_model.objects.values_list("username", flat=True)) == {
        "in-the-server",
        "in-the-test",
    }


def test_each_process_has_a_file_of_its_own(tmp_path, monkeypatch):
    monkeypatch.setattr(sqlite_file, "folder", lambda: tmp_path)
    monkeypatch.delenv("TEST_DB_FILE", raising=False)
    databases = {
        "default": {"ENGINE": "django.db.backends.sqlite3", "OPTIONS": {"timeout": 20}},
        "named": {"ENGINE": "django.db.backends.sqlite3", "TEST": {"NAME": "/x.sqlite3"}},
        "pg": {"ENGINE": "django.db.backends.postgresql", "TEST": {}},
    }
    (tmp_path / "test-default-999999999.sqlite3-wal").write_text("")  # a dead worker's
    sqlite_file.configure(databases)
    assert databases["default"]["TEST"]["NAME"] == str(
        tmp_path / f"test-default-{os.getpid()}.sqlite3"
    )
    assert databases["default"]["OPTIONS"]["timeout"] == 20
    assert "journal_mode=WAL" in databases["default"]["OPTIONS"]["init_command"]
    assert databases["named"]["TEST"]["NAME"] == "/x.sqlite3"
    assert "NAME" not in databases["pg"]["TEST"]
    assert not list(tmp_path.glob("*999999999*"))
