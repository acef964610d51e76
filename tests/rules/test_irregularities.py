"""Irregularities as the tournament code records them (issue 16, "Irregularities and
penalties").

Source: Codice del tressette (Enucatl/tressette, ``regolamento_olimpiadi.tex``), chapter
"Norme generali", sections "Le anomalie" and "Penalità". Each test names the passage it
follows.
"""

from __future__ import annotations

import random

import pytest

from scorebook.rules import Rejection, play_match, score_deal
from scorebook.rules.engine import start_match
from scorebook.rules.games import REGISTRY

POINTS_ONLY = {"t4.special_event_effect": "score_points_only"}
SUITS = {"W": "d", "N": "c", "S": "s", "E": "b"}
RANKS = ["3", "2", "A", "R", "C", "F", "7", "6", "5", "4"]


def pure_hands():
    """Each player holds one whole suit: nobody can ever follow, nobody can revoke."""
    return {seat: [r + suit for r in RANKS] for seat, suit in SUITS.items()}


def record(hands, tricks, **extra):
    return {"game": "tressette4", "dealer": "N", "hands": hands, "tricks": tricks, **extra}


def revoke_record(**extra):
    """N (side A) keeps the 4 of coins among his cups and throws it on W's lead of the 4
    of cups, holding nine cups: a revoke at trick 1. W (side B) wins every trick."""
    hands = pure_hands()
    hands["N"] = [c for c in hands["N"] if c != "4c"] + ["4d"]
    hands["W"] = [c for c in hands["W"] if c != "4d"] + ["4c"]
    tricks = [["4c", "4s", "4b", "4d"]]
    coins = [r + "d" for r in RANKS if r != "4"]
    cups = [r + "c" for r in RANKS if r != "4"]
    for k in range(9):
        tricks.append([coins[k], RANKS[k] + "s", RANKS[k] + "b", cups[k]])
    return record(hands, tricks, **extra)


def out_of_turn_record(**extra):
    """S (side A) leads trick 1 although W, the dealer's eldest, had the lead."""
    tricks = [[RANKS[k] + "s", RANKS[k] + "b", RANKS[k] + "c", RANKS[k] + "d"] for k in range(10)]
    return record(pure_hands(), tricks, **extra)


def score(deal, **rules):
    return score_deal({**deal, "rules": {**POINTS_ONLY, **rules}})


def lines(result, kind="penalty"):
    return {
        s: [(ln.points, dict(ln.detail)) for ln in v if ln.kind == kind]
        for s, v in result.breakdown.items()
    }


def codes(excinfo):
    return [p.code for p in excinfo.value.problems]


# -- penalties ------------------------------------------------------------------------


def test_penalty_entered_at_totals_level_gives_the_opponents_three_points_by_default():
    """'Penalità': the side at fault is punished with 3 points; by default (the book's
    revoke penalty) the opponents gain them."""
    deal = {
        "sides": {"A": {"thirds": 20, "tricks": 6}, "B": {"thirds": 12, "tricks": 4}},
        "last_trick": "A",
        "penalties": [{"against": "N", "reason": "exposed_card", "trick": 4}],
    }
    result = score({"game": "tressette4", **deal})
    assert result.points == {"A": 7, "B": 4 + 3}
    assert lines(result)["B"] == [
        (3, {"penalty": {"against": "N", "reason": "exposed_card", "trick": 4}})
    ]


def test_the_offenders_lose_the_points_under_the_tournament_code():
    """'I giocatori responsabili di anomalie non sanabili ... sono puniti con una penalità
    di 3 punti': core.penalty_to = offenders_lose takes them off the side at fault."""
    deal = {
        "game": "tressette4",
        "sides": {"A": {"thirds": 20, "tricks": 6}, "B": {"thirds": 12, "tricks": 4}},
        "last_trick": "A",
        "penalties": [{"against": "A", "reason": "conduct"}],
    }
    result = score(deal, **{"core.penalty_to": "offenders_lose"})
    assert result.points == {"A": 7 - 3, "B": 4}
    five = score(deal, **{"core.penalty_to": "offenders_lose", "core.penalty_points": 5})
    assert five.points == {"A": 2, "B": 4}


