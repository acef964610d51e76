"""One reader for numbers and ids from paths, query parameters and form fields
(scorebook/core/numbers.py): ASCII digits, bounded, ``None`` for anything else."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorebook.core.numbers import (
    MAX_ID,
    IdConverter,
    NotANumber,
    parse_id,
    parse_ids,
    parse_int,
    require_int,
)

NOT_IDS = [
    "",
    "abc",
    "1.5",
    "²",
    "٣",
    " 7",
    "7 ",
    "7\n",
    "1_000",
    "+7",
    "-1",
    "0",
    "\x00",
    "9" * 4400,
    str(MAX_ID + 1),
    "9223372036854775808",
    None,
    1.0,
    True,
    [],
    "0x10",
]


@pytest.mark.parametrize("value", NOT_IDS)
def test_anything_but_ascii_digits_within_bounds_is_not_an_id(value):
    assert parse_id(value) is None


@pytest.mark.parametrize("value,expected", [("1", 1), ("007", 7), (str(MAX_ID), MAX_ID), (5, 5)])
def test_ids(value, expected):
    assert parse_id(value) == expected


def test_small_numbers_within_their_bounds():
    assert parse_int("-3", low=-5, high=5) == -3
    assert parse_int("6", low=-5, high=5) is None
    assert parse_int("-6", low=-5, high=5) is None
    assert parse_int("²", low=0, high=9) is None
    assert parse_ids("3,5") == [3, 5]
    assert parse_ids("3,²") is None and parse_ids("") is None and parse_ids("1" * 3000) is None


def test_require_int_refuses_in_words_with_the_field():
    with pytest.raises(NotANumber) as refused:
        require_int("²", field="page", low=1, high=10_000)
    assert refused.value.path == "page"
    assert "page" in refused.value.text() and "10000" in refused.value.text()


@given(st.text(max_size=30))
def test_never_raises_and_agrees_with_int_on_ascii_digits(text):
    found = parse_int(text, low=-(10**6), high=10**6)
    if found is not None:
        assert text.lstrip("-").isascii() and text.lstrip("-").isdigit()
        assert int(text) == found
    else:
        try:
            assert not (text.isascii() and -(10**6) <= int(text) <= 10**6) or not (
                text.lstrip("-").isdigit()
            )
        except ValueError:
            pass


def test_the_path_converter_refuses_what_parse_id_refuses():
    converter = IdConverter()
    assert converter.to_python("42") == 42
    for value in ("0", "9" * 19):
        with pytest.raises(ValueError):
            converter.to_python(value)
