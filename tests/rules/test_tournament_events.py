"""Special events as the tournament code plays them (issue 16, "Call-out, special events").

Codice del tressette (Enucatl/tressette, ``regolamento_olimpiadi.tex``): the tournament game
knows no stramazzo, so the last trick always keeps its point; some clubs pay a cappotto as
double points (22) on the score sheet rather than as a stake multiplier.
"""

from __future__ import annotations

import pytest

from scorebook.rules import score_deal


def sides(a, ta, b, tb):
    return {"A": {"thirds": a, "tricks": ta}, "B": {"thirds": b, "tricks": tb}}


def score(deal, **rules):
    return score_deal({"game": "tressette4", **deal, **({"rules": rules} if rules else {})})


def test_with_stramazzo_off_a_side_without_counters_is_no_event():
    deal = {"sides": sides(32, 9, 0, 1), "last_trick": "B"}
    assert score(deal).event == "stramazzo"  # the book's default
    result = score(deal, **{"t4.stramazzo_def": "off"})
    assert result.event is None and result.multiplier == 1
    # The last trick keeps its point for the side that took it.
    assert result.points == {"A": 10, "B": 1}
    assert not result.ends_match


@pytest.mark.parametrize("event_deal", ["cappotto", "cappottone"])
def test_a_cappotto_may_score_double_points(event_deal):
    if event_deal == "cappotto":
        deal = {"sides": sides(32, 10, 0, 0), "last_trick": "A"}
    else:
        deal = {
            "seats": {
                "N": {"thirds": 32, "tricks": 10},
                "S": {"thirds": 0, "tricks": 0},
                "E": {"thirds": 0, "tricks": 0},
                "W": {"thirds": 0, "tricks": 0},
            },
            "last_trick": "A",
        }
    rules = {"t4.special_event_effect": "score_points_only", "t4.cappotto_points": "double"}
    result = score(deal, **rules)
    assert result.event == event_deal
    assert result.points == {"A": 22, "B": 0}
    (line,) = [ln for ln in result.breakdown["A"] if ln.kind == "event"]
    assert line.points == 11
    # By default the cappotto scores the deal's 11 points.
    default = score(deal, **{"t4.special_event_effect": "score_points_only"})
    assert default.points == {"A": 11, "B": 0}
