from celery import shared_task


@shared_task
def ping() -> str:
    """A task that proves the worker (or eager mode) runs tasks."""
    return "pong"
