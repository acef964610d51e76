"""Run the real thing for a test: gunicorn with several worker processes on a free port."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
# gunicorn -c PRELOAD: everything loaded before the workers fork, cache table created.
PRELOAD = str(Path(__file__).with_name("preload.conf.py"))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def redis_up() -> bool:
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=1).close()
    except OSError:
        return False
    return True


def production_env(**extra: str) -> dict[str, str]:
    """DEBUG off, as deployed; requests say they came through TLS (X-Forwarded-Proto)."""
    # Nothing from the suite's own environment (its database, broker, cache) leaks in.
    private = ("PYTEST", "DATABASE_URL", "CELERY_", "CACHE_URL")
    env = {k: v for k, v in os.environ.items() if not k.startswith(private)}
    env.update(
        DEBUG="0",
        SECRET_KEY="test-only-" + "x" * 50,
        ALLOWED_HOSTS="127.0.0.1",
        LOG_LEVEL="WARNING",
    )
    env.update(extra)
    return env


def manage(*args: str, env: dict[str, str]) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, timeout=120)


@contextlib.contextmanager
def gunicorn(
    env: dict[str, str], *args: str, workers: int = 3, output: IO[bytes] | None = None
) -> Iterator[str]:
    """Yield the base URL of gunicorn serving scorebook.wsgi; stop it afterwards. Its
    stdout and stderr go to ``output`` if given."""
    port = free_port()
    command = [str(BIN / "gunicorn"), "--workers", str(workers), "--bind", f"127.0.0.1:{port}"]
    server = subprocess.Popen(
        [*command, *args, "scorebook.wsgi"],
        cwd=ROOT,
        env=env,
        stdout=output,
        stderr=output or subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(server.stderr and server.stderr.read().decode()) from None
                time.sleep(0.1)
        yield base
    finally:
        server.send_signal(signal.SIGINT)  # quick shutdown: nothing to drain
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        if server.stderr:
            server.stderr.close()


def request(
    url: str, *, data: bytes | None = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """One HTTP request on a new connection: (status, headers, body), errors included."""
    headers = {"X-Forwarded-Proto": "https", **(headers or {})}
    if data is not None:
        headers.setdefault("Content-Type", "application/json")
    req = urllib.request.Request(url, data=data, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()
