"""The first side to reach the target wins, in the order of the tricks (issue 16, "the
end of a match"). Source: Codice del tressette (Enucatl/tressette,
``regolamento_olimpiadi.tex``), "La partita": "Vince la partita la coppia che raggiunge
prima dell'altra il punteggio di 77 punti" - the side that reaches it *before* the other,
not the one with the higher total once the deal is over."""

from __future__ import annotations

import random

import pytest

from scorebook.rules import Rejection
from scorebook.rules.engine import start_match

FIRST = {"t4.reaching_target": "first_in_trick_order", "t4.target": 41}


def deal(a, ta, b, tb, last, **extra):
    return {
        "sides": {"A": {"thirds": a, "tricks": ta}, "B": {"thirds": b, "tricks": tb}},
        "last_trick": last,
        **extra,
    }


def at(totals, rules):
    game, resolved, state = start_match("tressette4", rules)
    state.totals.update(totals)
    return game, resolved, state


def test_both_reach_the_target_the_side_named_first_wins_though_it_has_less():
    game, rules, state = at({"A": 38, "B": 37}, FIRST)
    result = game.add_deal(state, deal(12, 4, 20, 6, "B", first_to_target="A"), rules)
    assert state.totals == {"A": 42, "B": 44}
    assert state.finished and state.outcome.reason == "target"
    assert state.outcome.detail["winning_side"] == "A"
    assert result.facts["first_to_target"] == "A"
    # By default the higher total wins.
    game, rules, state = at({"A": 38, "B": 37}, {"t4.target": 41})
    game.add_deal(state, deal(12, 4, 20, 6, "B"), rules)
    assert state.outcome.detail["winning_side"] == "B"


def test_who_reached_first_must_be_said_and_must_be_true():
    game, rules, state = at({"A": 38, "B": 37}, FIRST)
    with pytest.raises(Rejection) as missing:
        game.add_deal(state, deal(12, 4, 20, 6, "B"), rules)
    assert [p.code for p in missing.value.problems] == ["t4.first_to_target_needed"]
    assert "first" in missing.value.problems[0].en and "prima" in missing.value.problems[0].it
    game, rules, state = at({"A": 30, "B": 37}, FIRST)
    with pytest.raises(Rejection) as wrong:
        game.add_deal(state, deal(12, 4, 20, 6, "B", first_to_target="A"), rules)
    assert [p.code for p in wrong.value.problems] == ["t4.first_to_target_not_reached"]
    game, rules, state = at({}, {"t4.target": 41})
    with pytest.raises(Rejection) as off:
        game.add_deal(state, deal(12, 4, 20, 6, "B", first_to_target="A"), rules)
    assert [p.code for p in off.value.problems] == ["t4.first_to_target_off"]


def test_one_side_reaching_needs_no_name():
    game, rules, state = at({"A": 38, "B": 10}, FIRST)
    result = game.add_deal(state, deal(12, 4, 20, 6, "B"), rules)
    assert state.outcome.detail["winning_side"] == "A"
    assert result.facts["first_to_target"] == "A"


def _first_by_hand(record_result, before, target):
    """The test's own count, in the order things happen at the table: each declaration at
    its maker's first turn in trick 1 (the code, arts. 73, 132-133), then trick by trick
    the card points taken so far, the last trick's point with the last trick."""
    side_of = {"N": "A", "S": "A", "E": "B", "W": "B"}
    declared = dict.fromkeys(("A", "B"), 0)
    by_player = {}
    for line in (ln for s in ("A", "B") for ln in record_result.breakdown[s]):
        if line.kind == "declaration":
            who = line.detail["player"]
            by_player[who] = by_player.get(who, 0) + line.points
    thirds = {"A": 0, "B": 0}
    tricks = record_result.facts["play"]["tricks"]
    values = {"A": 3, "3": 1, "2": 1, "R": 1, "C": 1, "F": 1}
    for n, trick in enumerate(tricks, start=1):
        for player in trick["players"] if n == 1 else ():
            s = side_of[player]
            declared[s] += by_player.get(player, 0)
            if before[s] + declared[s] >= target:
                return s
        side = side_of[trick["winner"]]
        thirds[side] += sum(values.get(code[:-1], 0) for code in trick["cards"])
        last = 1 if n == len(tricks) else 0
        if before[side] + declared[side] + thirds[side] // 3 + last >= target:
            return side
    return None


def test_a_play_record_shows_who_reached_the_target_first():
    game, rules, _ = at({}, FIRST)
    upsets = 0
    for seed in range(120):
        before = {"A": 36, "B": 37}
        _, _, state = at(before, FIRST)
        record = game.random_deal(random.Random(seed), rules, state, "play")
        if "claim" in record or record.get("annulled_by"):
            continue
        result = game.add_deal(state, record, rules)
        if not all(state.totals[s] >= 41 for s in "AB"):
            continue
        expected = _first_by_hand(result, before, 41)
        assert state.outcome.detail["winning_side"] == expected, seed
        higher = max("AB", key=lambda s: state.totals[s])
        upsets += expected != higher and state.totals["A"] != state.totals["B"]
    assert upsets, "no deal where the first to the target was not the higher total"