def test_a_total_may_go_below_zero_unless_the_club_stops_at_zero():
    rules = {**POINTS_ONLY, "core.penalty_to": "offenders_lose"}
    deal = {
        "sides": {"A": {"thirds": 3, "tricks": 1}, "B": {"thirds": 29, "tricks": 9}},
        "last_trick": "B",
        "penalties": [{"against": "S", "reason": "revoke", "trick": 2}],
    }
    below = play_match({"game": "tressette4", "rules": rules, "deals": [deal]})
    assert below.state.totals == {"A": 1 - 3, "B": 10}
    floor = {**rules, "core.penalty_floor": "zero"}
    stopped = play_match({"game": "tressette4", "rules": floor, "deals": [deal]})
    assert stopped.state.totals == {"A": 0, "B": 10}
    (line,) = [ln for ln in stopped.results[0].breakdown["A"] if ln.kind == "penalty"]
    assert line.points == -1  # only what the side had


def test_one_penalty_per_anomaly():
    deal = {
        "game": "tressette4",
        "sides": {"A": {"thirds": 20, "tricks": 6}, "B": {"thirds": 12, "tricks": 4}},
        "last_trick": "A",
        "penalties": [
            {"against": "N", "reason": "exposed_card", "trick": 4},
            {"against": "N", "reason": "exposed_card", "trick": 4},
        ],
    }
    with pytest.raises(Rejection) as excinfo:
        score(deal)
    assert codes(excinfo) == ["penalty.twice"]
    assert "penalised once" in excinfo.value.problems[0].en
    assert "una volta sola" in excinfo.value.problems[0].it


def test_a_penalty_names_a_player_or_side_of_the_deal_and_a_known_reason():
    deal = {
        "game": "tressette4",
        "sides": {"A": {"thirds": 20, "tricks": 6}, "B": {"thirds": 12, "tricks": 4}},
        "last_trick": "A",
        "penalties": [{"against": "P9", "reason": "cheating"}, "revoke"],
    }
    with pytest.raises(Rejection) as excinfo:
        score(deal)
    assert codes(excinfo) == ["penalty.unknown_offender", "input.bad_choice", "input.not_object"]
    assert [p.path for p in excinfo.value.problems] == [
        "penalties[0].against",
        "penalties[0].reason",
        "penalties[1]",
    ]


def test_a_scoring_problem_and_a_penalty_problem_are_reported_together():
    deal = {
        "game": "tressette4",
        "sides": {"A": {"thirds": 20, "tricks": 6}, "B": {"thirds": 10, "tricks": 4}},
        "last_trick": "A",
        "penalties": [{"against": "X", "reason": "other"}],
    }
    with pytest.raises(Rejection) as excinfo:
        score(deal)
    assert "penalty.unknown_offender" in codes(excinfo)
    assert len(codes(excinfo)) >= 2


def test_penalties_in_an_individual_game_and_in_rovescino():
    deal = {
        "game": "tressette3",
        "seats": {
            "P1": {"thirds": 12, "tricks": 5},
            "P2": {"thirds": 12, "tricks": 4},
            "P3": {"thirds": 8, "tricks": 4},
        },
        "last_trick": "P1",
        "penalties": [{"against": "P2", "reason": "slow_answer"}],
    }
    plain = score_deal({k: v for k, v in deal.items() if k != "penalties"})
    result = score_deal(deal)
    assert result.points == {
        "P1": plain.points["P1"] + 3,
        "P2": plain.points["P2"],
        "P3": plain.points["P3"] + 3,
    }
    # Rovescino: points are bad, so the offender takes them whatever core.penalty_to says.
    game, rules, state = start_match("rovescino", None, 4)
    rng = random.Random(7)
    entry = game.random_deal(rng, rules, state, "totals")
    base = game.score_deal(entry, rules, state)
    entry["penalties"] = [{"against": "P3", "reason": "revoke", "trick": 1}]
    charged = game.score_deal(entry, rules, state)
    assert charged.points["P3"] == base.points["P3"] + 3
    assert {p: charged.points[p] for p in ("P1", "P2", "P4")} == {
        p: base.points[p] for p in ("P1", "P2", "P4")
    }


def test_games_without_penalties_refuse_them_in_words():
    game, rules, state = start_match("terziglio", None, 3)
    entry = game.random_deal(random.Random(1), rules, state, "totals")
    entry["penalties"] = [{"against": "P1", "reason": "revoke"}]
    with pytest.raises(Rejection) as excinfo:
        game.score_deal(entry, rules, state)
    assert codes(excinfo) == ["penalty.not_taken"]


# -- revokes and leads out of turn: "sanatoria implicita" -----------------------------


