"""The plumbing: health check, settings from the environment, Celery, the API schema."""

import json
import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.management import call_command

from scorebook.core.tasks import ping


def _settings_in_clean_env(**env):
    code = (
        "import json, django; from django.conf import settings; django.setup();"
        "print(json.dumps({'engine': settings.DATABASES['default']['ENGINE'],"
        "'eager': settings.CELERY_TASK_ALWAYS_EAGER, 'broker': settings.CELERY_BROKER_URL,"
        "'debug': settings.DEBUG, 'options': settings.DATABASES['default'].get('OPTIONS')}))"
    )
    clean = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    clean.update(env, DJANGO_SETTINGS_MODULE="scorebook.settings")
    out = subprocess.run([sys.executable, "-c", code], env=clean, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_no_environment_means_sqlite_and_eager_celery():
    found = _settings_in_clean_env()
    assert found["engine"] == "django.db.backends.sqlite3"
    assert found["eager"] is True
    assert found["broker"] == "memory://"


def test_variables_set_but_empty_count_as_not_set():
    # `DATABASE_URL= make run` used to stop at start-up: dj-database-url can't parse "".
    found = _settings_in_clean_env(DATABASE_URL="", CELERY_BROKER_URL="")
    assert found["engine"] == "django.db.backends.sqlite3"
    assert found["eager"] is True


def test_environment_selects_postgresql_and_a_real_broker():
    found = _settings_in_clean_env(
        DATABASE_URL="postgres://u@127.0.0.1:5432/x", CELERY_BROKER_URL="redis://127.0.0.1:6379/0"
    )
    assert found["engine"] == "django.db.backends.postgresql"
    assert found["eager"] is False
    assert found["broker"] == "redis://127.0.0.1:6379/0"
    assert found["options"] == {"server_side_binding": True, "prepare_threshold": 5}


def test_prepared_statements_can_be_switched_off_for_a_pooler():
    found = _settings_in_clean_env(
        DATABASE_URL="postgres://u@127.0.0.1:5432/x", DB_PREPARED_STATEMENTS="0"
    )
    assert found["engine"] == "django.db.backends.postgresql"
    assert not found["options"]


def test_debug_off_without_a_secret_key_refuses_to_start():
    code = "import django; django.setup()"
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    env.update(DEBUG="false", DJANGO_SETTINGS_MODULE="scorebook.settings")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode != 0
    assert "SECRET_KEY must be set" in out.stderr


def test_celery_runs_tasks_eagerly_without_a_broker():
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.skip("a real broker is configured")
    assert ping.delay().get(timeout=5) == "pong"


@pytest.mark.postgres
@pytest.mark.django_db
def test_postgres_run_uses_postgresql_and_the_configured_broker():
    from django.db import connection

    assert connection.vendor == "postgresql"
    assert settings.CELERY_BROKER_URL.startswith(("redis://", "amqp://"))
    connection.ensure_connection()
    assert connection.connection.prepare_threshold == 5  # the suite runs as production does


def test_openapi_schema_generates_without_warnings(tmp_path):
    call_command("spectacular", "--fail-on-warn", "--validate", "--file", str(tmp_path / "s.yaml"))
    assert (tmp_path / "s.yaml").read_text().startswith("openapi: 3")


@pytest.mark.django_db
def test_api_docs_page_and_schema_are_served(client):
    assert client.get("/api/schema/").status_code == 200
    assert client.get("/api/docs/").status_code == 200
