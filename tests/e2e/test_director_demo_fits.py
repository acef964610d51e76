"""The director's pages of the demo club on a 390 x 844 phone in Italian and English:
nothing is cut off, neither the page nor a table inside its own scrolling box (a director
reading the league table saw its last column, 'Deciso da', sliced at the screen's edge;
in English its 'Pld Wn Drn Lst' headings still pushed the points out of sight).

Screenshots: tests/e2e/artifacts/99-demo-*-{it,en}.png."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: every box wider than what it shows: the page itself, or a scrolling region inside it
#: (but the leaderboard's, whose many sortable columns scroll sideways on purpose)
CUT_OFF = """
() => [document.documentElement, ...document.querySelectorAll('.scroll:not(.table-wide)')]
  .filter(el => el.scrollWidth > el.clientWidth + 1)
  .map(el => (el.className || el.tagName) + ': ' + el.scrollWidth + ' > ' + el.clientWidth)
"""


ONE_LINE_COUNTS = """
() => [...document.querySelectorAll('.row .count')].every(el =>
  el.getBoundingClientRect().height < 2 * parseFloat(getComputedStyle(el).fontSize))
"""


@pytest.fixture
def demo(settings, transactional_db):
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    settings.DEBUG = True  # load_demo refuses otherwise
    call_command("load_demo")
    return get_user_model().objects.get(username="demo")


@pytest.mark.parametrize("language", ["it", "en"])
def test_the_directors_pages_fit_a_phone(demo, phone, shots, language):
    from scorebook.matches.models import Night
    from scorebook.standings.models import League

    tonight = Night.objects.get(status="open", club__slug="san-rocco")
    last_week = (
        Night.objects.filter(status="closed", club__slug="san-rocco").order_by("-date").first()
    )
    league = League.objects.get()
    page = phone(demo, language)
    cut = {}
    for name, path in (
        ("home", "/c/san-rocco/"),
        ("night", f"/n/{tonight.pk}/"),
        ("room", f"/n/{tonight.pk}/room"),
        ("close", f"/n/{tonight.pk}/close"),
        ("settlement", f"/n/{last_week.pk}/settlement"),
        ("league", f"/c/san-rocco/leagues/{league.pk}/"),
        ("standings", "/c/san-rocco/standings/"),
        ("ratings", "/c/san-rocco/standings/ratings"),
    ):
        response = page.goto(path)
        assert response is not None and response.status == 200, (name, path)
        shots(page, f"99-demo-{name}-{language}")
        found = page.evaluate(CUT_OFF)
        if found:
            cut[name] = found
        if name == "home":  # '2 partite' broke over two lines beside a past night
            assert page.evaluate(ONE_LINE_COUNTS), "a night's match count wraps"
    assert not cut, cut
