"""Tressette in pairs against the rules reference, point by point (sections 1, 2.1, 3.1,
3.2, 4.1-4.7): the statements the worked examples of test_tressette4.py leave open. Each
test names the section it pins."""

from __future__ import annotations

import pytest

from scorebook.rules import Rejection, play_match, score_deal
from scorebook.rules.cards import trick_winner
from scorebook.rules.parse import parse_card


def sides(a, ta, b, tb):
    return {"A": {"thirds": a, "tricks": ta}, "B": {"thirds": b, "tricks": tb}}


def score(deal, **rules):
    return score_deal({"game": "tressette4", **deal, **({"rules": rules} if rules else {})})


def codes(deal, **rules):
    with pytest.raises(Rejection) as caught:
        score(deal, **rules)
    return [(p.code, p.path) for p in caught.value.problems]


NAPOLETANA_D = {"player": "N", "type": "napoletana", "suit": "d"}


# -- 1.4 and 4.3: rounding ------------------------------------------------------------------


def test_s5_rounding_two_thirds_up_may_total_12_and_is_warned_not_refused():
    """1.4 variant SCA/VIP and S5: A's 14 thirds (4⅔) count 5, B 6 + the last trick: 12."""
    deal = {"sides": sides(14, 4, 18, 6), "last_trick": "B"}
    result = score(deal, **{"core.rounding": "round_two_thirds_up"})
    assert result.points == {"A": 5, "B": 7}
    assert [w.code for w in result.warnings] == ["ind.total_over_eleven"]
    assert "12" in result.warnings[0].en and "12" in result.warnings[0].it
    # One third left on each side rounds nothing up: 11, no warning.
    plain = score(
        {"sides": sides(16, 5, 16, 5), "last_trick": "B"},
        **{"core.rounding": "round_two_thirds_up"},
    )
    assert plain.points == {"A": 5, "B": 6} and plain.warnings == ()
    # The default rule never warns (S1: always 11).
    assert score(deal).warnings == ()


def test_s5_declarations_and_events_are_not_counted_in_the_12():
    """S5 is about the cards and the last trick: a napoletana on top is not a 12."""
    deal = {"sides": sides(15, 5, 17, 5), "last_trick": "B", "declarations": [NAPOLETANA_D]}
    assert score(deal).points == {"A": 8, "B": 6} and score(deal).warnings == ()


@pytest.mark.parametrize(
    "entered,ok",
    [({"A": 4, "B": 7}, True), ({"A": 4}, True), ({"A": 5}, False), ({"B": 6}, False)],
)
def test_s3_points_entered_beside_the_thirds_must_match_them(entered, ok):
    """S3: if both thirds and points are entered, points = f(thirds, LT, switch) (TV01)."""
    deal = {"sides": sides(14, 4, 18, 6), "last_trick": "B"}
    for side, points in entered.items():
        deal["sides"][side]["points"] = points
    if ok:
        assert score(deal).points == {"A": 4, "B": 7}
    else:
        (side,) = entered
        assert codes(deal) == [("ind.points_mismatch", f"sides.{side}.points")]


def test_s3_points_follow_the_rounding_switch_and_the_stramazzo_rule():
    up = {"sides": sides(14, 4, 18, 6), "last_trick": "B"}
    up["sides"]["A"]["points"] = 5
    assert score(up, **{"core.rounding": "round_two_thirds_up"}).points["A"] == 5
    # 2.1.7: under stramazzo the losers' last trick is not scored: they entered 0.
    deal = {"sides": sides(32, 9, 0, 1), "last_trick": "B"}
    deal["sides"]["B"]["points"] = 0
    assert score(deal).event == "stramazzo"
    deal["sides"]["B"]["points"] = 1
    assert codes(deal) == [("ind.points_mismatch", "sides.B.points")]


# -- 2.1.6 and 4.7: claims ----------------------------------------------------------------


def test_g3_a_claim_counts_only_the_declarations_scored_so_far():
    """2.1.6 "previous total + declaration points already scored + ..." and 2.1.3 (PEN):
    a declaration is scored once the first trick is complete. A side at 19 with a
    napoletana that claims before the first trick is complete has 19, not 22: the claim
    is false (it counted as right before)."""
    early = {
        "sides": sides(0, 0, 0, 0),
        "declarations": [NAPOLETANA_D],
        "claim": {"side": "A", "after_trick": 0},
        "before": {"A": 19},
    }
    result = score(early)
    assert result.claim["total"] == 19 and not result.claim["holds"]
    (line,) = [ln for ln in result.breakdown["A"] if ln.kind == "declaration"]
    assert line.points == 0 and line.detail["not_yet_scored"] is True
    after_one = {**early, "sides": sides(0, 1, 0, 0), "claim": {"side": "A", "after_trick": 1}}
    assert score(after_one).claim["total"] == 22
    assert score(after_one).claim["holds"]


