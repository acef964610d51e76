"""Tressette in pairs and Terziglio entered as the table counts them (issue 22): the card
points of each side, no trick counts, and only when a side took every trick, which one
(``all_tricks``). The same deal with the counts scores the same; what the counts alone
could say (cappotto) the entry says by naming the side."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorebook.rules import Rejection, score_deal


def t4(deal, rules=None):
    return score_deal(deal, "tressette4", rules).as_dict()


def counted(a, ta, b, tb, **rest):
    return {"sides": {"A": {"thirds": a, "tricks": ta}, "B": {"thirds": b, "tricks": tb}}, **rest}


def uncounted(a, b, **rest):
    return {"sides": {"A": {"thirds": a}, "B": {"thirds": b}}, **rest}


@given(st.integers(1, 31), st.integers(1, 9), st.sampled_from(["A", "B"]))
def test_an_ordinary_deal_scores_the_same_without_the_counts(a, ta, last):
    """Whenever a count would be legal, leaving the counts out changes nothing but the
    facts, which say the tricks were not counted."""
    try:
        with_counts = t4(counted(a, ta, 32 - a, 10 - ta, last_trick=last))
    except Rejection:
        return
    without = t4(uncounted(a, 32 - a, last_trick=last))
    assert without["points"] == with_counts["points"]
    assert without["event"] == with_counts["event"]
    assert without["facts"]["tricks"] == {"A": None, "B": None}


def test_all_the_tricks_named_is_a_cappotto_with_its_counts():
    result = t4(uncounted(32, 0, last_trick="A", all_tricks="A"))
    assert result["event"] == "cappotto"
    assert result == t4(counted(32, 10, 0, 0, last_trick="A"))


@pytest.mark.parametrize("alone", ["N", "E", "S", "W"])
def test_all_the_tricks_by_one_player_is_the_cappottone(alone):
    """A cappottone (one player alone took every trick, E4) needed every player's counts:
    'all_tricks' named a side only (it refused "N"). Named alone, the player took every
    card and the others nothing: the deal scores as the same counts entered per player."""
    side = "A" if alone in "NS" else "B"
    thirds = {"A": 32 if side == "A" else 0, "B": 32 if side == "B" else 0}
    rules = {"profile": "pe"}
    named = t4(uncounted(thirds["A"], thirds["B"], last_trick=side, all_tricks=alone), rules)
    seats = {p: {"thirds": 32 if p == alone else 0, "tricks": 10 if p == alone else 0}
             for p in "NESW"}  # fmt: skip
    per_player = t4({"seats": seats, "last_trick": side}, rules)
    assert named["event"] == per_player["event"] == "cappottone"
    assert named["points"] == per_player["points"]
    assert named["multiplier"] == per_player["multiplier"]
    assert named["facts"]["players"][alone] == {"thirds": 32, "tricks": 10}


def test_without_all_tricks_a_whole_deal_is_a_stramazzo_not_a_cappotto():
    """All the points but not all the tricks: the reference's stramazzo (E3)."""
    assert t4(uncounted(32, 0, last_trick="A"))["event"] == "stramazzo"


@pytest.mark.parametrize(
    "deal,code",
    [
        (counted(32, 10, 0, 0, last_trick="A", all_tricks="A"), "capture.all_tricks_with_counts"),
        (uncounted(32, 0, last_trick="A", all_tricks="X"), "capture.all_tricks_bad_side"),
        (uncounted(32, 0, last_trick="A", all_tricks="E"), "last_trick.all_tricks"),
        (
            uncounted(8, 0, all_tricks="A", claim={"side": "A", "after_trick": 3}),
            "capture.all_tricks_with_claim",
        ),
    ],
)
def test_all_tricks_refusals(deal, code):
    with pytest.raises(Rejection) as caught:
        t4(deal)
    assert code in {p.code for p in caught.value.problems}


def test_a_claim_still_needs_the_counts_so_far():
    with pytest.raises(Rejection) as caught:
        t4(uncounted(8, 0, claim={"side": "A", "after_trick": 3}))
    assert {p.path for p in caught.value.problems} >= {"sides.A.tricks"}


def terz(deal, rules=None):
    from scorebook.rules import start_match

    game, resolved, state = start_match("terziglio", rules, 3, "P3")
    return game.add_deal(state, deal, resolved).as_dict()


