"""Incomplete, wrong, early and late declarations as the tournament code handles them
(issue 16, "Declarations (accusi)"), under ``t4.decl_anomalies = code``.

Source: Codice del tressette (Enucatl/tressette, ``regolamento.tex``, the same text as
``regole``), "Il gioco con l'Accusa" and "Anomalie dell'accusa". Each test quotes the
article it follows. By default (``refused``) such a declaration is refused in words.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from scorebook.rules import Rejection, play_match, score_deal

CODE = {"t4.declarations": True, "t4.decl_anomalies": "code"}
PLAIN = {
    "sides": {"A": {"thirds": 20, "tricks": 6}, "B": {"thirds": 12, "tricks": 4}},
    "last_trick": "A",
}
NAP = {"player": "N", "type": "napoletana", "suit": "c"}
THREE = {"player": "N", "type": "three", "rank": "3", "missing": "b"}


def score(declarations, before=None, **rules):
    deal = {"game": "tressette4", "rules": {**CODE, **rules}, "before": before or {}, **PLAIN}
    return score_deal({**deal, "declarations": declarations})


def declared(result, side="A"):
    return [
        (ln.points, dict(ln.detail)) for ln in result.breakdown[side] if ln.kind == "declaration"
    ]


def codes(caught):
    return [(p.code, p.path) for p in caught.value.problems]


def test_by_default_an_anomaly_is_refused_in_words():
    deal = {"game": "tressette4", "rules": {"t4.declarations": True}, **PLAIN,
            "declarations": [{**NAP, "when": "late"}]}  # fmt: skip
    with pytest.raises(Rejection) as caught:
        score_deal(deal)
    assert codes(caught) == [("decl.anomaly_off", "declarations[0].when")]
    problem = caught.value.problems[0]
    assert "t4.decl_anomalies" in problem.en and "in tempo" in problem.it


def test_late_declaration_uncontested_stands():
    """'Se un giocatore, esauritasi la prima battuta, esegue un'accusa ... gli avversari
    hanno la facoltà di andare a monte; se tale facoltà non viene tempestivamente
    esercitata si verifica una sanatoria implicita definitiva obbligatoria'."""
    ((points, detail),) = declared(score([{**NAP, "when": "late", "trick": 3}]))
    assert points == 3 and detail["when"] == "late" and detail["cured"] is True


def test_late_declaration_contested_loses_its_points():
    """'... o, se l'irregolarità viene contestata immediatamente dopo la conclusione della
    battuta in corso, una sanatoria esplicita ... per chi ha commesso l'errore: perdita dei
    punti di buongioco'."""
    result = score([{**NAP, "when": "late", "contested": True}])
    ((points, detail),) = declared(result)
    assert points == 0 and detail["lost"] is True and detail["contested"] is True
    assert result.points["A"] == 7  # the cards and the last trick only


def test_early_declaration_contested_loses_it_and_bars_the_others():
    """'Se un giocatore, prima che sia giunto il suo turno di gioco, dichiara ... di
    possedere buongioco ... se l'irregolarità viene contestata ... per chi ha commesso
    l'errore: divieto di completare l'accusa intempestiva e perdita dei punti di buongioco
    ..., nonché divieto di effettuare altre possibili accuse'. Uncontested, it stands
    ('sanatoria implicita'); his partner's own declaration is not his."""
    partner = {"player": "S", "type": "three", "rank": "2", "missing": "c"}
    stands = declared(score([{**NAP, "when": "early"}, THREE, partner]))
    assert [p for p, _ in stands] == [3, 3, 3]
    lost = declared(score([{**NAP, "when": "early", "contested": True}, THREE, partner]))
    assert [p for p, _ in lost] == [0, 0, 3]
    assert lost[1][1]["barred"] == "early_contested"


def test_incomplete_declaration_completed_during_the_first_trick_counts():
    """'Il giocatore che al suo turno di gioco ... accusa in maniera incompleta ... può - a
    prima battuta ancora in corso - ... completare ... l'accusa irregolarmente eseguita,
    dando così luogo ad una sanatoria implicita definitiva obbligatoria'. The suit he did
    not say may be left out of the entry."""
    unsaid = {"player": "N", "type": "three", "rank": "3", "form": "incomplete",
              "fixed": "by_declarer"}  # fmt: skip
    ((points, detail),) = declared(score([unsaid]))
    assert points == 3 and detail["cured"] is True and "missing" not in detail