def test_g3_a_declaration_made_at_a_later_trick_counts_once_that_trick_is_done():
    """`t4.decl_window = up_to_trick2` (VC): a declaration at trick 2 is not yet scored
    when the claim comes after trick 1."""
    deal = {
        "sides": sides(0, 1, 0, 0),
        "declarations": [{**NAPOLETANA_D, "trick": 2}],
        "claim": {"side": "A", "after_trick": 1},
        "before": {"A": 19},
    }
    rules = {"t4.decl_window": "up_to_trick2"}
    assert score(deal, **rules).claim["total"] == 19
    later = {**deal, "sides": sides(0, 2, 0, 0), "claim": {"side": "A", "after_trick": 2}}
    assert score(later, **rules).claim["total"] == 22


def test_d7_a_claim_entry_holds_the_tricks_played_before_it():
    """D7 with a claim: the captures are those so far, so their tricks are the claim's."""
    deal = {"sides": sides(20, 3, 0, 1), "claim": {"side": "A", "after_trick": 7}}
    (found,) = codes(deal)
    assert found == ("t4.claim_tricks", "")
    with pytest.raises(Rejection) as caught:
        score(deal)
    assert "4" in caught.value.problems[0].en and "7" in caught.value.problems[0].it
    assert score({**deal, "sides": sides(20, 6, 0, 1)}).claim["after_trick"] == 7


def test_g4_a_side_on_lead_after_a_trick_has_won_a_trick():
    """G4, `only_when_on_lead` (CDG): the claiming side leads the next trick, so after
    trick n it won a trick (the n-th)."""
    rules = {"t4.claim_mode": "only_when_on_lead"}
    claim = {"side": "A", "after_trick": 5, "on_lead": True}
    # B's 5 tricks are 20 cards: at least 4 thirds (only 16 cards are worth nothing)
    deal = {"sides": sides(0, 0, 4, 5), "claim": claim, "before": {"A": 21}}
    assert codes(deal, **rules) == [("t4.claim_lead_no_trick", "claim.on_lead")]
    assert score({**deal, "sides": sides(0, 1, 3, 4)}, **rules).claim["holds"]
    # Before the first trick nobody has won one: eldest's side may claim.
    first = {"sides": sides(0, 0, 0, 0), "claim": {**claim, "after_trick": 0}, "before": {"A": 21}}
    assert score(first, **rules).claim["holds"]


# -- 2.1.7 and 4.6: special events -------------------------------------------------------


def test_e2_all_points_cappotto_needs_the_last_trick_too():
    """E2: cappotto (`all_points`) ⇔ loser thirds ≤ 2, no ace, loser not LT. With the
    last trick the losers scored a point: no cappotto (and no strict stramazzo, 2 thirds)."""
    rules = {"t4.cappotto_def": "all_points"}
    assert score({"sides": sides(30, 8, 2, 2), "last_trick": "B"}, **rules).event is None
    loose = {**rules, "t4.stramazzo_def": "lt_one_point"}
    result = score({"sides": sides(30, 8, 2, 2), "last_trick": "B"}, **loose)
    assert (result.event, result.points) == ("stramazzo", {"A": 10, "B": 0})


def test_e6_cappotto_all_points_takes_precedence_over_stramazzo():
    """E6: both definitions match (losers hold 0 thirds, won a trick, not the last)."""
    deal = {"sides": sides(32, 9, 0, 1), "last_trick": "A"}
    assert score(deal).event == "stramazzo"
    result = score(deal, **{"t4.cappotto_def": "all_points"})
    assert (result.event, result.multiplier) == ("cappotto", 2)


def test_e6_cappottone_takes_precedence_over_cappotto_and_stramazzone_over_stramazzo():
    alone = {
        "seats": {
            "N": {"thirds": 32, "tricks": 10},
            "S": {"thirds": 0, "tricks": 0},
            "E": {"thirds": 0, "tricks": 0},
            "W": {"thirds": 0, "tricks": 0},
        },
        "last_trick": "A",
    }
    assert score(alone).event == "cappottone"
    alone["seats"]["N"]["tricks"], alone["seats"]["S"]["tricks"] = 9, 1
    assert score(alone).event == "cappotto"  # both partners took tricks
    alone["seats"]["S"]["tricks"], alone["seats"]["E"]["tricks"] = 0, 1
    assert (score(alone).event, score(alone).multiplier) == ("stramazzone", 8)


def test_stramazzo_with_the_remainder_rule_still_voids_the_losers_last_trick():
    """2.1.7 (PEN): the losers cannot score the last trick, whatever the rounding (1.4)."""
    rules = {"core.rounding": "remainder_to_last_trick", "t4.stramazzo_def": "lt_one_point"}
    result = score({"sides": sides(30, 9, 2, 1), "last_trick": "B"}, **rules)
    assert (result.event, result.points) == ("stramazzo", {"A": 10, "B": 0})
    to_winner = {**rules, "t4.stramazzo_last_trick": "loser_point_to_winner"}
    result = score({"sides": sides(30, 9, 2, 1), "last_trick": "B"}, **to_winner)
    assert result.points == {"A": 11, "B": 0}


