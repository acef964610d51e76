"""The federation call-out ("chiamata fuori") as the tournament code has it (issue 16,
"Call-out, special events, the end of a match").

Source: Codice del tressette (Enucatl/tressette, ``regolamento.tex``, the same text as
``regole``): "Norme che regolano la chiamata fuori" and "... la dichiarazione di andata per
cappotto" (traditional norms) and "Gioco Ordinario: norme moderne", "Norme che regolano la
chiamata fuori". Each test quotes the passage it follows.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorebook.rules import Rejection, play_match, resume_match, score_deal
from scorebook.rules.engine import start_match
from scorebook.rules.games.tressette4 import Tressette4

CALL_OUT = {"t4.claim_by": "opponents"}  # modern norms: a wrong call loses (the default)
TRADITIONAL = {**CALL_OUT, "t4.false_claim": "play_on"}


def sides(a, a_tricks, b, b_tricks):
    return {"A": {"thirds": a, "tricks": a_tricks}, "B": {"thirds": b, "tricks": b_tricks}}


def score(deal, before=None, **rules):
    return score_deal({"game": "tressette4", "rules": rules, "before": before or {}, **deal})


def after(totals, deal, **rules):
    """The deal scored in a match whose running totals are ``totals``."""
    game, parsed, state = start_match("tressette4", rules)
    state.totals.update(totals)
    return game.add_deal(state, deal, parsed), state


def codes(caught):
    return [(p.code, p.path) for p in caught.value.problems]


# -- the call-out itself ----------------------------------------------------------------


def test_art_chiamata_fuori_a_right_call_ends_the_game_for_the_side_called_out():
    """'Quando un giocatore ritiene che la coppia avversaria ... abbia raggiunto o superato
    i 21 punti ... ha il diritto di chiamarla fuori e, quindi, di chiedere la cessazione
    della partita': A had 15, took 6 points in 7 tricks, B calls A out: A has 21 and wins."""
    deal = {"sides": sides(20, 6, 1, 1), "claim": {"side": "A", "by": "B", "after_trick": 7}}
    result, state = after({"A": 15, "B": 3}, deal, **CALL_OUT)
    outcome = state.outcome
    assert outcome.reason == "claim" and outcome.winners == ("N", "S")
    assert outcome.detail["called_out_by"] == "B"
    assert result.claim == {
        "side": "A",
        "after_trick": 7,
        "by": "B",
        "total": 21,
        "target": 21,
        "holds": True,
    }


def test_norme_moderne_a_wrong_call_out_loses_the_game_for_the_callers():
    """'La coppia del giocatore che avesse esercitato ... il diritto di chiamare fuori gli
    avversari, perde comunque la partita anche se la coppia avversaria ... non lo
    raggiungesse': B calls A out at 18 of 21; B loses the game."""
    deal = {"sides": sides(11, 3, 10, 4), "claim": {"side": "A", "by": "B", "after_trick": 7}}
    result, state = after({"A": 15, "B": 3}, deal, **CALL_OUT)
    outcome = state.outcome
    assert outcome.reason == "false_claim"
    assert outcome.winners == ("N", "S") and outcome.losers == ("E", "W")


def test_by_default_only_a_side_claims_itself_out():
    deal = {"sides": sides(20, 6, 1, 1), "claim": {"side": "A", "by": "B", "after_trick": 7}}
    with pytest.raises(Rejection) as caught:
        score(deal, {"A": 15})
    assert codes(caught) == [("t4.callout_off", "claim.by")]
    assert "t4.claim_by" in caught.value.problems[0].en
    assert "chiamato fuori" in caught.value.problems[0].it


def test_norme_tradizionali_after_a_wrong_call_play_goes_on():
    """The traditional norms end the game only on a right call: after a wrong one the
    side called out 'deve dichiarare esattamente quanti punti ... mancano' and play goes on.
    Entered as the claim it is refused, in words that say how to enter it."""
    deal = {"sides": sides(11, 3, 10, 4), "claim": {"side": "A", "by": "B", "after_trick": 7}}
    with pytest.raises(Rejection) as caught:
        score(deal, {"A": 15}, **TRADITIONAL)
    assert codes(caught) == [("t4.callout_wrong_play_on", "claim")]
    assert "failed_callouts" in caught.value.problems[0].en


