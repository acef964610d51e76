"""A redis-server of a test's own, on a free port: started, killed or stopped on demand
(the worker tests take the broker away from a running Celery worker)."""

from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path

WAIT = 60.0  # the most any step may take before the test fails


def until(check, what: str, timeout: float = WAIT):
    """Poll ``check`` until it is truthy (bounded)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"not within {timeout:.0f} s: {what}")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Redis:
    """A redis-server keeping nothing on disk, in ``tmp``."""

    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.tmp = tmp
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.tmp)],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        until(self.answers, "redis-server up", 20)

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as conn:
                conn.sendall(b"PING\r\n")
                return conn.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        """Shut it down as a service manager would (SIGTERM)."""
        self._end(kill=False)

    def kill(self) -> None:
        """Take it away at once (SIGKILL), as a crash would."""
        self._end(kill=True)

    def _end(self, kill: bool) -> None:
        if self.proc is not None:
            self.proc.kill() if kill else self.proc.terminate()
            self.proc.wait(timeout=20)
            self.proc = None