def test_decl_void_on_cappotto_also_voids_them_on_a_cappottone():
    """`t4.decl_void_on_cappotto = void` (CDG): a side that suffers a cappotto, made by
    one player or two, keeps no declaration points; the winners keep theirs."""
    deal = {
        "seats": {
            "N": {"thirds": 32, "tricks": 10},
            "S": {"thirds": 0, "tricks": 0},
            "E": {"thirds": 0, "tricks": 0},
            "W": {"thirds": 0, "tricks": 0},
        },
        "last_trick": "A",
        "declarations": [
            NAPOLETANA_D,
            {"player": "E", "type": "three", "rank": "A", "missing": "d"},
        ],
    }
    result = score(deal, **{"t4.decl_void_on_cappotto": "void"})
    assert result.event == "cappottone" and result.points == {"A": 14, "B": 0}
    assert score(deal).points == {"A": 14, "B": 3}


def test_e7_no_deal_after_a_special_event_that_ends_the_game():
    deals = [
        {"sides": sides(32, 9, 0, 1), "last_trick": "A"},
        {"sides": sides(16, 5, 16, 5), "last_trick": "A"},
    ]
    with pytest.raises(Rejection) as caught:
        play_match({"game": "tressette4", "deals": deals})
    assert [(p.code, p.path) for p in caught.value.problems] == [("match.finished", "deals[1]")]
    rules = {"t4.special_event_effect": "score_points_only"}
    match = play_match({"game": "tressette4", "rules": rules, "deals": deals})
    assert match.state.totals == {"A": 17, "B": 5} and not match.state.finished


# -- 2.1.3: the coda with the partner's cards (PE) -----------------------------------------


def play_out(hands, leader, order=("N", "W", "S", "E")):
    """A legal play of the hands: each player plays his first card of the suit led, or
    his first card; the trick's winner leads the next."""
    held = {p: [parse_card(c) for c in h] for p, h in hands.items()}
    tricks = []
    for _ in range(10):
        start = order.index(leader)
        players = [order[(start + k) % 4] for k in range(4)]
        cards = [held[leader][0]]
        for player in players[1:]:
            follow = [c for c in held[player] if c.suit == cards[0].suit]
            cards.append((follow or held[player])[0])
        for player, card in zip(players, cards, strict=True):
            held[player].remove(card)
        tricks.append([c.code for c in cards])
        leader = players[trick_winner(cards)]
    return tricks


CODA_HANDS = {  # N: the coins' napoletana; S, his partner, the king and knight of coins
    "N": "3d 2d Ad 4c 5c 6c 7c 4s 5s 6s".split(),
    "S": "Rd Cd Fd 7d 6d 5d 4d 7s Fs Cs".split(),
    "E": "3c 2c Ac Rc Cc Fc 3s 2s As Rs".split(),
    "W": "3b 2b Ab Rb Cb Fb 7b 6b 5b 4b".split(),
}


def coda_record(coda, rule, hands=CODA_HANDS):
    return {
        "dealer": "N",
        "hands": hands,
        "tricks": play_out(hands, "W"),
        "declarations": [{**NAPOLETANA_D, "coda": coda}],
        "rules": {"t4.decl_coda": rule},
    }


def test_coda_on_own_and_partner_cards_counts_the_partners_cards():
    """2.1.3 and `t4.decl_coda = on_own_and_partner_cards` (PE "even counts the partner's
    cards"): N's napoletana in coins with R, C, F of coins in S's hand has a coda of 3.
    It was refused before, as if the coda had to be N's own cards."""
    result = score(coda_record(3, "on_own_and_partner_cards"))
    (line,) = [ln for ln in result.breakdown["A"] if ln.kind == "declaration"]
    assert line.points == 6
    with pytest.raises(Rejection) as caught:
        score(coda_record(3, "on_own_cards"))
    assert [p.code for p in caught.value.problems] == ["t4.decl_not_held"]
    assert "king of coins" in caught.value.problems[0].en
    # The opponents' cards never make a coda: E holding them, it is refused.
    swapped = {**CODA_HANDS, "S": CODA_HANDS["E"], "E": CODA_HANDS["S"]}
    with pytest.raises(Rejection) as caught:
        score(coda_record(3, "on_own_and_partner_cards", swapped))
    assert [p.code for p in caught.value.problems] == ["t4.decl_not_held"]


def test_a2_a_coda_of_the_partners_cards_need_not_fit_in_the_declarers_hand():
    """A2: napoletana in coins with a coda of 5 (8 cards), napoletana in cups (3) and
    three 3s missing swords (one more, the 3 of batons) need 12 cards of one hand; under
    PE the coda may be the partner's, so only 7 are the declarer's."""
    decls = [
        {**NAPOLETANA_D, "coda": 5},
        {"player": "N", "type": "napoletana", "suit": "c"},
        {"player": "N", "type": "three", "rank": "3", "missing": "s"},
    ]
    deal = {"sides": sides(16, 5, 16, 5), "last_trick": "B", "declarations": decls}
    assert ("decl.too_many_cards", "declarations[2]") in codes(
        deal, **{"t4.decl_coda": "on_own_cards"}
    )
    assert score(deal, **{"t4.decl_coda": "on_own_and_partner_cards"}).points["A"] == 5 + 8 + 3 + 3
