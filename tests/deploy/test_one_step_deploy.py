"""`migrate` alone is a deploy: on a fresh database it makes everything the service needs.

Without `createcachetable` (an extra step the RUNBOOK named and a deploy could miss) the
anonymous throttles of `rules/score` and `public/*` had no database cache table to count in,
and those endpoints answered 500. The table now comes from a migration."""

import json

import pytest

from tests.deploy.server import gunicorn, manage, production_env, request

pytestmark = pytest.mark.slow

SCORE = {
    "game": "tressette4",
    "sides": {"A": {"thirds": 14, "tricks": 4}, "B": {"thirds": 18, "tricks": 6}},
    "last_trick": "B",
}
PUBLIC_CLUB = (
    "from scorebook.clubs.models import Club; "
    "Club.objects.create(name='Circolo San Rocco', slug='san-rocco', public=True)"
)


def test_migrate_alone_serves_the_anonymous_throttled_endpoints(tmp_path):
    env = production_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    manage("migrate", "--noinput", "-v0", env=env)  # and nothing else
    manage("shell", "-c", PUBLIC_CLUB, env=env)
    with gunicorn(env, workers=1) as base:
        status, _, body = request(base + "/api/v1/rules/score", data=json.dumps(SCORE).encode())
        assert status == 200, body
        for path in ("clubs", "clubs/san-rocco/nights", "clubs/san-rocco/seasons"):
            status, _, body = request(f"{base}/api/v1/public/{path}")
            assert status == 200, (path, body[:300])


def test_the_runbook_and_the_makefile_have_no_extra_step():
    from tests.deploy.server import ROOT

    for name in ("deploy/RUNBOOK.md", "Makefile", "README.md"):
        assert "createcachetable" not in (ROOT / name).read_text(), name
