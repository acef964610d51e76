"""The play restrictions after a declaration anomaly (issue 16), checked in a play record
under ``t4.decl_anomalies = code``.

Source: Codice del tressette (Enucatl/tressette, ``regolamento.tex``; the same text in
``regole``), "Anomalie dell'accusa". Each test quotes the article it follows. The deals are
played out by a small simulator (each follower plays his lowest card of the suit led, or
his lowest card): only the leads the tests choose differ.
"""

from __future__ import annotations

import pytest

from scorebook.rules import Rejection, score_deal

CODE = {"t4.declarations": True, "t4.decl_anomalies": "code"}
ORDER = ["3", "2", "A", "R", "C", "F", "7", "6", "5", "4"]  # strongest first
TURN = {"N": "W", "W": "S", "S": "E", "E": "N"}  # counter-clockwise: who plays next

#: N holds the cups' napoletana; his partner S takes the first trick with the 3 of coins
#: and holds cups, swords and batons.
HANDS = {
    "N": ["3c", "2c", "Ac", "Rc", "Cc", "Fc", "7s", "6s", "5s", "4s"],
    "S": ["3d", "4c", "5c", "6c", "7c", "Fs", "Rb", "Cb", "Fb", "7b"],
    "W": ["2d", "Ad", "Rd", "Cd", "Fd", "3s", "2s", "As", "Rs", "Cs"],
    "E": ["7d", "6d", "5d", "4d", "3b", "2b", "Ab", "6b", "5b", "4b"],
}


def low(cards):
    return max(cards, key=lambda c: ORDER.index(c[:-1]))


def play(leads, hands=HANDS, avoid="c"):
    """The tricks when N deals (W leads first): ``leads`` maps a trick number to the card
    its leader plays; otherwise the leader plays his lowest card outside ``avoid`` (the
    barred suits) if he has one."""
    held = {p: list(c) for p, c in hands.items()}
    leader, tricks = "W", []
    for number in range(1, 11):
        free = [c for c in held[leader] if c[-1] not in avoid] or held[leader]
        card = leads.get(number) or low(free)
        assert card in held[leader], (number, leader, card)
        trick, player = [card], leader
        held[player].remove(card)
        for _ in range(3):
            player = TURN[player]
            follow = [c for c in held[player] if c[-1] == card[-1]] or held[player]
            trick.append(low(follow))
            held[player].remove(trick[-1])
        suited = [(i, c) for i, c in enumerate(trick) if c[-1] == card[-1]]
        best = min(suited, key=lambda ic: ORDER.index(ic[1][:-1]))[0]
        for _ in range(best):
            leader = TURN[leader]
        tricks.append(trick)
    return tricks


def deal(declarations, leads, avoid="c"):
    return {
        "game": "tressette4",
        "rules": CODE,
        "dealer": "N",
        "hands": HANDS,
        "tricks": play(leads, avoid=avoid),
        "declarations": declarations,
    }


def codes(caught):
    return [(p.code, p.path) for p in caught.value.problems]


NAP_EARLY = {"player": "N", "type": "napoletana", "suit": "c", "when": "early"}


def test_the_simulated_first_trick_goes_to_the_partner():
    tricks = play({1: "2d"})
    assert tricks[0] == ["2d", "3d", "4d", "4s"]  # W, S, E, N: S's 3 takes it, S leads


def test_partner_may_not_lead_the_suit_of_a_napoletana_declared_early_and_contested():
    """ "Se un giocatore, prima che sia giunto il suo turno di gioco, dichiara ... di
    possedere buongioco ... se l'irregolarità viene contestata a battuta appena conclusa,
    una sanatoria esplicita ... per il suo compagno: divieto ... di uscire fino al termine
    della passata al palo della napoletana anticipatamente accusata (se non perché
    costrettovi dal non possedere nessuna carta agli altri pali)". S leads the 4 of cups
    in the second trick while holding swords and batons."""
    record = deal([{**NAP_EARLY, "contested": True}], {1: "2d", 2: "4c"})
    with pytest.raises(Rejection) as caught:
        score_deal(record)
    assert codes(caught) == [("t4.decl_lead_barred", "tricks[1]")]
    problem = caught.value.problems[0]
    assert "Trick 2: S led the 4 of cups" in problem.en and "jack of swords" in problem.en
    assert "Presa 2: S è uscito con il quattro di coppe" in problem.it and "palo" in problem.it


def test_the_same_lead_stands_when_nobody_contested():
    """Uncontested, "si verifica una sanatoria implicita definitiva obbligatoria": no ban."""
    result = score_deal(deal([NAP_EARLY], {1: "2d", 2: "4c"}))
    assert sum(result.points.values()) == 11 + 3


def test_another_lead_by_the_partner_stands():
    """The ban covers the suit of the napoletana only: S leads batons instead."""
    result = score_deal(deal([{**NAP_EARLY, "contested": True}], {1: "2d", 2: "7b"}))
    assert sum(result.points.values()) == 11  # the napoletana's 3 points are lost


