"""A tournament called off tells the apps above the tournaments through one registry,
``tournaments.cancelling``: its members are named in its docstring and in
docs/architecture.md, each is called with the tournament, the reason and who called it
off, in the cancel's transaction."""

import re
from pathlib import Path

import pytest

from scorebook.tournaments import cancelling
from scorebook.tournaments.services.results import tournament_cancel
from tests import builders as build

ROOT = Path(__file__).resolve().parents[2]
DOTTED = r"`{1,2}(scorebook(?:\.\w+)+)`{1,2}"


def members_listed(text: str) -> set[str]:
    return set(re.findall(rf"^\s*- {DOTTED}", text, re.M))


def test_the_registry_its_docstring_and_the_architecture_page_agree():
    assert cancelling.AFTER_CANCEL
    assert members_listed(cancelling.__doc__ or "") == set(cancelling.AFTER_CANCEL)
    page = (ROOT / "docs" / "architecture.md").read_text()
    section = page.split("## Who hears of a tournament called off", 1)[1].split("\n## ", 1)[0]
    assert members_listed(section) == set(cancelling.AFTER_CANCEL)
    assert "scorebook/tournaments/cancelling.py" in section
    assert all(callable(m) for m in cancelling.members())


HEARD: list[tuple[int, str]] = []


def heard(*, tournament, reason, user):
    HEARD.append((tournament.pk, reason))


def test_a_cancel_tells_each_member(people, monkeypatch):
    HEARD.clear()
    monkeypatch.setattr(cancelling, "AFTER_CANCEL", (f"{__name__}.{heard.__name__}",))
    night = build.night(people)
    made = build.tournament(people, night, pairs=2)
    tournament_cancel(tournament=made, reason="pioggia", user=people.director)
    assert HEARD == [(made.pk, "pioggia")]


@pytest.fixture(autouse=True)
def _db(db):
    return db