DECLARING = {**FIRST, "t4.declarations": True}


def _records_with_declarations(rules):
    """Random play records (seeded) whose declarations score, each with trick 1."""
    game, resolved, state = at({}, rules)
    for seed in range(400):
        record = game.random_deal(random.Random(seed), resolved, state, "play")
        if "claim" in record or record.get("annulled_by") or not record.get("declarations"):
            continue
        probe = game.score_deal(record, resolved, state)
        points = {}
        for side in ("A", "B"):
            for line in probe.breakdown[side]:
                if line.kind == "declaration":
                    points[line.detail["player"]] = (
                        points.get(line.detail["player"], 0) + line.points
                    )
        yield seed, record, probe, points


def test_a_declaration_reaches_the_target_before_trick_1_is_taken():
    """Art. 73: accusing, a side can win "prima che si esaurisca la prima battuta". A side
    whose declaration reaches the target during trick 1 wins against a side that reaches
    it only when trick 1 is taken; it lost before (A's trick was counted with B's
    declaration, and A was looked at first)."""
    side_of = {"N": "A", "S": "A", "E": "B", "W": "B"}
    found = 0
    for seed, record, probe, points in _records_with_declarations(DECLARING):
        trick = probe.facts["play"]["tricks"][0]
        taker = side_of[trick["winner"]]
        other = "B" if taker == "A" else "A"
        values = {"A": 3, "3": 1, "2": 1, "R": 1, "C": 1, "F": 1}
        first_points = sum(values.get(c[:-1], 0) for c in trick["cards"]) // 3
        declared = {s: sum(p for who, p in points.items() if side_of[who] == s) for s in "AB"}
        if not declared[other] or declared[taker] or first_points < 1:
            continue
        # The taker reaches the target exactly when trick 1 is taken, the other side with
        # its declaration, made during trick 1.
        before = {taker: 41 - first_points, other: 41 - declared[other]}
        game, rules, state = at(before, DECLARING)
        game.add_deal(state, record, rules)
        assert state.outcome.detail["winning_side"] == other, seed
        found += 1
        if found == 3:
            break
    assert found == 3


def test_declarations_that_both_reach_the_target_count_in_turn_order():
    """Both sides reach the target by declarations in trick 1: the side whose declarer
    plays first in trick 1 wins, whichever side it is (side A always won before)."""
    side_of = {"N": "A", "S": "A", "E": "B", "W": "B"}
    winners = set()
    for seed, record, probe, points in _records_with_declarations(DECLARING):
        declared = {s: sum(p for who, p in points.items() if side_of[who] == s) for s in "AB"}
        if not (declared["A"] and declared["B"]):
            continue
        order = probe.facts["play"]["tricks"][0]["players"]
        expected = side_of[next(p for p in order if points.get(p))]
        before = {s: 41 - declared[s] for s in "AB"}
        game, rules, state = at(before, DECLARING)
        game.add_deal(state, record, rules)
        assert state.outcome.detail["winning_side"] == expected, seed
        winners.add(expected)
    assert winners == {"A", "B"}


# -- a match of a fixed number of deals, a tie played off deal by deal -------------------


def test_a_match_of_a_fixed_number_of_deals_with_a_playoff():
    """Tournaments play a set number of deals: the higher total wins when they are over,
    whatever the target; a tie plays another deal, one at a time, until a side leads."""
    game, rules, state = at({}, {"t4.deals": 3, "t4.target": 11})
    game.add_deal(state, deal(20, 6, 12, 4, "A"), rules)  # 7-4: past 11 would end a race
    game.add_deal(state, deal(20, 6, 12, 4, "A"), rules)
    assert not state.finished and state.totals == {"A": 14, "B": 8}
    game.add_deal(state, {"annulled_for": {"reason": "misdeal", "stage": "dealing"}}, rules)
    assert not state.finished  # an annulled deal is not one of the three
    game.add_deal(state, deal(12, 4, 20, 6, "B"), rules)
    assert state.finished and state.outcome.reason == "deals"
    assert state.outcome.detail["winning_side"] == "A"

    game, rules, state = at({}, {"t4.deals": 2})
    game.add_deal(state, deal(20, 6, 12, 4, "A"), rules)  # 7-4
    game.add_deal(state, deal(12, 4, 20, 6, "B"), rules)  # 4-7: 11-11, a tie
    assert not state.finished and state.extra["playoff"] == 1
    game.add_deal(state, deal(17, 5, 15, 5, "B"), rules)  # 5-6: 16-17
    assert state.finished and state.outcome.detail["winning_side"] == "B"
    assert state.deals_counted == 3
