"""Two gunicorn instances on one PostgreSQL take the same deals at the same moment, with
retries through the other instance and phones racing on each deal number: exactly once
(deploy/bench/scale_out.py, small)."""

import json
import os
import subprocess
import sys

import pytest
from django.db import connection

from tests.deploy.server import ROOT

pytestmark = [pytest.mark.postgres, pytest.mark.slow]
MATCHES, DEALS, PHONES = 2, 3, 3


def test_two_instances_store_each_deal_exactly_once(transactional_db):
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    done = subprocess.run(
        [sys.executable, "deploy/bench/scale_out.py"],
        cwd=ROOT,
        env={
            **os.environ,
            "SCALE_DATABASE_URL": url,
            "SCALE_RESET": "0",  # the test database: migrated and empty
            "SCALE_MATCHES": str(MATCHES),
            "SCALE_DEALS": str(DEALS),
            "SCALE_PHONES": str(PHONES),
        },
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    races = MATCHES * DEALS
    assert report["exactly_once"] is True
    # Per race: the winner's two requests answer 201, every other phone's two 409.
    assert report["statuses"] == {"201": 2 * races, "409": 2 * races * (PHONES - 1)}
    assert report["stored"] == {"deals": races, "distinct": races, "keys": races}
