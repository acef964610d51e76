"""The Celery worker survives losing Redis, and its unit restarts it if it ever exits.

The worker used to stop ("Unrecoverable error: AttributeError ... 'hostname'") in about
3 of 10 Redis kills: whenever a message was unacknowledged at that moment, kombu's Redis
channel built a connection pool from its already closed transport (scorebook/core/broker.py
explains). Until someone restarted it the standings stayed pending.

Each test starts its own redis-server on a free port (stopping it disturbs nobody). The
worker runs with the arguments of deploy/systemd/scorebook-worker.service under a small
supervisor that follows the unit's ``Restart=`` and ``RestartSec=`` as systemd does.
"""

from __future__ import annotations

import configparser
import os
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

from tests.deploy.server import ROOT
from tests.redis_server import Redis, until

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server"),
]
UNIT = ROOT / "deploy" / "systemd" / "scorebook-worker.service"  # the entry queue's
UNITS = [UNIT, ROOT / "deploy" / "systemd" / "scorebook-worker-bulk.service"]
ENTRY = "entry"  # the queue UNIT consumes (its -Q; settings.CELERY_QUEUE_ENTRY)
TRANSPORT = "scorebook.core.broker:Transport"


@pytest.fixture
def redis_server(tmp_path):
    server = Redis(tmp_path)
    server.start()
    yield server
    server.kill()


def unit(path: Path = UNIT) -> dict[str, str]:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(path)
    return dict(parser["Service"])


def seconds(value: str) -> float:
    """systemd's time span as RestartSec= takes it: '2', '2s', '500ms' (default 100ms)."""
    value = value.strip()
    if value.endswith("ms"):
        return float(value[:-2]) / 1000
    return float(value.rstrip("s"))


def restarts(policy: str, code: int) -> bool:
    """Whether systemd restarts a service that exited with ``code`` (negative: killed by
    that signal) under ``Restart=policy`` (systemd.service(5), the table of Restart=)."""
    clean = code == 0 or code in (-signal.SIGHUP, -signal.SIGINT, -signal.SIGTERM)
    return {
        "no": False,
        "always": True,
        "on-success": clean,
        "on-failure": not clean,
        "on-abnormal": code < 0 and not clean,
        "on-abort": code < 0 and not clean,
    }[policy]


class Supervised:
    """The worker as its unit runs it: ExecStart's celery arguments, and Restart=."""

    def __init__(self, broker: str, tmp: Path) -> None:
        service = unit()
        command = shlex.split(service["ExecStart"].replace("%%", "%"))  # systemd's escape
        self.args = command[command.index("-A") :]  # after the celery executable
        self.policy = service.get("Restart", "no")
        self.delay = seconds(service.get("RestartSec", "100ms"))
        private = ("PYTEST", "DATABASE_URL", "CELERY_", "CACHE_URL")
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(private)}
        self.env.update(
            CELERY_BROKER_URL=broker,
            CACHE_URL="locmem://",
            DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}",
            DEBUG="1",
        )
        self.tmp = tmp
        self.log = tmp / "worker.log"
        self.exits: list[int] = []
        self.proc: subprocess.Popen | None = None
        self._stopping = False
        self._lock = threading.Lock()
        self._watch = threading.Thread(target=self._supervise, daemon=True)

    def start(self) -> None:
        self._spawn()
        self._watch.start()

    def _spawn(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", *self.args, "--without-gossip",
             "--without-mingle", "--logfile", str(self.log)],
            cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip

    def _supervise(self) -> None:
        while not self._stopping:
            proc = self.proc
            if proc is None:
                return
            code = proc.wait()
            if self._stopping:
                return
            self.exits.append(code)
            if not restarts(self.policy, code):
                self.proc = None
                return
            time.sleep(self.delay)
            with self._lock:
                if not self._stopping:
                    self._spawn()

    def kill(self) -> None:
        """SIGKILL the worker's main process (and its pool), as the OOM killer would."""
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)

    def stop(self) -> None:
        with self._lock:
            self._stopping = True
            if self.proc is not None and self.proc.poll() is None:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=20)


def consumed(broker: str, log: Path) -> bool:
    """Send a heartbeat task and wait for the worker to run it."""
    from celery import Celery

    task_id = uuid.uuid4().hex
    sender = Celery(broker=broker, set_as_current=False)
    sender.send_task(
        "scorebook.core.tasks.heartbeat", args=["survival"], task_id=task_id, queue=ENTRY
    )
    until(
        lambda: log.exists() and f"[{task_id}] succeeded" in log.read_text(),
        "a task sent after Redis came back is run",
    )
    return True


