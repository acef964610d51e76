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


def test_a_negative_score_is_written_with_a_minus_sign():
    """The big numbers (match page, public page, TV) wrote -12 with a hyphen; now the
    minus sign the nets beside them use, kept on the number's line."""
    from django.template.loader import render_to_string

    board = [{"label": "Nino", "points": -12}, {"label": "Ettore", "points": 30}]
    html = render_to_string("web/matches/scores.html", {"board": board})
    assert '<div class="points">\u221212</div>' in html
    assert "-12" not in html and '<div class="points">30</div>' in html
