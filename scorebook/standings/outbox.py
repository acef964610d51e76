"""The standings' outbox. A write to the match record calls ``stale_mark`` in its own
transaction: one ``StaleMark`` row, and a refresh scheduled once the transaction commits
(``transaction.on_commit``) by a background publisher, so the request never waits on the
broker. A mark that no task handled (the broker was down, the worker died) is found by the
beat sweeper (``tasks.sweep_stale_standings``). What a refresh does: ``refresh``.
"""

from __future__ import annotations

import contextvars
import logging
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.db import transaction

from . import tasks
from .models import StaleMark

log = logging.getLogger(__name__)


def stale_mark(
    *,
    club_id: int,
    night_id: int | None = None,
    season_id: int | None = None,
    match_id: int | None = None,
    deal_id: int | None = None,
):
    """Record, in the caller's transaction, what of the club's standings must be brought
    up to date: the match (and the deal) that changed, or a night's matches, or a
    season's rows, or everything when none is named; and schedule the refresh once the
    transaction commits: on the entry queue, or on the bulk queue for the whole club's
    rebuild (settings.CELERY_TASK_ROUTES)."""
    StaleMark.objects.create(
        club_id=club_id,
        night_id=night_id,
        season_id=season_id,
        match_id=match_id,
        deal_id=deal_id,
    )
    if match_id is None and night_id is None and season_id is None:
        transaction.on_commit(lambda: schedule(club_id, rebuild=True))
    else:
        transaction.on_commit(lambda: schedule(club_id))


#: Clubs whose refresh is held in this context (``held``).
_HELD: contextvars.ContextVar[frozenset[int]] = contextvars.ContextVar("held", default=frozenset())


@contextmanager
def held(club_id: int) -> Iterator[None]:
    """Write many transactions to the club's record without a refresh after each: the
    marks are written as always, and the caller rebuilds (or schedules) once at the end.
    The history import (hundreds of nights, one transaction each) uses it."""
    token = _HELD.set(_HELD.get() | {club_id})
    try:
        yield
    finally:
        _HELD.reset(token)


def schedule(club_id: int, *, rebuild: bool = False) -> None:
    """Ask a worker to refresh the club (``rebuild``: its seasons' or whole rebuild, the
    bulk queue's task). Eager mode (no broker: a single small box, the tests) runs it
    here; with a broker a background thread publishes it, so a broker that is down or
    slow never holds up the request that committed the change."""
    if club_id in _HELD.get():
        return
    task = tasks.rebuild_standings if rebuild else tasks.refresh_standings
    if settings.CELERY_TASK_ALWAYS_EAGER:
        task.apply((club_id,), throw=True)
    else:
        PUBLISHER.submit(club_id, task.name)


class Publisher:
    """Publishes refresh tasks from one daemon thread per process; club ids submitted
    within ``window`` seconds of each other are coalesced into one message each, so a
    club whose tables enter a deal every few milliseconds costs one publish per window,
    not one per deal (the freshness target, 2 s, leaves room for a short window)."""

    def __init__(self, broker_url: str | None = None, window: float = 0.25) -> None:
        self.broker_url = broker_url  # None: the app's broker (a test points it elsewhere)
        self.window = window
        self._pending: set[tuple[str, int]] = set()  # (task name, club id)
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._pid = 0
        self.published = 0  # publish attempts, done or failed

    def submit(self, club_id: int, task: str = tasks.refresh_standings.name) -> None:
        with self._wake:
            self._pending.add((task, club_id))
            if self._thread is None or not self._thread.is_alive() or self._pid != os.getpid():
                self._pid = os.getpid()  # a forked worker starts its own thread
                self._thread = threading.Thread(
                    target=self._run, name="standings-publisher", daemon=True
                )
                self._thread.start()
            self._wake.notify()

    def _run(self) -> None:
        from kombu.exceptions import KombuError, OperationalError

        app = tasks.refresh_standings.app
        while True:
            with self._wake:
                while not self._pending:
                    self._wake.wait()
            time.sleep(self.window)  # let the burst gather: one message per club and task
            with self._wake:
                sends, self._pending = self._pending, set()
            for task, club_id in sorted(sends):
                # send_task only ever publishes: unlike apply_async it never runs the task
                # in this thread, even if the app is switched to eager meanwhile (a test
                # that ends while this thread waits on a hung broker), so this thread
                # never touches the database. It routes by the task's name (the queues).
                try:
                    if self.broker_url is None:
                        app.send_task(task, (club_id,), retry=False)
                    else:
                        with app.connection_for_write(self.broker_url) as conn:
                            app.send_task(task, (club_id,), retry=False, connection=conn)
                except (OperationalError, KombuError, OSError) as error:
                    # The mark stays; the beat sweeper schedules it when the broker is back.
                    log.warning("standings refresh of club %s not published: %s", club_id, error)
                self.published += 1


PUBLISHER = Publisher()