def solo(thirds, **rest):
    bids = [{"player": "P1", "bid": "solo"}, {"player": "P2", "bid": "pass"},
            {"player": "P3", "bid": "pass"}]  # fmt: skip
    return {
        "bids": bids,
        "sides": {"soloist": {"thirds": thirds}, "coalition": {"thirds": 32 - thirds}},
        **rest,
    }


@given(st.integers(1, 31), st.integers(1, 11), st.sampled_from(["soloist", "coalition"]))
def test_terziglio_scores_the_same_without_the_counts(thirds, tricks, last):
    """The same for Terziglio's soloist and coalition (twelve tricks)."""
    counted = solo(thirds, last_trick=last)
    counted["sides"]["soloist"]["tricks"] = tricks
    counted["sides"]["coalition"]["tricks"] = 12 - tricks
    try:
        with_counts = terz(counted)
    except Rejection:
        return
    without = terz(solo(thirds, last_trick=last))
    assert (without["points"], without["units"], without["event"]) == (
        with_counts["points"],
        with_counts["units"],
        with_counts["event"],
    )
    assert without["facts"]["tricks"] == {"soloist": None, "coalition": None}


def test_terziglio_all_the_tricks_is_the_soloists_cappotto():
    result = terz(solo(32, last_trick="soloist", all_tricks="soloist"))
    assert result["event"] == "cappotto" and result["facts"]["tricks"]["soloist"] == 12


@pytest.mark.parametrize(
    "game,players,spec",
    [
        ("chiamata", 4, {"cdt.target": 1000}),
        ("terziglio", 3, None),
        ("tressette4", 4, {"t4.target": 1000}),
        ("traversone_pairs", 4, {"rov.target": 1000}),
    ],
)
def test_the_engines_own_deals_score_the_same_without_the_counts(game, players, spec):
    """Random legal totals deals of each game that takes uncounted tricks: the counts
    taken out (and the side that took them all named), the result is the same."""
    import random

    from scorebook.rules import start_match

    engine, rules, state = start_match(game, spec, players)
    rng = random.Random(25)
    compared = 0
    for _ in range(40):
        deal = engine.random_deal(rng, rules, state, "totals")
        piles = deal.get("sides")
        if not isinstance(piles, dict) or any("cards" in p for p in piles.values()):
            engine.add_deal(state, deal, rules)
            if state.finished:
                break
            continue
        compared += 1
        tricks = {s: p["tricks"] for s, p in piles.items()}
        bare = {**deal, "sides": {s: {"thirds": p["thirds"]} for s, p in piles.items()}}
        everyone = [s for s, n in tricks.items() if n == sum(tricks.values())]
        if everyone:
            bare["all_tricks"] = everyone[0]
        _, resolved, fresh = start_match(game, spec, players, state.dealer)
        fresh.totals, fresh.deals_played = dict(state.totals), state.deals_played
        before = engine.score_deal(deal, resolved, state).as_dict()
        after = engine.score_deal(bare, resolved, fresh).as_dict()
        assert (after["points"], after.get("units"), after["event"]) == (
            before["points"],
            before.get("units"),
            before["event"],
        ), deal
        engine.add_deal(state, deal, rules)
        if state.finished:
            break
    assert compared >= 3, f"only {compared} {game} deals entered by sides"


def test_calabrasella_without_counts():
    """Calabrasella's bidder against the opponents, in points (35 a deal): the counts
    are asked only to double at 70 under cav.double_70_condition = all_tricks."""
    from scorebook.rules import start_match

    rules = {"cav.double_70_condition": "all_tricks"}

    def deal(**more):
        engine, resolved, state = start_match("calabrasella", rules, 3)
        bids = [{"player": p, "bid": "pass"} for p in engine.dealt_in(state)[:-1]]
        bids.append({"player": engine.dealt_in(state)[-1], "bid": "stand"})
        body = {"bids": bids, "called": "3c", "called_from": "stock", "discards": 1,
                "last_trick": "bidder", **more}  # fmt: skip
        return engine.add_deal(state, body, resolved).as_dict()

    plain = deal(sides={"bidder": {"points": 20}, "opponents": {"points": 15}})
    counted = deal(
        sides={"bidder": {"points": 20, "tricks": 7}, "opponents": {"points": 15, "tricks": 5}}
    )
    assert plain["units"] == counted["units"] and plain["facts"]["tricks"] == {}
    whole = deal(sides={"bidder": {"points": 35}, "opponents": {"points": 0}}, all_tricks="bidder")
    some = deal(sides={"bidder": {"points": 35}, "opponents": {"points": 0}})
    assert whole["facts"]["result"] == 70 and some["facts"]["result"] == 35
