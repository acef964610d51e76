"""gunicorn config for the multi-process tests: load everything in the master, so a worker
forked after ``--max-requests 1`` answers at once instead of importing the views again."""

preload_app = True


def when_ready(server):
    from django.core.management import call_command
    from django.urls import get_resolver

    call_command("createcachetable")  # as the runbook's deploy step does
    get_resolver().url_patterns  # noqa: B018 - imports every view before the workers fork