def test_a_revoke_is_refused_by_default():
    with pytest.raises(Rejection) as excinfo:
        score(revoke_record())
    assert codes(excinfo) == ["play.revoke"]


def test_an_uncontested_revoke_stands_without_penalty():
    """'Le anomalie': 'se l'anomalia non è rilevata affatto, la stessa s'intende sanata
    (sanatoria implicita)'."""
    result = score(revoke_record(), **{"core.revoke": "stands_if_uncontested"})
    assert result.points == {"A": 0, "B": 11}
    assert lines(result) == {"A": [], "B": []}
    (revoke,) = result.facts["play"]["revokes"]
    assert revoke == {"trick": 1, "player": "N", "card": "4d", "held": "3c"}


def test_a_contested_revoke_is_penalised():
    """'per contestazione, da parte di un avversario del giocatore responsabile'."""
    deal = revoke_record(contested=[{"trick": 1, "player": "N"}])
    result = score(deal, **{"core.revoke": "stands_if_uncontested"})
    assert result.points == {"A": 0, "B": 11 + 3}
    revoke = {"trick": 1, "player": "N", "card": "4d", "held": "3c", "contested": True}
    assert lines(result)["B"] == [(3, {"revoke": revoke})]
    hit = score(
        deal,
        **{"core.revoke": "stands_if_uncontested", "core.penalty_to": "offenders_lose"},
    )
    assert hit.points == {"A": -3, "B": 11}


def test_contesting_what_did_not_happen_is_refused():
    deal = revoke_record(contested=[{"trick": 2, "player": "N"}, {"trick": 1}])
    with pytest.raises(Rejection) as excinfo:
        score(deal, **{"core.revoke": "stands_if_uncontested"})
    assert codes(excinfo) == ["play.contested_nothing", "play.contested_shape"]
    assert "nothing to contest" in excinfo.value.problems[0].en


def test_a_penalty_the_record_already_gives_is_not_entered_again():
    deal = revoke_record(penalties=[{"against": "N", "reason": "revoke", "trick": 1}])
    with pytest.raises(Rejection) as excinfo:
        score(deal, **{"core.revoke": "penalty"})
    assert codes(excinfo) == ["penalty.in_record"]
    # Another anomaly at the same trick is a penalty of its own.
    other = revoke_record(penalties=[{"against": "E", "reason": "slow_answer", "trick": 1}])
    result = score(other, **{"core.revoke": "penalty"})
    assert result.points == {"A": 0 + 3, "B": 11 + 3}


def test_a_lead_out_of_turn_is_refused_by_default():
    with pytest.raises(Rejection) as excinfo:
        score(out_of_turn_record())
    assert codes(excinfo) == ["play.wrong_leader"]


@pytest.mark.parametrize("named", [False, True])
def test_a_lead_out_of_turn_that_nobody_contested_stands(named):
    deal = out_of_turn_record()
    if named:
        first = deal["tricks"][0]
        deal["tricks"][0] = {"leader": "S", "cards": first}
    result = score(deal, **{"core.out_of_turn": "stands_if_uncontested"})
    assert result.points == {"A": 11, "B": 0}
    assert result.facts["play"]["out_of_turn"] == [{"trick": 1, "player": "S", "expected": "W"}]
    assert lines(result) == {"A": [], "B": []}


def test_a_contested_lead_out_of_turn_is_penalised():
    deal = out_of_turn_record(contested=[{"trick": 1, "player": "S"}])
    result = score(deal, **{"core.out_of_turn": "stands_if_uncontested"})
    assert result.points == {"A": 11, "B": 3}
    always = score(out_of_turn_record(), **{"core.out_of_turn": "penalty"})
    assert always.points == {"A": 11, "B": 3}
    lose = score(
        out_of_turn_record(),
        **{"core.out_of_turn": "penalty", "core.penalty_to": "offenders_lose"},
    )
    assert lose.points == {"A": 8, "B": 0}


# -- annulled deals: "andata a monte" -------------------------------------------------


