"""The federal points table (docs/federation.md, "Federal points"): a pure function,
checked as properties over every level, field and place."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorebook.federations import points
from scorebook.federations.models import TournamentLevel

levels = st.sampled_from(points.LEVELS)
fields = st.integers(min_value=0, max_value=300)
places = st.integers(min_value=1, max_value=300)


def test_the_levels_are_the_models_and_rise():
    assert list(points.LEVELS) == list(TournamentLevel.values)
    firsts = [points.FIRST_PLACE[level] for level in points.LEVELS]
    assert firsts == sorted(firsts) and len(set(firsts)) == len(firsts)


def test_the_published_rows():
    """The rows docs/federation.md prints."""
    assert points.table("club", 4) == [10, 5]
    assert points.table("provincial", 8) == [30, 22, 15, 7]
    assert points.table("regional", 16) == [80, 70, 60, 50, 40, 30, 20, 10]
    assert points.first_place_points("national", 64) == 240
    assert points.federal_points("provincial", 8, 5) == 0  # the lower half scores nothing
    assert points.federal_points("national", 1, 1) == 0  # no field, no points


@given(levels, fields, places)
def test_a_worse_place_never_scores_more(level, field, place):
    assert points.federal_points(level, field, place + 1) <= points.federal_points(
        level, field, place
    )


@given(levels, fields, places)
def test_a_larger_field_scores_at_least_as_much(level, field, place):
    assert points.federal_points(level, field + 1, place) >= points.federal_points(
        level, field, place
    )


@given(st.integers(min_value=0, max_value=len(points.LEVELS) - 2), fields, places)
def test_a_higher_level_scores_at_least_as_much(index, field, place):
    low, high = points.LEVELS[index], points.LEVELS[index + 1]
    assert points.federal_points(high, field, place) >= points.federal_points(low, field, place)


@given(levels, st.integers(min_value=2, max_value=300))
def test_the_top_half_scores_and_the_winners_most(level, field):
    row = points.table(level, field)
    assert len(row) == (field + 1) // 2 and all(p >= 1 for p in row)
    assert row[0] == points.first_place_points(level, field) == max(row)


def test_an_unknown_level_is_a_bug():
    with pytest.raises(KeyError):
        points.federal_points("world", 10, 1)
