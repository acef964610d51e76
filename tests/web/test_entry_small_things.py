"""Issue 32 item 5, the walk's small things on the deal form, read through the form's
builder and the pages (the browser's side is tests/e2e/test_no_scroll.py)."""

import re

import pytest
from django.utils import translation

from tests.web.test_quick_entry import t4, table  # noqa: F401 - t4 is a fixture


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
    # the number as the page's scripts read it (data-points, for the offline score) keeps
    # its hyphen; what a person reads never does
    shown = re.sub(r'\sdata-[a-z-]+="[^"]*"', "", html)
    assert "-12" not in shown and '<div class="points">30</div>' in html


def test_a_points_fields_range_is_said_in_points():
    """The quick form's points (11 typed: 33 thirds) were refused in thirds: "«... punti»
    deve essere tra 0 e 32; vale 33". Now in the points the player typed."""
    import pytest

    from scorebook.rules.errors import Rejection
    from scorebook.web import deal_forms as forms
    from tests.web.test_quick_entry import score

    t = table("tressette4", {"profile": "accuso_41"})
    with translation.override("it"):
        form, deal = forms.read(t, "quick", {"sides.A.thirds": "11", "last_trick": "A"})
        with pytest.raises(Rejection) as caught:
            score(t, deal)
        forms.place(form, forms.problems(caught.value, "it"))
        (errors,) = [i.errors for i in form.inputs() if i.name == "sides.A.thirds"]
    assert errors == ["«A (Nino, Salvo): punti» deve essere tra 0 e 10 punti."], errors


def test_a_side_left_out_is_said_in_a_players_words():
    """The engine's 'Manca B: ogni lato deve avere una voce' (words for the deal format)
    next to B's field: now what to fill in."""
    import pytest

    from scorebook.rules.errors import Rejection
    from scorebook.web import deal_forms as forms
    from tests.web.test_quick_entry import score

    t = table("tressette4", {"profile": "accuso_41"})
    with translation.override("it"):
        data = {"sides.A.thirds": "20", "sides.A.tricks": "6", "last_trick": "A"}
        form, deal = forms.read(t, "totals", data)
        deal["sides"].pop("B", None)  # as a form that asks only one side would send it
        with pytest.raises(Rejection) as caught:
            score(t, deal)
        forms.place(form, forms.problems(caught.value, "it"))
        said = [e for i in form.inputs() for e in i.errors] + list(form.errors)
    assert "Compila «Punti e prese»: servono i punti di tutti." in said, said
    assert not any("Manca" in e or "voce" in e for e in said), said


@pytest.mark.parametrize(
    ("policy", "words"),
    [
        ("pin", "apre la smazzata (il link qui sopra) e digita il suo PIN"),
        ("own_phone", "tocca «Confermo questa smazzata»"),
        ("table_phone", None),
    ],
)
def test_a_save_says_how_to_confirm_where_the_table_phone_does_not_count(people, t4, policy, words):  # noqa: F811, E501 - t4: the fixture imported above
    """Under the pin and own_phone policies no button comes after a save, and the form
    said nothing of how the other side confirms."""
    import uuid

    from tests.web.test_deal_pages import as_

    club = t4.night.club
    club.confirmation_policy = policy
    club.save()
    client = as_(people, "scorer")
    data = {"level": "quick", "expected_number": "1", "idempotency_key": str(uuid.uuid4()),
            "sides.A.thirds": "6", "sides.A.thirds~figures": "2", "last_trick": "A"}  # fmt: skip
    answer = client.post(f"/m/{t4.pk}/deals/new?level=quick", data)
    page = client.get(answer["Location"], HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert 'class="saved"' in page
    if words is None:
        assert "how-confirm" not in page
    else:
        assert words in page