def test_norme_tradizionali_two_failed_call_outs_forfeit_the_right_to_a_third():
    """'La coppia che, nella stessa passata, effettui una seconda chiamata fuori e dalla
    verifica risulti che i 21 punti non sono ancora stati raggiunti, perde il diritto ad
    una terza chiamata fuori'."""
    two = [{"by": "B", "after_trick": 3}, {"by": "B", "after_trick": 5}]
    deal = {"sides": sides(20, 6, 12, 4), "last_trick": "A", "failed_callouts": two}
    result = score(deal, {"A": 10}, **TRADITIONAL)
    assert result.facts["failed_callouts"] == two
    assert result.points == {"A": 7, "B": 4}
    third = {**deal, "failed_callouts": [*two, {"by": "B", "after_trick": 6}]}
    with pytest.raises(Rejection) as caught:
        score(third, {"A": 10}, **TRADITIONAL)
    assert codes(caught) == [("t4.callout_no_third", "failed_callouts[2].by")]
    assert "third" in caught.value.problems[0].en and "terza" in caught.value.problems[0].it
    # ... nor may B call A out for the game in that deal.
    final = {"sides": sides(20, 6, 1, 1), "claim": {"side": "A", "by": "B", "after_trick": 7}}
    with pytest.raises(Rejection) as caught:
        score({**final, "failed_callouts": two}, {"A": 15}, **TRADITIONAL)
    assert codes(caught) == [("t4.callout_no_third", "claim.by")]
    # The other side keeps its own two.
    assert (
        score(
            {**deal, "failed_callouts": [*two, {"by": "A", "after_trick": 6}]},
            {"A": 10},
            **TRADITIONAL,
        ).facts["failed_callouts"][2]["by"]
        == "A"
    )


def test_the_state_remembers_failed_call_outs_across_deals_and_resumes():
    """Per deal by the code ('nella stessa passata'); per game under t4.callout_limit =
    per_game, so the state carries each side's wrong calls from deal to deal."""
    one = [{"by": "B", "after_trick": 2}]
    deal = {"sides": sides(14, 5, 18, 5), "last_trick": "B", "failed_callouts": one}
    rules = {**TRADITIONAL, "t4.target": 41}
    per_deal = play_match({"game": "tressette4", "rules": rules, "deals": [deal] * 3})
    assert per_deal.state.extra["failed_callouts"] == {"B": 3}
    per_game = {**rules, "t4.callout_limit": "per_game"}
    game, parsed, state = start_match("tressette4", per_game)
    for _ in range(2):
        game.add_deal(state, {**deal, "dealer": state.dealer}, parsed)
    stored = json.loads(json.dumps(state.as_dict()))
    again, again_rules, resumed = resume_match("tressette4", per_game, stored)
    assert resumed.extra["failed_callouts"] == {"B": 2}
    with pytest.raises(Rejection) as caught:
        again.add_deal(resumed, {**deal, "dealer": resumed.dealer}, again_rules)
    assert codes(caught) == [("t4.callout_no_third", "failed_callouts[0].by")]
    assert "in this game" in caught.value.problems[0].en


def test_a_call_out_entered_as_wrong_that_was_right_is_refused():
    """A side that already had the target before the deal (and its declarations) was out:
    calling it out was right, so the game ended there."""
    deal = {"sides": sides(20, 6, 12, 4), "last_trick": "A",
            "failed_callouts": [{"by": "B", "after_trick": 3}]}  # fmt: skip
    with pytest.raises(Rejection) as caught:
        score(deal, {"A": 21}, **TRADITIONAL)
    assert codes(caught) == [("t4.callout_was_right", "failed_callouts[0]")]


def test_failed_call_outs_need_the_rules_that_let_play_go_on():
    deal = {"sides": sides(20, 6, 12, 4), "last_trick": "A",
            "failed_callouts": [{"by": "B", "after_trick": 3}]}  # fmt: skip
    with pytest.raises(Rejection) as caught:
        score(deal, {"A": 10}, **CALL_OUT)
    assert codes(caught) == [("t4.callouts_off", "failed_callouts")]
    with pytest.raises(Rejection) as caught:
        score(deal, {"A": 10})
    assert codes(caught) == [("t4.callouts_not_played", "failed_callouts")]


# -- going for cappotto after the call-out ------------------------------------------------


