"""tests/once.py: rows made once for a module, each test starting from them as made."""

import copy

import pytest

from scorebook.clubs.models import Club
from tests.once import made_once


@pytest.fixture(scope="module")
def made(django_db_setup, django_db_blocker):
    yield from made_once(django_db_blocker, lambda: Club.objects.create(name="Once", slug="once"))


@pytest.fixture
def club(made, db):
    return copy.deepcopy(made)


# Both turns on one worker, in either order: the second fails if the first's writes (in the
# database or on the object) reached it.
@pytest.mark.xdist_group("made_once")
@pytest.mark.parametrize("turn", [1, 2])
def test_each_test_starts_from_the_rows_as_made(club, turn):
    assert club.name == "Once"
    assert Club.objects.get(pk=club.pk).name == "Once"
    Club.objects.filter(pk=club.pk).update(name=f"changed {turn}")
    Club.objects.create(name=f"Another {turn}", slug=f"another-{turn}")
    club.name = f"changed in memory {turn}"
    assert Club.objects.filter(slug__startswith="another-").count() == 1
