"""The running-score chart's words are readable on a 360 px phone: a style sheet rule
(11px) overrode the chart's own sizes and drew its legend and scale at about 10 px, too
small for the players the chart is for."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

HEIGHTS = """
() => [...document.querySelectorAll('svg.chart text')].map(t => ({
  cls: t.getAttribute('class'), h: t.getBoundingClientRect().height }))
"""


def test_the_chart_legend_and_scale_are_readable_at_360px(phone, night, shots):
    from scorebook.matches import services

    people = night.people
    match = night.tressette
    for number, (a, b, last) in enumerate(((14, 18, "B"), (20, 12, "A")), 1):
        services.deal_create(
            match=match,
            data={
                "sides": {"A": {"thirds": a, "tricks": 4}, "B": {"thirds": b, "tricks": 6}},
                "last_trick": last,
            },
            expected_number=number,
            user=people["nino"],
        )
    page = phone(people["salvo"], "it")
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"/m/{match.pk}/")
    shots(page, "80-chart-360")
    texts = page.evaluate(HEIGHTS)
    legend = [t["h"] for t in texts if t["cls"] == "chart-legend"]
    scale = [t["h"] for t in texts if t["cls"] == "chart-tick"]
    assert len(legend) == 2 and scale
    assert min(legend) >= 16, legend  # about a 14 px font, as the help text beside it
    assert min(scale) >= 13, scale
