"""A score below zero is written with a minus sign ('Carmelo −4'), as the nets beside it
are: the close page listed 'Carmelo -4' (a hyphen) over the net 'Carmelo −4'. The lists of
matches (night page, room, close page, public page), a match's deal lines and its chart
(the demo's Terziglio tonight). The big scoreboard (match page, TV) too since issue 32
item 5, its number sized to its box on the TV (tests/e2e/test_tv_fit.py)."""

import re

import pytest
from django.core.management import call_command
from django.test import Client

from scorebook.matches.models import Match, Night


@pytest.fixture
def demo(settings, db, django_capture_on_commit_callbacks):
    settings.DEBUG = True  # load_demo refuses otherwise
    with django_capture_on_commit_callbacks(execute=True):
        call_command("load_demo")
    from django.contrib.auth import get_user_model

    client = Client()
    client.force_login(get_user_model().objects.get(username="demo"))
    return client


def test_a_negative_score_has_a_minus_sign_on_every_scoreboard(demo):
    tonight = Night.objects.get(status="open", club__slug="san-rocco")
    below = next(
        m for m in Match.objects.filter(night=tonight) if min(m.state["totals"].values()) < 0
    )
    low = min(below.state["totals"].values())
    pages = {
        "night": demo.get(f"/n/{tonight.pk}/"),
        "room": demo.get(f"/n/{tonight.pk}/room"),
        "close": demo.get(f"/n/{tonight.pk}/close"),
        "public": Client().get("/public/san-rocco/"),
    }
    for name, page in pages.items():
        body = page.content.decode()
        assert page.status_code == 200, name
        assert f"\u2212{abs(low)}<" in body, name
        assert not re.search(rf">\s*{low}\s*<", body), name
    match = demo.get(f"/m/{below.pk}/").content.decode()
    lines = match.split('class="scoreboard"', 1)[1].split("</div>\n</div>", 1)[-1]
    assert f": <strong>\u2212{abs(low)}</strong>" in match or f"\u2212{abs(low)}<" in lines
    chart = match.split('<svg class="chart"', 1)[1].split("</svg>", 1)[0]
    assert f">\u2212{abs(low)}<" in chart and f">{low}<" not in chart
