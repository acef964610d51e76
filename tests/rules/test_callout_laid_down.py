"""The callers' extra stake under the modern norms (issue 16): a side called out wrongly
that then makes its cappotto by laying its cards down before reaching the target.

Source: Codice del tressette (Enucatl/tressette, ``regolamento.tex``; the same text in
``regole``), "Gioco Ordinario: norme moderne", "Norme che regolano la chiamata fuori": "La
coppia chiamante sarà pertanto tenuta a pagare posta semplice o doppia a seconda del
punteggio da essa realizzato fino a quel momento, salvo a dover corrispondere un'ulteriore
posta se la coppia chiamata fuori realizzasse il cappotto con una messa a terra eseguita
prima di aver raggiunto il punteggio previsto per la vittoria ordinaria."
"""

from __future__ import annotations

import pytest

from scorebook.rules import Rejection, score_deal
from scorebook.rules.engine import start_match

CALL_OUT = {"t4.claim_by": "opponents"}  # modern norms: a wrong call loses (the default)
MARCIO = {**CALL_OUT, "t4.stake": "marcio_e_batuffa"}
SUITS = {"W": "d", "N": "c", "S": "s", "E": "b"}
RANKS = ["3", "2", "A", "R", "C", "F", "7", "6", "5", "4"]


def sides(a, a_tricks, b, b_tricks):
    return {"A": {"thirds": a, "tricks": a_tricks}, "B": {"thirds": b, "tricks": b_tricks}}


def after(totals, deal, **rules):
    game, parsed, state = start_match("tressette4", rules)
    state.totals.update(totals)
    return game.add_deal(state, deal, parsed), state


def codes(caught):
    return [(p.code, p.path) for p in caught.value.problems]


LAID = {"side": "A", "by": "B", "after_trick": 3, "cappotto": "laid_down"}


def test_the_callers_pay_one_more_stake():
    """B calls A out after three tricks, A at 15 + 2 = 17 of 21: a wrong call, so B loses
    anyway ("perde comunque la partita"); A then lays its cards down and takes every
    trick: B pays the ordinary stake and "un'ulteriore posta"."""
    result, state = after(
        {"A": 15, "B": 3}, {"sides": sides(8, 3, 0, 0), "claim": LAID}, **CALL_OUT
    )
    outcome = state.outcome
    assert outcome.reason == "false_claim" and outcome.winners == ("N", "S")
    assert outcome.multiplier == 2 and outcome.units == {"N": 2, "S": 2, "E": -2, "W": -2}
    assert outcome.detail["cappotto_laid_down"] is True
    assert result.event is None  # the extra stake, not the cappotto's multiplier
    plain = {"side": "A", "by": "B", "after_trick": 3}
    _, ordinary = after({"A": 15, "B": 3}, {"sides": sides(8, 3, 0, 0), "claim": plain}, **CALL_OUT)
    assert ordinary.outcome.multiplier == outcome.multiplier - 1


def test_under_marcio_e_batuffa_single_or_double_by_the_callers_points_plus_one():
    """ "posta semplice o doppia a seconda del punteggio da essa realizzato": B on 3 has not
    "sbatuffato" (under 11), so two stakes, and the extra one makes three; B on 12 pays one,
    and the extra one makes two."""
    _, low = after({"A": 15, "B": 3}, {"sides": sides(8, 3, 0, 0), "claim": LAID}, **MARCIO)
    assert low.outcome.multiplier == 3 and low.outcome.detail["stake"] == "marcio_e_batuffa"
    _, high = after({"A": 15, "B": 12}, {"sides": sides(8, 3, 0, 0), "claim": LAID}, **MARCIO)
    assert high.outcome.multiplier == 2


def test_refused_after_a_right_call_or_under_the_traditional_norms_or_with_a_trick_lost():
    """A right call ends the game for A (a cappotto after it is 'made'); under the
    traditional norms a wrong call does not end the game; and a cappotto needs every
    trick."""
    deal = {"sides": sides(20, 3, 0, 0), "claim": LAID}
    with pytest.raises(Rejection) as caught:
        score_deal({"game": "tressette4", "rules": CALL_OUT, "before": {"A": 15}, **deal})
    assert codes(caught) == [("t4.laid_down_needs_wrong_call", "claim.cappotto")]
    assert "21 of 21" in caught.value.problems[0].en
    assert "21 punti su 21" in caught.value.problems[0].it
    traditional = {**CALL_OUT, "t4.false_claim": "play_on"}
    with pytest.raises(Rejection) as caught:
        score_deal(
            {
                "game": "tressette4",
                "rules": traditional,
                "before": {"A": 15},
                "sides": sides(8, 3, 0, 0),
                "claim": LAID,
            }
        )
    assert ("t4.laid_down_needs_wrong_call", "claim.cappotto") in codes(caught)
    with pytest.raises(Rejection) as caught:
        score_deal(
            {
                "game": "tressette4",
                "rules": CALL_OUT,
                "before": {"A": 15},
                "sides": sides(8, 2, 0, 1),
                "claim": LAID,
            }
        )
    assert codes(caught) == [("t4.cappotto_not_made", "claim.cappotto")]


def record(**extra):
    """Each player holds one whole suit; W (side B), on lead, wins the four tricks shown
    leading his coins from the 3 down (B has 1 point after the first)."""
    hands = {seat: [r + suit for r in RANKS] for seat, suit in SUITS.items()}
    tricks = [[hands[p][k] for p in ("W", "S", "E", "N")] for k in range(4)]
    return {"game": "tressette4", "dealer": "N", "hands": hands, "tricks": tricks, **extra}


def test_a_play_record_finds_it_trick_by_trick():
    """A calls B out after the first trick (B: 0 + 1 point, wrong); W lays his coins down
    after the fourth trick, every card of theirs unbeatable (nobody else holds a coin): B
    makes its cappotto before reaching 21, and A owes the extra stake."""
    claim = {"side": "B", "by": "A", "after_trick": 1, "cappotto": True}
    deal = record(rules=CALL_OUT, claim=claim, laid_down={"player": "W"})
    result = score_deal(deal)
    assert result.claim["cappotto"] == "laid_down" and result.claim["holds"] is False
    game, parsed, state = start_match("tressette4", CALL_OUT)
    game.add_deal(state, {k: v for k, v in deal.items() if k not in ("game", "rules")}, parsed)
    assert state.outcome.reason == "false_claim" and state.outcome.multiplier == 2
    assert state.outcome.detail["cappotto_laid_down"] is True
    # B already at 20 before the deal: it reached 21 before laying down, no extra stake.
    late = start_match("tressette4", CALL_OUT)
    late[2].totals.update({"B": 20})
    call = {**claim, "after_trick": 0}
    body = {k: v for k, v in deal.items() if k not in ("game", "rules")} | {"claim": call}
    late[0].add_deal(late[2], body, late[1])
    assert "cappotto_laid_down" not in late[2].outcome.detail
