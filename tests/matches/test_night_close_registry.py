"""The night's close asks one registry the record declares, ``matches.closing``: its
members are named in its docstring and in docs/architecture.md, each is a check of a night
that answers in words, and the close is refused with those words while any says
something, and only then (a tournament not over keeps the night open through it)."""

import re
from pathlib import Path

import pytest

from scorebook.matches import closing
from scorebook.matches import refusals as match_refusals
from scorebook.matches import services as matches
from scorebook.matches.models import Night
from tests.tournaments.helpers import open_night, with_pairs

ROOT = Path(__file__).resolve().parents[2]
DOTTED = r"`{1,2}(scorebook(?:\.\w+)+)`{1,2}"


def members_listed(text: str) -> set[str]:
    """The dotted names of a list's items (``- `scorebook.x.y`: ...``)."""
    return set(re.findall(rf"^\s*- {DOTTED}", text, re.M))


def test_the_registry_its_docstring_and_the_architecture_page_agree():
    assert closing.CHECKS, "the registry is empty: then nothing keeps a night open"
    assert members_listed(closing.__doc__ or "") == set(closing.CHECKS)
    page = (ROOT / "docs" / "architecture.md").read_text()
    # the section ends at the next heading of its level or above (another registry's
    # section follows it: "Who corrects a match from outside its club")
    section = re.split(r"\n#{2,3} ", page.split("### What keeps a night open", 1)[1], maxsplit=1)[0]
    assert members_listed(section) == set(closing.CHECKS)
    assert "scorebook/matches/closing.py" in section


def test_the_agreement_check_sees_a_member_missing():
    assert members_listed("- ``scorebook.a.selectors.b``: words\n- `scorebook.c.d`: more") == {
        "scorebook.a.selectors.b",
        "scorebook.c.d",
    }
    assert members_listed("see ``scorebook.a.b`` in a sentence") == set()


def test_every_member_answers_a_night_in_words(people):
    night = open_night(people)
    for check in closing.checks():
        assert check(night) == []  # nothing on tonight's night keeps it open


def nothing_done_yet(night):
    """A member that always keeps the night open (this test's own)."""
    return [f"count the piatto of {night.date:%d/%m}"]


def test_the_close_says_every_members_words(people, monkeypatch):
    night = open_night(people)
    monkeypatch.setattr(
        closing, "CHECKS", (*closing.CHECKS, f"{__name__}.{nothing_done_yet.__name__}")
    )
    with pytest.raises(match_refusals.NightNotReady) as refused:
        matches.night_close(night=night, user=people.director)
    assert refused.value.words()["what"] == "count the piatto of 20/11"
    night.refresh_from_db()
    assert night.status == Night.Status.OPEN


def test_a_tournament_keeps_the_night_open_through_the_registry_only(people, monkeypatch):
    night = open_night(people)
    with_pairs(people, night, 4, rounds=2)
    with pytest.raises(match_refusals.NightNotReady):
        matches.night_close(night=night, user=people.director)
    monkeypatch.setattr(closing, "CHECKS", ())
    matches.night_close(night=night, user=people.director)
    night.refresh_from_db()
    assert night.status == Night.Status.CLOSED
