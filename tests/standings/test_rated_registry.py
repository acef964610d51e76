"""The standings tell the apps above them that a club's ratings were replayed through one
registry, ``standings.rated``: its members are named in its docstring and in
docs/architecture.md, each takes the club and the matches re-rated, and a re-rating calls
each member with them (and nothing calls them when nothing was re-rated)."""

import re
from pathlib import Path

import pytest

from scorebook.standings import rated
from tests import builders as build

ROOT = Path(__file__).resolve().parents[2]
DOTTED = r"`{1,2}(scorebook(?:\.\w+)+)`{1,2}"


def members_listed(text: str) -> set[str]:
    return set(re.findall(rf"^\s*- {DOTTED}", text, re.M))


def test_the_registry_its_docstring_and_the_architecture_page_agree():
    assert rated.AFTER_RATING
    assert members_listed(rated.__doc__ or "") == set(rated.AFTER_RATING)
    page = (ROOT / "docs" / "architecture.md").read_text()
    section = page.split("## Who hears of a club's ratings", 1)[1].split("\n## ", 1)[0]
    assert members_listed(section) == set(rated.AFTER_RATING)
    assert "scorebook/standings/rated.py" in section


def test_every_member_is_above_the_standings():
    for path in rated.AFTER_RATING:
        assert not path.startswith(("scorebook.standings.", "scorebook.matches.")), path
        assert callable(rated.members()[rated.AFTER_RATING.index(path)])


CALLS: list[tuple[int, list[int]]] = []


def heard(club_id, match_ids):
    """A member of this test's own: records what it is told."""
    CALLS.append((club_id, list(match_ids)))


@pytest.fixture
def listening(monkeypatch, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    CALLS.clear()
    monkeypatch.setattr(rated, "AFTER_RATING", (f"{__name__}.{heard.__name__}",))
    return CALLS


def test_a_finished_match_is_told_with_its_club(
    people, listening, django_capture_on_commit_callbacks
):
    night = build.night(people)
    with django_capture_on_commit_callbacks(execute=True):
        match = build.match(people, night)
        build.deals(people, match, build.A_WINS)
    assert listening == []  # an open match is not rated
    with django_capture_on_commit_callbacks(execute=True):
        build.finish(people, match)
    assert listening == [(people.club.pk, [match.pk])]
