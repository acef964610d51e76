"""Issue 32 item 5, the walk's small things on the deal form, read through the form's
builder and the pages (the browser's side is tests/e2e/test_no_scroll.py)."""

from django.utils import translation

from tests.web.test_quick_entry import table


def test_the_forms_seats_are_written_in_the_readers_letters():
    """Italian seat letters everywhere: the form's "Mazziere" and its chips wrote W for
    Walter's seat in Italian (O, ovest)."""
    t = table("tressette4", {"profile": "accuso_41"}, dealer="W")
    with translation.override("it"):
        assert t.seat_label("W") == "O · Walter"
        assert "O · Walter" in [str(text) for _, text in t.seat_choices()]
    with translation.override("en"):
        assert t.seat_label("W") == "W · Walter"
    assert table("tressette2").seat_label("P1") == "P1"