def test_the_cure_is_not_valid_once_the_opponents_have_won_by_declaring():
    """'Tale sanatoria non è valida se gli avversari, avendo accusato nel frattempo, hanno
    già vinto la partita': B, at 18 of 21, declares three aces meanwhile."""
    fixed = {**THREE, "form": "incomplete", "fixed": "by_declarer"}
    theirs = {"player": "E", "type": "three", "rank": "A", "missing": "c"}
    result = score([fixed, theirs], {"B": 18})
    ((points, detail),) = declared(result)
    assert points == 0 and detail["opponents_had_won"] is True and "cured" not in detail
    assert declared(score([fixed, theirs], {"B": 17}))[0][0] == 3


@pytest.mark.parametrize(
    "declaration,points",
    [
        # 'si constata l'erroneità di una qualsiasi accusa, napoletana esclusa: l'accusa
        # deve essere corretta e, quindi, ha luogo una sanatoria implicita'
        ({**THREE, "form": "wrong", "fixed": "found_in_play"}, 3),
        # 'si constata l'erroneità dell'accusa di una napoletana: l'accusa non può essere
        # corretta'
        ({**NAP, "form": "wrong", "fixed": "found_in_play"}, 0),
        # 'viene a rendersi palese la carta fagliante al giocatore che aveva eseguito in
        # maniera incompleta l'accusa di tre carte': sanatoria implicita
        ({**THREE, "form": "incomplete", "fixed": "found_in_play"}, 3),
        # 'Se in tale irregolarità incorre uno degli avversari ... l'accusa ... può essere
        # immediatamente integrata o corretta con sanatoria definitiva'
        ({**NAP, "form": "wrong", "fixed": "asked_by_opponent"}, 3),
        # 'Se in essa incorre il compagno ... divieto di rettificare l'accusa incompleta o
        # errata e la perdita dei punti di buongioco'
        ({**THREE, "form": "incomplete", "fixed": "asked_by_partner"}, 0),
        # put right after the first trick: a late declaration, which stands uncontested ...
        ({**THREE, "form": "wrong", "fixed": "after_first_trick"}, 3),
        # ... and loses its points when contested
        ({**THREE, "form": "wrong", "fixed": "after_first_trick", "contested": True}, 0),
        # never put right: not 'correttamente' declared
        ({**THREE, "form": "incomplete", "fixed": "never"}, 0),
    ],
)
def test_incomplete_and_wrong_declarations_follow_the_code(declaration, points):
    ((got, detail),) = declared(score([declaration]))
    assert got == points
    assert detail["lost" if points == 0 else "cured"] is True


def test_the_opponents_may_annul_instead():
    """'gli avversari hanno la facoltà di andare a monte': the deal is annulled, the same
    dealer deals again."""
    match = play_match(
        {
            "game": "tressette4",
            "rules": CODE,
            "first_dealer": "N",
            "deals": [
                {
                    "annulled_for": {
                        "reason": "declaration",
                        "stage": "play",
                        "asked_by": "E",
                        "trick": 2,
                    }
                }
            ],
        }
    )
    assert match.results[0].annulled and match.state.dealer == "N"


def test_a_late_declaration_marked_late_passes_the_window_and_an_unmarked_one_does_not():
    late = {**NAP, "trick": 4}
    with pytest.raises(Rejection) as caught:
        score([late])
    assert codes(caught) == [("t4.decl_too_late", "declarations[0]")]
    assert declared(score([{**late, "when": "late"}]))[0][0] == 3


@pytest.mark.parametrize(
    "declaration,code",
    [
        ({**THREE, "form": "wrong"}, ("decl.form_without_fixed", "declarations[0].fixed")),
        ({**THREE, "fixed": "never"}, ("decl.fixed_without_form", "declarations[0].fixed")),
        ({**THREE, "contested": True}, ("decl.contested_nothing", "declarations[0].contested")),
        ({**THREE, "when": "soon"}, ("input.bad_choice", "declarations[0].when")),
        ({"player": "N", "type": "three", "rank": "3", "when": "late"},
         ("decl.bad_missing", "declarations[0].missing")),
    ],
)  # fmt: skip
def test_anomaly_fields_are_checked_in_words(declaration, code):
    with pytest.raises(Rejection) as caught:
        score([declaration])
    assert codes(caught) == [code]
    assert all(p.en and p.it for p in caught.value.problems)