def test_art_andata_per_cappotto_made_wins_with_the_cappotto_multiplier():
    """'La coppia vincente per chiamata fuori ha la facoltà di dichiarare di andare per
    cappotto': A, called out after 7 tricks all its own, goes on and takes the rest."""
    deal = {"sides": sides(20, 7, 0, 0),
            "claim": {"side": "A", "by": "B", "after_trick": 7, "cappotto": "made"}}  # fmt: skip
    result, state = after({"A": 15, "B": 3}, deal, **CALL_OUT)
    outcome = state.outcome
    assert result.event == "cappotto" and result.multiplier == 2  # PEN's cappotto
    assert outcome.reason == "claim" and outcome.multiplier == 2
    assert outcome.units == {"N": 2, "S": 2, "E": -2, "W": -2}
    assert outcome.detail["event"] == "cappotto"


def test_art_andata_per_cappotto_failed_pays_the_ordinary_stake_and_doubles_the_pot():
    """'La coppia che non consegue il cappotto dopo averlo dichiarato, esige la posta
    semplice o doppia vinta prima della dichiarazione, ma raddoppia la somma che si trova
    nel piatto'."""
    deal = {"sides": sides(20, 7, 0, 0),
            "claim": {"side": "A", "by": "B", "after_trick": 7, "cappotto": "failed"}}  # fmt: skip
    result, state = after({"A": 15, "B": 3}, deal, **CALL_OUT)
    outcome = state.outcome
    assert outcome.reason == "claim" and outcome.multiplier == 1
    assert outcome.units == {"N": 1, "S": 1, "E": -1, "W": -1}
    assert outcome.detail["cappotto_declared"] == "failed" and outcome.detail["pot"] == "doubled"
    assert result.event is None


def test_a_cappotto_needs_every_trick_before_the_call_and_a_call_by_the_opponents():
    made = {"side": "A", "by": "B", "after_trick": 7, "cappotto": "made"}
    with pytest.raises(Rejection) as caught:
        score({"sides": sides(20, 6, 1, 1), "claim": made}, {"A": 15}, **CALL_OUT)
    assert codes(caught) == [("t4.cappotto_not_made", "claim.cappotto")]
    own = {"side": "A", "after_trick": 7, "cappotto": "made"}
    with pytest.raises(Rejection) as caught:
        score({"sides": sides(20, 7, 0, 0), "claim": own}, {"A": 15}, **CALL_OUT)
    assert codes(caught) == [("t4.cappotto_needs_callout", "claim.cappotto")]


def test_norme_moderne_after_a_wrong_call_the_side_called_out_may_still_go_for_cappotto():
    """'la coppia chiamata avrà l'obbligo di chiamarsi fuori non appena ... avesse
    raggiunto il punteggio ... e dovrà, quindi, eseguire le dichiarazioni previste per
    l'andata per cappotto': B calls A out too early (A at 17); the callers lose, and A,
    having taken every trick, makes its declared cappotto."""
    deal = {"sides": sides(8, 3, 0, 0),
            "claim": {"side": "A", "by": "B", "after_trick": 3, "cappotto": "made"}}  # fmt: skip
    result, state = after({"A": 15, "B": 3}, deal, **CALL_OUT)
    outcome = state.outcome
    assert outcome.reason == "false_claim" and outcome.winners == ("N", "S")
    assert outcome.multiplier == 2


# -- the play record ----------------------------------------------------------------------

SUITS = {"W": "d", "N": "c", "S": "s", "E": "b"}
RANKS = ["3", "2", "A", "R", "C", "F", "7", "6", "5", "4"]


def pure_record(tricks=10, **extra):
    """Each player holds one whole suit; W, on lead, wins every trick (side B), leading his
    coins from the 3 down: B has 1 point after trick 1, 2 after 2, 6 after 3."""
    hands = {seat: [r + suit for r in RANKS] for seat, suit in SUITS.items()}
    record = [[hands[p][k] for p in ("W", "S", "E", "N")] for k in range(tricks)]
    return {"dealer": "N", "hands": hands, "tricks": record, **extra}


def test_a_play_record_checks_each_failed_call_out_trick_by_trick():
    """B starts at 15 of 21: after trick 2 it has 17 (a wrong call), after trick 3 it has
    21 (a right one, which ended the game)."""
    wrong = pure_record(failed_callouts=[{"by": "A", "after_trick": 2}])
    result = score(wrong, {"B": 15}, **TRADITIONAL)
    assert result.facts["failed_callouts"] == [{"by": "A", "after_trick": 2}]
    right = pure_record(failed_callouts=[{"by": "A", "after_trick": 3}])
    with pytest.raises(Rejection) as caught:
        score(right, {"B": 15}, **TRADITIONAL)
    assert codes(caught) == [("t4.callout_was_right", "failed_callouts[0]")]
    assert "21 of 21" in caught.value.problems[0].en