def test_an_annulled_deal_scores_nothing_and_the_same_dealer_deals_again():
    """'Andata a monte con ripetizione della passata': 'dopo che la passata è stata
    annullata il gioco deve riprendere come se la stessa non fosse mai stata iniziata'."""
    annul = {"reason": "card_on_floor", "stage": "play", "asked_by": "E", "trick": 6}
    report = play_match(
        {
            "game": "tressette4",
            "first_dealer": "N",
            "deals": [{"dealer": "N", "annulled_for": annul}, {"dealer": "N", **_plain_deal()}],
        }
    )
    first = report.results[0]
    assert first.annulled and first.same_dealer
    assert first.points == {"A": 0, "B": 0}
    assert first.facts["annulled_for"] == annul
    assert report.state.deals_annulled == 1
    assert report.state.totals == {"A": 7, "B": 4}


def test_the_irregularity_annul_does_not_need_the_weak_hand_switch():
    rules = {"t4.annul_rule": "off"}
    annul = {"reason": "misdeal", "stage": "dealing"}
    result = score_deal({"game": "tressette4", "rules": rules, "annulled_for": annul})
    assert result.annulled
    with pytest.raises(Rejection):
        score_deal({"game": "tressette4", "rules": rules, "annulled_by": "N", "hand": []})


def test_an_annulment_may_carry_the_penalty_of_the_side_at_fault():
    """'l'annullamento della passata ... con ripetizione della stessa ed eventuale
    attribuzione di indennizzo per la parte innocente e/o di penalità per la parte
    colpevole'."""
    deal = {
        "dealer": "N",
        "annulled_for": {"reason": "mixed_piles", "stage": "play"},
        "penalties": [{"against": "B", "reason": "mixed_piles"}],
    }
    report = play_match({"game": "tressette4", "first_dealer": "N", "deals": [deal]})
    assert report.state.totals == {"A": 3, "B": 0}
    assert report.state.dealer == "N"


def test_an_annulment_is_checked_in_words():
    deal = {
        "game": "tressette4",
        "annulled_for": {"reason": "bored", "stage": "dealing", "asked_by": "Q", "trick": 3},
        "sides": {},
    }
    with pytest.raises(Rejection) as excinfo:
        score_deal(deal)
    assert sorted(codes(excinfo)) == sorted(
        ["annul.with_scoring", "input.bad_choice", "match.unknown_seat", "irregularity.stage_trick"]
    )


def test_annul_works_for_every_game():
    for key in REGISTRY:
        state_game, rules, state = start_match(key)
        annul = {"reason": "misdeal", "stage": "dealing"}
        result = state_game.score_deal({"annulled_for": annul}, rules, state)
        assert result.annulled and result.same_dealer, key
        assert not any(result.points.values()), key


# -- forfeit for conduct ----------------------------------------------------------------


def test_a_deal_forfeited_for_conduct_gives_the_opponents_eleven_and_is_no_cappotto():
    deal = {"game": "tressette4", "forfeit": {"by": "E", "reason": "forbidden_talk"}}
    result = score_deal(deal)
    assert result.points == {"A": 11, "B": 0}
    assert result.event is None and result.multiplier == 1 and not result.annulled
    assert lines(result, "forfeit")["A"] == [(11, {"by": "E", "reason": "forbidden_talk"})]
    two = score_deal({"game": "tressette2", "forfeit": {"by": "P2", "reason": "conduct"}})
    assert two.points == {"P1": 11, "P2": 0}


def test_a_forfeit_passes_the_deal_on():
    deals = [{"dealer": "N", "forfeit": {"by": "A", "reason": "conduct"}}]
    report = play_match({"game": "tressette4", "first_dealer": "N", "deals": deals})
    assert report.state.dealer != "N"
    assert report.state.totals == {"A": 0, "B": 11}


def test_a_forfeit_needs_two_sides_and_nothing_else():
    with pytest.raises(Rejection) as excinfo:
        score_deal({"game": "tressette3", "forfeit": {"by": "P1", "reason": "conduct"}})
    assert codes(excinfo) == ["forfeit.not_two_sides"]
    with pytest.raises(Rejection) as excinfo:
        score_deal(
            {
                "game": "tressette4",
                "forfeit": {"by": "A", "reason": "conduct"},
                "annulled_for": {"reason": "misdeal", "stage": "dealing"},
            }
        )
    assert codes(excinfo) == ["annul.and_forfeit"]
    with pytest.raises(Rejection) as excinfo:
        score_deal(
            {"game": "tressette4", "forfeit": {"by": "A", "reason": "conduct"}, "last_trick": "A"}
        )
    assert codes(excinfo) == ["forfeit.with_scoring"]


# -- today's defaults are today's results ---------------------------------------------