def test_the_cli_scores_the_new_fields():
    """``python -m scorebook.rules score``: a call-out and an anomalous declaration."""
    match = {
        "game": "tressette4",
        "rules": {**CODE, "t4.claim_by": "opponents", "t4.false_claim": "play_on"},
        "first_dealer": "N",
        "deals": [
            {**PLAIN, "declarations": [{**NAP, "when": "late", "contested": True}],
             "failed_callouts": [{"by": "B", "after_trick": 4}]},
        ],
    }  # fmt: skip

    def cli(data):
        done = subprocess.run(
            [sys.executable, "-m", "scorebook.rules", "score"],
            input=json.dumps(data),
            capture_output=True,
            text=True,
            check=False,
        )
        return done.returncode, json.loads(done.stdout)

    code, out = cli(match)
    assert code == 0, out
    assert out["match"]["totals"] == {"A": 7, "B": 4}
    assert out["match"]["extra"]["failed_callouts"] == {"B": 1}
    assert out["deals"][0]["breakdown"]["A"][-1]["lost"] is True
    match["rules"]["t4.false_claim"] = "claimant_loses_game"
    code, out = cli(match)
    assert code == 2 and out["errors"][0]["code"] == "t4.callouts_off"


def test_a_play_record_carries_the_anomaly_fields():
    """In a play record the dealt hands are known: a wrong napoletana (N said coins; he
    holds cups) put right at an opponent's question counts, as the cups he holds; a late
    one contested does not."""
    suits = {"W": "d", "N": "c", "S": "s", "E": "b"}
    ranks = ["3", "2", "A", "R", "C", "F", "7", "6", "5", "4"]
    hands = {seat: [r + suit for r in ranks] for seat, suit in suits.items()}
    tricks = [[hands[p][k] for p in ("W", "S", "E", "N")] for k in range(10)]
    deal = {"game": "tressette4", "rules": CODE, "dealer": "N", "hands": hands, "tricks": tricks}
    fixed = {**NAP, "form": "wrong", "fixed": "asked_by_opponent"}
    assert declared(score_deal({**deal, "declarations": [fixed]}))[0][0] == 3
    late = {**NAP, "when": "late", "contested": True}
    result = score_deal({**deal, "declarations": [late]})
    assert declared(result)[0][0] == 0 and result.points["A"] == 0


def test_a_line_scoring_nothing_says_zero_in_its_dict():
    """Bug found here: a declaration line's detail carried the declaration's value under
    ``points`` and overrode the line's own points in ``as_dict`` (a void or lost
    declaration read 3 while scoring 0); the two must agree."""
    result = score([{**NAP, "when": "late", "contested": True}])
    (line,) = [ln for ln in result.as_dict()["breakdown"]["A"] if ln["kind"] == "declaration"]
    assert line["points"] == 0
    assert sum(ln["points"] for ln in result.as_dict()["breakdown"]["A"]) == result.points["A"]
    void = score_deal(
        {
            "game": "tressette4",
            "rules": {"t4.decl_void_on_cappotto": "void"},
            "sides": {"A": {"thirds": 32, "tricks": 10}, "B": {"thirds": 0, "tricks": 0}},
            "last_trick": "A",
            "declarations": [{"player": "E", "type": "napoletana", "suit": "b"}],
        }
    )
    (line,) = [ln for ln in void.as_dict()["breakdown"]["B"] if ln["kind"] == "declaration"]
    assert line["void"] is True and line["points"] == 0 == void.points["B"]


def test_a_play_record_still_checks_the_cards_of_a_declaration_gone_wrong():
    """A declaration marked late must still be in the declarer's hand (A8): N holds the
    cups, not a napoletana in coins."""
    suits = {"W": "d", "N": "c", "S": "s", "E": "b"}
    ranks = ["3", "2", "A", "R", "C", "F", "7", "6", "5", "4"]
    hands = {seat: [r + suit for r in ranks] for seat, suit in suits.items()}
    tricks = [[hands[p][k] for p in ("W", "S", "E", "N")] for k in range(10)]
    deal = {"game": "tressette4", "rules": CODE, "dealer": "N", "hands": hands, "tricks": tricks,
            "declarations": [{**NAP, "suit": "d", "when": "late"}]}  # fmt: skip
    with pytest.raises(Rejection) as caught:
        score_deal(deal)
    assert codes(caught) == [("t4.decl_not_held", "declarations[0]")]
