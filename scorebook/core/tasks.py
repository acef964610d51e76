from celery import shared_task
from django.core.cache import cache


@shared_task
def ping() -> str:
    """A task that proves the worker (or eager mode) runs tasks."""
    return "pong"


def heartbeat_key(token: str) -> str:
    """Where the heartbeat leaves its mark (``core.health`` looks there)."""
    return f"healthz:heartbeat:{token}"


@shared_task(ignore_result=True)
def heartbeat(token: str) -> None:
    """``/healthz`` waits for this mark in the shared cache: a worker took the task."""
    cache.set(heartbeat_key(token), 1, timeout=60)
