"""Spinado (5.7, W1-W4, the four profiles) and Trappola (Cardano, Q1-Q3)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorebook.rules import Rejection, games, play_match, score_deal

TV53_1 = {
    "dealer": "P4",
    "matrimony_by": "P2",
    "kings_played": {"Kd": "P2"},
    "out_first": "P3",
    "cards_left": {"P1": 3, "P2": 2, "P3": 0, "P4": 4},
    "spinado_held_by": "P1",
}
TV53_2 = {"dealer": "P1", "out_first": "P2", "cards_left": {"P1": 3, "P2": 0, "P3": 2, "P4": 4}}


def spin_match(deals, **rules):
    body = {"game": "spinado", "players": 4, "first_dealer": "P4", "deals": deals}
    return play_match({**body, **({"rules": rules} if rules else {})})


def test_tv53_dnx_four_players():
    match = spin_match([TV53_1])
    result = match.results[0]
    assert result.units == {"P1": -9, "P2": 1, "P3": 7, "P4": -3}
    assert match.state.extra["pots"] == {"matrimony": 0, "intrigue": 4, "game": 0}
    assert sum(result.units.values()) + sum(result.pots.values()) == 0


def test_an_annulled_deal_keeps_the_pots_and_the_dealer():
    """A misdeal (``annulled_for``) is dealt again by the same dealer; the pots and the
    antes of the deal that follows are those before it (it crashed: no pots in its facts)."""
    misdeal = {"dealer": "P4", "annulled_for": {"reason": "misdeal", "stage": "dealing"}}
    plain = spin_match([TV53_1, TV53_2])
    annulled = spin_match([misdeal, TV53_1, TV53_2])
    assert annulled.results[0].annulled and annulled.results[0].units == {}
    assert annulled.state.totals == plain.state.totals
    assert annulled.state.extra["pots"] == plain.state.extra["pots"]
    assert annulled.state.deals_annulled == 1


def test_tv53_next_deal_antes_skip_the_winner():
    match = spin_match([TV53_1, TV53_2])
    second = match.results[1]
    assert set(second.facts["antes"]) == {"P1", "P2", "P4"}
    assert second.breakdown["P2"][-1].detail == {"pot": "game"}
    assert second.units["P2"] == -3 + 3  # Game pot of 3 (Matrimony 3, Intrigue 7 carry over)
    assert match.state.extra["pots"] == {"matrimony": 3, "intrigue": 7, "game": 0}


EACH_POT = {"matrimony": 1, "intrigue": 1, "game": 1}


@pytest.mark.parametrize(
    "profile,dealer,others",
    [
        ("DNX", EACH_POT, EACH_POT),
        ("PKW", {"matrimony": 12, "intrigue": 6, "game": 6}, {"game": 3}),
        ("CAS", {"matrimony": 12, "intrigue": 6, "game": 6}, dict.fromkeys(EACH_POT, 3)),
        ("PCG", {"matrimony": 2, "intrigue": 1}, {"game": 1}),
    ],
)
def test_the_antes_of_each_rule_book(profile, dealer, others):
    """Reference 3.7 ``spin.antes``, written out here rather than read from the engine's
    table: DNX 1 each to each pot; PKW the dealer 12/6/6, the others 3 to the Game; CAS
    all 3 to each, the dealer 24 = 12/6/6; PCG the dealer 2 + 1, the others 1 to the Game.
    The pots after the antes hold their sum (none was won by TV53's first deal but the
    Intrigue, whose J is in the dead hand)."""
    match = spin_match([TV53_1], profile=profile)
    antes = match.results[0].facts["antes"]
    assert antes == {"P1": others, "P2": others, "P3": others, "P4": dealer}
    assert match.state.extra["pots"]["intrigue"] == dealer["intrigue"] + 3 * others.get(
        "intrigue", 0
    )


@pytest.mark.parametrize("profile", ["DNX", "PKW", "CAS", "PCG"])
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_chips_are_conserved_under_every_profile(profile, seed):
    game = games()["spinado"]
    rules = game.rules({"profile": profile})
    state = game.new_match(rules, 4)
    rng = random.Random(seed)
    for _ in range(5):
        result = game.add_deal(state, game.random_deal(rng, rules, state, "cards"), rules)
        assert sum(result.units.values()) + sum(result.pots.values()) == 0  # W1
    assert sum(state.units.values()) + sum(state.extra["pots"].values()) == 0


def test_pkw_payments_for_spinado_and_kings():
    deal = {
        "dealer": "P4",
        "out_first": "P3",
        "spinado_played_by": "P1",
        "kings_played": {"Kd": "P2", "Ks": "P4"},
        "cards_left": {"P1": 1, "P2": 2, "P3": 0, "P4": 3},
    }
    result = score_deal({"game": "spinado", "players": 4, **deal, "rules": {"profile": "PKW"}})
    # P1 gets 3 from each of three players for the Spinado; P2 2 each for the K of diamonds.
    assert result.units["P1"] == 9 - 2 - 1 - 3  # ante 3 to Game
    assert sum(result.units.values()) + sum(result.pots.values()) == 0


def test_cas_first_out_extra_per_card_left():
    deal = {"dealer": "P4", "out_first": "P3", "cards_left": {"P1": 1, "P2": 2, "P3": 0, "P4": 3}}
    result = score_deal({"game": "spinado", "players": 4, **deal, "rules": {"profile": "CAS"}})
    paid = [ln for ln in result.breakdown["P3"] if ln.detail.get("for") == "cards_left"]
    assert sum(ln.points for ln in paid) == 6


@pytest.mark.parametrize(
    "change,code",
    [
        ({"out_first": None}, ("spin.out_first_missing", "out_first")),
        ({"out_first": "P9"}, ("spin.player", "out_first")),
        ({"cards_left": {"P3": 2}}, ("spin.out_first_cards", "cards_left")),
        ({"cards_left": {"P1": 40}}, ("spin.cards_left", "cards_left.P1")),
        ({"spinado_played_by": "P1"}, ("spin.held_and_played", "spinado_held_by")),
        ({"spinado_held_by": "P3"}, ("spin.held_by_winner", "spinado_held_by")),
        ({"cards_left": {"P1": 0, "P3": 0}}, ("spin.held_no_cards", "spinado_held_by")),
        ({"spinado_in_dead_hand": True}, ("spin.held_dead_hand", "spinado_in_dead_hand")),
        ({"kings_played": {"Kd": "P1"}}, ("spin.matrimony_king", "kings_played.Kd")),
        ({"kings_played": {"Qd": "P1"}}, ("spin.king", "kings_played.Qd")),
        ({"antes": {"P1": {"game": 5}}}, ("spin.antes", "antes")),
        # W4: one Spinado, so its payment and its penalty never concern two players.
        ({"spinado_played_by": "P2"}, ("spin.one_spinado", "spinado_held_by")),
        # W2: Matrimony (K+Q of diamonds) and Intrigue (Q+J) share the queen.
        ({"intrigue_by": "P1"}, ("spin.pots_split", "intrigue_by")),
        # DNX: the holder pays 2 per card in his hand; the count is not guessed.
        ({"cards_left": None}, ("spin.held_cards_left", "cards_left.P1")),
        ({"cards_left": {"P1": 3, "P2": 0, "P3": 0}}, ("spin.two_out", "cards_left.P2")),
    ],
)
def test_spinado_rejections(change, code):
    deal = {k: v for k, v in {**TV53_1, **change}.items() if v is not None}
    with pytest.raises(Rejection) as caught:
        score_deal({"game": "spinado", "players": 4, **deal})
    assert code in [(p.code, p.path) for p in caught.value.problems]


def test_spinado_cas_needs_every_count_and_the_king_for_intrigue():
    """CAS: 1 per card left from each player to the first out, so every count is needed
    (a missing one was paid as 0); its Intrigue is K+J of diamonds, so the player who made
    it played the king (W2)."""
    cas = {"profile": "CAS"}
    deal = {k: v for k, v in TV53_1.items() if k != "spinado_held_by"}
    with pytest.raises(Rejection) as caught:
        score_deal({"game": "spinado", "players": 4, **deal, "cards_left": {"P1": 2}, "rules": cas})
    assert [(p.code, p.path) for p in caught.value.problems] == [
        ("spin.cards_left_needed", "cards_left")
    ]
    assert "P2, P4" in caught.value.problems[0].en
    with pytest.raises(Rejection) as caught:
        score_deal({"game": "spinado", "players": 4, **deal, "intrigue_by": "P1", "rules": cas})
    found = [(p.code, p.path) for p in caught.value.problems]
    assert ("spin.intrigue_king", "kings_played.Kd") in found
    both = score_deal({"game": "spinado", "players": 4, **deal, "intrigue_by": "P2", "rules": cas})
    assert {ln.detail.get("pot") for ln in both.breakdown["P2"]} >= {"matrimony", "intrigue"}


def test_spinado_hands_are_checked_against_the_deck_and_the_events():
    game = games()["spinado"]
    rules = game.rules(None)
    state = game.new_match(rules, 4)
    deal = game.random_deal(random.Random(3), rules, state, "cards")
    deal["hands"]["P1"] = deal["hands"]["P1"][:-1] + [deal["hands"]["P2"][0]]
    with pytest.raises(Rejection) as caught:
        game.score_deal(deal, rules, state)
    found = {p.code for p in caught.value.problems}
    assert "card.duplicate" in found
    deal["dead_hand"] = deal["dead_hand"][:-1]
    with pytest.raises(Rejection) as caught:
        game.score_deal(deal, rules, state)
    assert "spin.hands_deck" in {p.code for p in caught.value.problems}


def trap(deal, **rules):
    body = {"game": "trappola", "dealer": "P2", **deal}
    return score_deal({**body, **({"rules": rules} if rules else {})})


SEATS = {"P1": {"points": 30, "tricks": 5}, "P2": {"points": 20, "tricks": 4}}


def test_trappola_card_values_from_the_captured_cards():
    """2.10: A 6, K 5, C 4, F 3, the rest (10 9 8 7 2) 0; the last trick 6."""
    p1 = ["Ad", "Rd", "Cd", "Fd", "10d", "9d", "8d", "7d", "2c", "Ac"]
    p2 = ["Rc", "Cc", "Fc", "10c", "9c", "8c", "7c", "2d"]
    seats = {"P1": {"cards": p1, "tricks": 5}, "P2": {"cards": p2, "tricks": 4}}
    result = trap({"seats": seats, "last_trick": "P2"})
    assert result.level == "cards"
    assert result.facts["card_points"] == {"P1": 6 + 5 + 4 + 3 + 6, "P2": 5 + 4 + 3}
    assert result.points == {"P1": 24, "P2": 12 + 6}
    # D8: two cards a trick, so P2's 4 tricks cannot hold 10 cards.
    seats["P2"] = {"cards": p2 + ["9b", "8b"], "tricks": 4}
    with pytest.raises(Rejection) as caught:
        trap({"seats": seats, "last_trick": "P2"})
    assert [(p.code, p.path) for p in caught.value.problems] == [
        ("capture.too_many_cards", "seats.P2.cards")
    ]


def test_trappola_plain_deal_with_last_trick_six():
    assert trap({"seats": SEATS, "last_trick": "P1"}).points == {"P1": 36, "P2": 20}


def test_trappola_tricks_may_be_left_out_as_a_sheet_does():
    """No score reads the trick counts (they are checked where given): a deal that leaves
    them out, as a paper sheet does, scores as the same deal with them."""
    bare = {p: {"points": v["points"]} for p, v in SEATS.items()}
    twos = [{"player": "P1", "trick": 1}]
    told = trap({"seats": SEATS, "last_trick": "P1", "twos": twos})
    assert trap({"seats": bare, "last_trick": "P1", "twos": twos}).points == told.points


def test_trappola_twos_and_the_final_run_replace_the_bonuses():
    twos = [
        {"player": "P2", "trick": 9},
        {"player": "P2", "trick": 8},
        {"player": "P1", "trick": 2},
    ]
    result = trap({"seats": SEATS, "last_trick": "P2", "twos": twos})
    assert result.points == {"P1": 30 + 10, "P2": 20 + 52}


@pytest.mark.parametrize("run,bonus", [(1, 26), (2, 52), (3, 78), (4, 104)])
def test_trappola_final_twos(run, bonus):
    twos = [{"player": "P1", "trick": 9 - k} for k in range(run)]
    result = trap({"seats": SEATS, "last_trick": "P1", "twos": twos})
    assert result.points["P1"] == 30 + bonus


def test_trappola_declarations():
    decls = [{"player": "P1", "rank": "A", "count": 3}, {"player": "P2", "rank": "2", "count": 4}]
    result = trap({"seats": SEATS, "last_trick": "P1", "declarations": decls})
    assert result.points == {"P1": 36 + 12, "P2": 20 + 20}


@pytest.mark.parametrize(
    "change,code",
    [
        ({"seats": {"P1": {"points": 30, "tricks": 5}}}, ("trap.seat", "seats.P2")),
        ({"seats": {**SEATS, "P2": {"points": 20, "tricks": 5}}}, ("trap.tricks_total", "seats")),
        (
            {"seats": {"P1": {"points": 60, "tricks": 5}, "P2": {"points": 40, "tricks": 4}}},
            ("trap.points_total", "seats"),
        ),
        (
            {"seats": {"P1": {"points": 62, "tricks": 5}, "P2": {"points": 0, "tricks": 4}}},
            ("trap.points_over_tricks", "seats.P1"),
        ),
        ({"last_trick": "P3"}, ("trap.last_trick", "last_trick")),
        ({"twos": [{"player": "P1", "trick": 10}]}, ("trap.two_trick", "twos[0]")),
        ({"twos": [{"player": "P2", "trick": 9}]}, ("trap.last_trick_two", "twos")),
        (
            {"twos": [{"player": "P1", "trick": k} for k in range(1, 6)]},
            ("trap.twos_count", "twos"),
        ),
        (
            {"declarations": [{"player": "P1", "rank": "7", "count": 3}]},
            ("trap.decl", "declarations[0]"),
        ),
        (
            {
                "declarations": [
                    {"player": "P1", "rank": "A", "count": 3},
                    {"player": "P2", "rank": "A", "count": 3},
                ]
            },
            ("trap.decl_conflict", "declarations[1]"),
        ),
        ({"redraws": {"P1": 3}}, ("trap.redraws", "redraws")),
        # Q3 (as A4): one declaration per rank; four of a kind replaces three.
        (
            {
                "declarations": [
                    {"player": "P1", "rank": "A", "count": 3},
                    {"player": "P1", "rank": "A", "count": 4},
                ]
            },
            ("trap.decl_twice", "declarations[1]"),
        ),
        # Q2: a 2 wins only when led. P2 deals, so P1 leads trick 1.
        ({"twos": [{"player": "P2", "trick": 1}]}, ("trap.two_first_trick", "twos")),
        (
            {
                "last_trick": "P2",
                "twos": [{"player": "P1", "trick": 8}, {"player": "P2", "trick": 9}],
            },
            ("trap.two_after_two", "twos"),
        ),
    ],
)
def test_trappola_rejections(change, code):
    with pytest.raises(Rejection) as caught:
        trap({"seats": SEATS, "last_trick": "P1", **change})
    assert code in [(p.code, p.path) for p in caught.value.problems]


def test_trappola_match_to_a_target():
    deal = {"seats": SEATS, "last_trick": "P1"}
    match = play_match(
        {
            "game": "trappola",
            "rules": {"trap.target": 101},
            "first_dealer": "P2",
            "deals": [{**deal, "dealer": "P2"}, {**deal, "dealer": "P1"}, {**deal, "dealer": "P2"}],
        }
    )
    assert match.state.totals["P1"] == 108
    assert match.state.outcome.units == {"P1": 1, "P2": -1}


def test_trappola_match_ends_at_the_target_exactly_one_stake():
    """A total equal to the target ends the match (36 + 36 = 72); the winner takes one
    stake from the loser. With no target each deal is a game of its own."""
    deal = {"seats": SEATS, "last_trick": "P1"}
    deals = [{**deal, "dealer": "P2"}, {**deal, "dealer": "P1"}]
    body = {"game": "trappola", "first_dealer": "P2", "deals": deals}
    match = play_match({**body, "rules": {"trap.target": 72}})
    outcome = match.state.outcome
    assert match.state.totals == {"P1": 72, "P2": 40} and match.state.deals_played == 2
    assert (outcome.reason, outcome.winners, outcome.losers) == ("target", ("P1",), ("P2",))
    assert (outcome.multiplier, outcome.units) == (1, {"P1": 1, "P2": -1})
    match = play_match({**body, "rules": {"trap.target": 73}, "deals": deals})
    assert not match.state.finished
    one = play_match({**body, "deals": deals[:1]}).state.outcome
    assert (one.reason, one.multiplier, one.units) == ("deal", 1, {"P1": 1, "P2": -1})


def test_trappola_piles_are_entered_by_tens_the_engine_bounds():
    """Issue 32: the description says each pile's card points are entered as tens and
    units, with the tens a pile can reach: every pile short of every counting card (72)
    from 10 up has its tens there, and each of those tens holds some pile."""
    from itertools import product

    from scorebook.rules import get_game
    from scorebook.rules.games.trappola import MAX_CARD_POINTS, VALUE

    shape = get_game("trappola").table_shape({}, ("P1", "P2"))
    part = shape.part("piles")
    assert part is not None
    tens = part.get("tens")
    assert tens == (10, 20, 30, 40, 50, 60)
    piles = {
        sum(n * VALUE[r] for n, r in zip(counts, VALUE, strict=True))
        for counts in product(range(5), repeat=len(VALUE))
    }
    assert max(piles) == MAX_CARD_POINTS
    assert {v // 10 * 10 for v in piles if 10 <= v < MAX_CARD_POINTS} == set(tens)
    # the other games' piles say nothing of tens
    assert get_game("tressette2").table_shape({}, ("P1", "P2")).part("piles").get("tens") is None


def test_trappola_redraws_are_described_as_scoring_nothing():
    """The description says no score reads the redraws (``scores: False``), so a quick
    entry may leave them out as a paper sheet does: a deal scores the same with them."""
    from scorebook.rules import get_game

    part = get_game("trappola").table_shape({}, ("P1", "P2")).part("redraws")
    assert part is not None and part.get("scores") is False
    told = trap({"seats": SEATS, "last_trick": "P1", "redraws": {"P1": 2}})
    assert trap({"seats": SEATS, "last_trick": "P1"}).points == told.points