def test_the_worker_lives_through_redis_kills_and_its_unit_restarts_it(
    tmp_path, redis_server, monkeypatch
):
    from celery import Celery

    # Celery reads CELERY_BROKER_URL before a broker it is given (the suite's PostgreSQL
    # + Redis pass sets it): the test's senders would publish to the suite's broker.
    monkeypatch.delenv("CELERY_BROKER_URL", raising=False)
    worker = Supervised(redis_server.url, tmp_path)
    worker.start()
    try:
        until(lambda: worker.log.exists() and "ready." in worker.log.read_text(), "worker up")
        stop = threading.Event()

        def traffic() -> None:  # tasks in flight, so messages are unacknowledged at a kill
            sender = Celery(broker=redis_server.url, set_as_current=False)
            while not stop.is_set():
                try:
                    sender.send_task("scorebook.core.tasks.heartbeat", args=["load"], queue=ENTRY)
                except Exception:  # noqa: BLE001 - Redis is down for a while: try again
                    time.sleep(0.2)
                time.sleep(0.01)

        load = threading.Thread(target=traffic, daemon=True)
        load.start()
        for _ in range(10):
            time.sleep(2)
            redis_server.kill()
            time.sleep(1)
            redis_server.start()
            consumed(redis_server.url, worker.log)
        stop.set()
        load.join(30)
        text = worker.log.read_text()
        assert worker.exits == [], "the worker exited: " + text[text.find("Unrecoverable") :][:800]
        assert "'hostname'" not in text

        # Should it still exit (the kernel's OOM killer, a bug), its unit starts it again.
        assert worker.policy != "no"
        worker.kill()
        until(lambda: worker.exits, "the supervisor saw the worker die")
        consumed(redis_server.url, worker.log)
    finally:
        worker.stop()


def test_the_entry_unit_consumes_the_entry_queue():
    command = shlex.split(unit()["ExecStart"])
    assert command[command.index("-Q") + 1] == ENTRY


@pytest.mark.parametrize("path", UNITS, ids=lambda path: path.stem)
def test_the_unit_never_gives_up_restarting(path):
    """systemd stops restarting a unit that failed 5 times in 10 s (the default start
    limit): a worker crashing while Redis is away for a minute would then stay down."""
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(path)
    assert parser["Unit"].get("StartLimitIntervalSec") == "0"
    assert parser["Service"]["Restart"] == "always"
    assert seconds(parser["Service"]["RestartSec"]) >= 1


def test_a_channel_left_open_after_its_transport_closed_loses_nothing(redis_server):
    """The exact state of the crash, made on purpose: a message delivered and not
    acknowledged, the transport closed before its channel. Closing the channel and
    acknowledging then raise nothing but connection errors, and the message stays in
    Redis, back on its queue after the visibility timeout."""
    import redis
    from kombu import Connection, Exchange, Queue

    queue = Queue("q", Exchange("q"), "q")
    conn = Connection(redis_server.url, transport=TRANSPORT)
    with conn.Producer() as producer:
        producer.publish({"n": 1}, exchange=queue.exchange, routing_key="q", declare=[queue])
    channel = conn.default_channel
    message = channel.basic_get("q", no_ack=False)
    assert message is not None
    conn._do_close_transport()  # what Connection.collect() does on losing the broker
    channel.close()  # kombu's own channel: AttributeError 'hostname'
    with pytest.raises(conn.connection_errors):
        message.ack()  # kombu's own channel: AttributeError 'client'
    store = redis.Redis.from_url(redis_server.url)
    assert store.hlen("unacked") == 1 and store.llen("q") == 0
    later = Connection(
        redis_server.url, transport=TRANSPORT, transport_options={"visibility_timeout": 0}
    )
    time.sleep(0.01)
    later.default_channel.qos.restore_visible()
    assert store.llen("q") == 1
    later.close()


def test_the_settings_pick_this_transport_for_a_redis_broker(redis_server):
    found = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from scorebook.celery import app;"
            " print(type(app.connection_for_write().transport).__module__)",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "scorebook.settings",
            "CELERY_BROKER_URL": redis_server.url,
        },
    )
    assert found.stdout.strip().splitlines()[-1] == "scorebook.core.broker"