def test_a_play_record_call_out_and_cappotto_read_from_the_tricks():
    called = pure_record(3, claim={"side": "B", "by": "A"})
    assert score(called, {"B": 15}, **CALL_OUT).claim["holds"] is True
    going = pure_record(claim={"side": "B", "by": "A", "after_trick": 3, "cappotto": True})
    result = score(going, {"B": 15}, **CALL_OUT)
    assert result.claim["cappotto"] == "made" and result.claim["total"] == 21
    assert result.event == "cappotto"
    bad = pure_record(claim={"side": "B", "by": "A", "cappotto": True})
    with pytest.raises(Rejection) as caught:
        score(bad, {"B": 15}, **CALL_OUT)
    assert codes(caught) == [("t4.claim_record", "claim")]


# -- today's defaults are today's results --------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), level=st.sampled_from(["totals", "cards", "play"]))
def test_the_new_switches_at_their_defaults_give_todays_results(seed, level):
    """Naming every new switch at its default changes nothing, deal by deal, in a match
    with claims; and no new field appears in a result or in the state."""
    defaults = {
        "t4.claim_by": "claiming_side",
        "t4.false_claim": "claimant_loses_game",
        "t4.callout_limit": "per_deal",
        "t4.decl_anomalies": "refused",
    }
    game = Tressette4()
    _, rules, state = start_match("tressette4", {"t4.declarations": True})
    _, named, same = start_match("tressette4", {"t4.declarations": True, **defaults})
    rng = random.Random(seed)
    for _ in range(30):
        if state.finished:
            break
        deal = game.random_deal(rng, rules, state, level)
        if level != "play" and rng.random() < 0.2:
            deal["claim"] = {"side": rng.choice("AB"), "after_trick": 10}
        try:
            expected = game.add_deal(state, deal, rules).as_dict()
        except Rejection:
            with pytest.raises(Rejection):
                game.add_deal(same, deal, named)
            continue
        assert game.add_deal(same, deal, named).as_dict() == expected
        assert "failed_callouts" not in expected["facts"]
        assert state.as_dict() == same.as_dict()
        assert "failed_callouts" not in state.extra


@pytest.mark.parametrize("level", ["totals", "cards", "play"])
def test_random_matches_with_failed_call_outs_resume_from_the_stored_state(level):
    """The fold and the resume agree deal by deal when the state carries wrong calls."""
    spec = {**TRADITIONAL, "t4.callout_limit": "per_game"}
    game, rules, folded = start_match("tressette4", spec)
    rng = random.Random(level)
    seen = False
    for _ in range(40):
        if folded.finished:
            break
        deal = game.random_deal(rng, rules, folded, level)
        stored = json.loads(json.dumps(folded.as_dict()))
        expected = game.add_deal(folded, deal, rules).as_dict()
        again, again_rules, resumed = resume_match("tressette4", spec, stored)
        assert again.add_deal(resumed, json.loads(json.dumps(deal)), again_rules).as_dict() == (
            expected
        )
        assert resumed.as_dict() == folded.as_dict()
        seen = seen or bool(folded.extra.get("failed_callouts"))
    assert seen


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), level=st.sampled_from(["totals", "cards", "play"]))
def test_under_the_defaults_the_new_fields_are_refused_so_no_old_deal_changes(seed, level):
    """Today's rules read none of the new fields: a deal that carries one is refused in
    words (never scored some new way), so every deal accepted before scores as before."""
    game = Tressette4()
    _, rules, state = start_match("tressette4", {"t4.declarations": True})
    rng = random.Random(seed)
    deal = game.random_deal(rng, rules, state, level)
    extra = rng.choice(
        [
            {"failed_callouts": [{"by": "B", "after_trick": 1}]},
            {
                "claim": {"side": "A", "by": "B"}
                if level == "play"
                else {"side": "A", "by": "B", "after_trick": 10}
            },
            {"declarations": [{"player": "N", "type": "four", "rank": "3", "when": "late"}]},
        ]
    )
    with pytest.raises(Rejection) as caught:
        game.score_deal({**deal, **extra}, rules, state)
    assert {p.code for p in caught.value.problems} & {
        "t4.callouts_not_played",
        "t4.callout_off",
        "decl.anomaly_off",
    }
    assert all(p.en and p.it for p in caught.value.problems)