def test_a_late_declaration_contested_bars_the_suit_after_its_trick():
    """ "Se un giocatore, esauritasi la prima battuta, esegue un'accusa ... contestata
    immediatamente dopo la conclusione della battuta in corso ... per il suo compagno:
    divieto di uscire fino al termine della passata al palo della napoletana". N declared
    during the second trick (one trick played, ``"trick": 1``): S's lead of cups in the
    second trick came before the contest and stands; in the third it is refused."""
    late = {"player": "N", "type": "napoletana", "suit": "c", "when": "late", "trick": 1,
            "contested": True}  # fmt: skip
    assert score_deal(deal([late], {1: "2d", 2: "4c"})).points is not None
    record = deal([late], {1: "2d", 2: "7b", 3: "4c"})
    assert [t[0] for t in record["tricks"][:3]] == ["2d", "7b", "4c"]  # S led 2 and 3
    with pytest.raises(Rejection) as caught:
        score_deal(record)
    assert codes(caught) == [("t4.decl_lead_barred", "tricks[2]")]


def test_a_late_declaration_without_its_trick_is_not_checked():
    """The record does not say when it was made: the ban cannot be placed, nothing is
    refused (docs/games/tournament.md says so)."""
    late = {"player": "N", "type": "napoletana", "suit": "c", "when": "late", "contested": True}
    assert score_deal(deal([late], {1: "2d", 2: "4c"})).points is not None


def test_forced_when_the_partner_holds_only_the_barred_suit():
    """ "(se non perché costrettovi dal non possedere nessuna carta agli altri pali)": S
    holds three coins and seven cups; he takes the first three tricks with his coins and
    then, holding only cups, leads one: that stands. Leading cups in the second trick,
    while he still held the 3 of coins, is refused."""
    hands = {
        "N": ["3c", "2c", "Ac", "7s", "6s", "5s", "4s", "7b", "6b", "5b"],
        "S": ["3d", "2d", "Ad", "4c", "5c", "6c", "7c", "Fc", "Cc", "Rc"],
        "W": ["Rd", "Cd", "Fd", "7d", "3s", "2s", "As", "Rs", "Cs", "Fs"],
        "E": ["6d", "5d", "4d", "3b", "2b", "Ab", "Rb", "Cb", "Fb", "4b"],
    }

    def record(leads):
        return {
            "game": "tressette4",
            "rules": CODE,
            "dealer": "N",
            "hands": hands,
            "tricks": play(leads, hands),
            "declarations": [{**NAP_EARLY, "contested": True}],
        }

    forced = record({})
    assert [t[0] for t in forced["tricks"][:4]] == ["7d", "2d", "3d", "4c"]
    assert score_deal(forced).points is not None
    with pytest.raises(Rejection) as caught:
        score_deal(record({2: "4c"}))
    assert codes(caught) == [("t4.decl_lead_barred", "tricks[1]")]
    assert "3 of coins" in caught.value.problems[0].en


def test_partner_may_not_declare_after_the_first_trick_once_barred():
    """ "per il suo compagno: divieto di effettuare nuove accuse": S's late declaration,
    after N's early one was contested, is refused (he does not hold it either: both are
    said)."""
    partner = {"player": "S", "type": "three", "rank": "3", "missing": "s", "when": "late"}
    record = deal([{**NAP_EARLY, "contested": True}, partner], {1: "2d", 2: "7b"})
    with pytest.raises(Rejection) as caught:
        score_deal(record)
    assert ("t4.decl_partner_barred", "declarations[1]") in codes(caught)


def test_a_wrong_napoletana_bars_the_suits_where_the_partner_cannot_rule_one_out():
    """ "si constata l'erroneità dell'accusa di una napoletana: l'accusa non può essere
    corretta e il compagno di chi ha eseguito l'accusa errata non può mai uscire, finché
    non vi sia costretto, ai pali ai quali non può escludere, in base alle carte possedute
    o conosciute in possesso degli avversari, che il suo compagno abbia una napoletana".
    After the first two tricks S can rule out coins (he held the 3) and batons (N
    discarded on S's lead of batons: he has none); cups and swords stay barred. S's lead of
    cups in the third trick, holding batons, is refused; a lead of batons stands."""
    wrong = {"player": "N", "type": "napoletana", "suit": "c", "form": "wrong",
             "fixed": "found_in_play"}  # fmt: skip
    record = deal([wrong], {1: "2d", 2: "7b", 3: "4c"})
    assert record["tricks"][1] == ["7b", "4b", "5s", "Fd"]  # S, E, N discards, W
    with pytest.raises(Rejection) as caught:
        score_deal(record)
    assert codes(caught) == [("t4.decl_lead_unknown", "tricks[2]")]
    problem = caught.value.problems[0]
    assert "king of batons" in problem.en and "re di bastoni" in problem.it.lower()
    assert score_deal(deal([wrong], {1: "2d", 2: "7b", 3: "Fb"}, avoid="cs")).points is not None


def test_by_default_no_lead_is_checked():
    """Under ``t4.decl_anomalies = refused`` (today's default) an early declaration is
    refused as such, before any lead is looked at."""
    record = deal([{**NAP_EARLY, "contested": True}], {1: "2d", 2: "4c"})
    record["rules"] = {"t4.declarations": True}
    with pytest.raises(Rejection) as caught:
        score_deal(record)
    assert {c for c, _ in codes(caught)} == {"decl.anomaly_off"}
