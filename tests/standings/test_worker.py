"""Freshness with a real Celery worker and beat against a real Redis (not eager mode).

Runs in ``.ci/run``'s PostgreSQL + Redis pass (``CELERY_BROKER_URL`` set, PostgreSQL,
``redis-server`` installed). Each test starts its own redis-server on a free port (so
stopping it disturbs nobody) and a worker with embedded beat on the test database. Every
wait is bounded; nothing here measures speed (``make bench-standings`` does).
"""

import datetime
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.db import transaction

from scorebook.clubs.models import Club, Membership, Player
from scorebook.matches import services as matches
from scorebook.standings import outbox
from scorebook.standings.models import LeaderboardRow, Season, StaleMark
from tests.redis_server import Redis, until

from .conftest import A_WINS_DEAL

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.environ.get("CELERY_BROKER_URL") or not shutil.which("redis-server"),
        reason="needs a broker pass (CELERY_BROKER_URL) and redis-server: run by .ci/run",
    ),
]
ROOT = Path(__file__).resolve().parents[2]


class Worker:
    """A worker with embedded beat consuming both queues, or (``queues``) only those named,
    as the production units run one per queue (deploy/systemd)."""

    def __init__(self, broker: str, tmp: Path, queues: tuple[str, ...] = (), beat=True) -> None:
        db = django_settings.DATABASES["default"]
        self.env = {
            **os.environ,
            "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
            "CELERY_BROKER_URL": broker,
            "STANDINGS_SWEEP_EVERY": "1",
            "STANDINGS_SWEEP_AFTER": "1",
        }
        self.tmp = tmp
        self.proc: subprocess.Popen | None = None
        name = "-".join(queues) or "worker"
        self.log = tmp / f"{name}.log"
        self.options = ["-Q", ",".join(queues), "-n", f"{name}@%h"] if queues else []
        if beat:
            self.options += ["--beat", "--schedule", str(tmp / "beat-schedule")]

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "scorebook.celery", "worker",
             "--pool=solo", "--loglevel=INFO", "--without-gossip", "--without-mingle",
             "--logfile", str(self.log), *self.options],
            cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,  # its own group: the embedded beat goes with it
        )  # fmt: skip
        until(lambda: self.log.exists() and "ready." in self.log.read_text(), "worker ready")

    def kill(self) -> None:
        if self.proc is not None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=20)
            self.proc = None


@pytest.fixture
def stack(tmp_path, settings, monkeypatch):
    from scorebook.celery import app

    redis = Redis(tmp_path)
    redis.start()
    worker = Worker(redis.url, tmp_path)
    worker.start()
    settings.CELERY_TASK_ALWAYS_EAGER = False
    was = app.conf.task_always_eager
    app.conf.task_always_eager = False
    monkeypatch.setattr(outbox, "PUBLISHER", outbox.Publisher(broker_url=redis.url))
    yield redis, worker
    app.conf.task_always_eager = was
    worker.kill()
    redis.stop()


@pytest.fixture
def home():
    user = get_user_model().objects.create_user("director")
    club = Club.objects.create(name="Circolo", slug="circolo")
    Membership.objects.create(club=club, user=user, role="owner")
    players = [Player.objects.create(club=club, name=n) for n in ("Nino", "Ettore", "Salvo", "W")]
    Season.objects.create(club=club, name="S", starts_on=datetime.date(2026, 9, 1))
    night = matches.night_open(
        club_id=club.pk, date=datetime.date(2026, 11, 20), venue="", user=user
    )
    return club, user, players, night


def play(home, deals=3):
    club, user, players, night = home
    n, e, s, w = players
    match = matches.match_create(
        night=night,
        game="tressette4",
        rules={"profile": "classic_21"},
        seats={"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk},
        user=user,
    )
    for _ in range(deals):
        matches.deal_create(match=match, data=A_WINS_DEAL, expected_number=None, user=user)
    return match


def won(club, player) -> int:
    row = LeaderboardRow.objects.filter(club=club, game="", player=player).first()
    return row.won if row else 0


def test_a_deal_shows_in_the_leaderboard(stack, home):
    club, _, players, _ = home
    play(home)
    until(lambda: won(club, players[0]) == 1, "the finished match in the leaderboard")
    until(lambda: not StaleMark.objects.exists(), "every mark handled")


def test_worker_killed_mid_rebuild_loses_nothing(stack, home):
    _, worker = stack
    club, _, players, _ = home
    for _ in range(12):  # enough matches that a rebuild takes a while
        play(home)
    until(lambda: "received" in worker.log.read_text(), "the refresh task received", 20)
    worker.kill()  # SIGKILL: no chance to finish or acknowledge
    play(home)
    worker.start()
    until(lambda: won(club, players[0]) == 13, "all 13 matches counted after the restart")
    until(lambda: not StaleMark.objects.exists(), "every mark handled")


def test_redis_stopped_during_deal_entry(stack, home):
    redis, _ = stack
    club, _, players, _ = home
    play(home)
    until(lambda: won(club, players[0]) == 1, "first match counted")
    redis.stop()
    play(home)  # answers: the publish fails in the background, the mark stays
    assert StaleMark.objects.filter(club=club).exists()
    redis.start()
    until(lambda: won(club, players[0]) == 2, "the second match counted after Redis returned")
    until(lambda: not StaleMark.objects.exists(), "every mark handled")


def rebuild_marked(club) -> None:
    """A mark naming nothing (an import undone): the club's rebuild, the bulk queue's."""
    with transaction.atomic():
        outbox.stale_mark(club_id=club.pk)


def test_each_queue_has_its_worker_and_a_bulk_worker_killed_loses_nothing(tmp_path, stack, home):
    redis, both = stack
    both.kill()
    entry = Worker(redis.url, tmp_path, ("entry",))
    entry.start()
    club, _, players, _ = home
    try:
        play(home)
        until(lambda: won(club, players[0]) == 1, "a deal's refresh on the entry queue")
        rebuild_marked(club)
        time.sleep(3)  # the sweeper runs every second: it sends the rebuild, nobody takes it
        assert StaleMark.objects.filter(club=club).count() == 1, "no bulk worker: it waits"
        bulk = Worker(redis.url, tmp_path, ("bulk",), beat=False)
        for _ in range(12):  # enough matches that the rebuild takes a while
            play(home)
        bulk.start()
        until(lambda: "rebuild_standings" in bulk.log.read_text(), "the rebuild received", 20)
        bulk.kill()  # SIGKILL: no chance to finish or acknowledge
        bulk.start()
        until(lambda: won(club, players[0]) == 13, "all 13 matches counted")
        until(lambda: not StaleMark.objects.exists(), "the rebuild's mark handled")
        bulk.kill()
    finally:
        entry.kill()