def _plain_deal():
    return {
        "sides": {"A": {"thirds": 20, "tricks": 6}, "B": {"thirds": 12, "tricks": 4}},
        "last_trick": "A",
    }


@pytest.mark.parametrize("level", ["totals", "cards", "play"])
def test_an_empty_penalty_list_changes_nothing_in_any_game(level):
    for key, game in REGISTRY.items():
        if not game.takes_penalties or level not in game.levels:
            continue
        _, rules, state = start_match(key)
        rng = random.Random(hash((key, level)) & 0xFFFF)
        for _ in range(5):
            entry = game.random_deal(rng, rules, state, level)
            plain = game.score_deal(entry, rules, state).as_dict()
            assert game.score_deal({**entry, "penalties": []}, rules, state).as_dict() == plain
            assert "out_of_turn" not in plain.get("facts", {}).get("play", {})


def test_the_cli_reads_the_new_record_fields():
    """``python -m scorebook.rules score`` takes a match with a penalty, an annulled deal
    and a forfeit, and refuses a wrong penalty in words (exit 2)."""
    import json
    import subprocess
    import sys

    match = {
        "game": "tressette4",
        "rules": {"core.penalty_to": "offenders_lose"},
        "first_dealer": "N",
        "deals": [
            {**_plain_deal(), "penalties": [{"against": "B", "reason": "signal"}]},
            {"annulled_for": {"reason": "card_on_floor", "stage": "dealing"}},
            {"forfeit": {"by": "B", "reason": "forbidden_talk"}},
        ],
    }

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
    assert out["match"]["totals"] == {"A": 7 + 11, "B": 4 - 3}
    assert out["deals"][1]["annulled"] and out["match"]["deals_annulled"] == 1
    match["deals"][0]["penalties"][0]["reason"] = "sneezing"
    code, out = cli(match)
    assert code == 2 and out["errors"][0]["code"] == "input.bad_choice"


# -- messa a terra ----------------------------------------------------------------------


def laid_down_record(after, player_hands=None):
    """Each player holds one whole suit (pure_hands): W, on lead from the start, wins
    every trick he leads. The record stops after ``after`` tricks and W lays down."""
    hands = player_hands or pure_hands()
    order = ["W", "S", "E", "N"]
    tricks = []
    for k in range(after):
        tricks.append([hands[p][k] for p in order])
    return record(hands, tricks, laid_down={"player": "W"})


def test_a_valid_messa_a_terra_takes_every_remaining_trick():
    """'tutte le carte, giocate in ordine decrescente devono consentire allo stesso ...
    qualsiasi sia l'ordine in cui possano essere giocate le carte di risposta dagli altri
    tre giocatori, di effettuare tutte le pigliate rimanenti': W holds only coins, which
    nobody else can even follow, so his cards laid down after trick 4 take the rest."""
    result = score(laid_down_record(4))
    whole = score(record(pure_hands(), [[pure_hands()[p][k] for p in "WSEN"] for k in range(10)]))
    assert result.points == whole.points == {"A": 0, "B": 11}
    assert result.facts["play"]["laid_down"] == {"player": "W", "after_trick": 4}


def test_an_invalid_messa_a_terra_must_be_played_out():
    """'Se la messa a terra è risultata non valida ... il giocatore è obbligato a ritirare
    le carte ... e a rigiocarle': N holds the 3 of coins, so W's 2 of coins could be
    beaten, whoever holds it: the record has to go on."""
    hands = pure_hands()
    hands["W"] = [c for c in hands["W"] if c != "3d"] + ["3c"]
    hands["N"] = [c for c in hands["N"] if c != "3c"] + ["3d"]
    deal = record(hands, [], laid_down={"player": "W"})  # at once, W on lead
    with pytest.raises(Rejection) as excinfo:
        score(deal)
    assert codes(excinfo) == ["t4.laid_down_invalid"]
    problem = excinfo.value.problems[0]
    assert "3 of coins" in problem.en and "played out" in problem.en


def test_only_the_player_on_lead_lays_down():
    deal = laid_down_record(2)
    deal["laid_down"] = {"player": "N"}
    with pytest.raises(Rejection) as excinfo:
        score(deal)
    assert codes(excinfo) == ["t4.laid_down_not_on_lead"]


def test_a_laying_down_played_out_is_scored_as_played():
    deal = laid_down_record(10)
    result = score(deal)
    assert result.points == {"A": 0, "B": 11}
    assert "laid_down" not in result.facts["play"]
