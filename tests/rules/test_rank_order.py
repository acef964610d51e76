"""The order of the cards in trick play, pinned from outside the engine.

The random deals are generated with the engine's own rank order, so the other property
tests would agree with an engine whose order were wrong (the 2 above the 3, the 4 above
the 5): here the order is written out from the reference, section 1.2, and every trick
the engine replays is judged again by it.
"""

from __future__ import annotations

import random

import pytest

from scorebook.rules import games
from scorebook.rules.cards import TRESSETTE_RANKS, Card, trick_winner

#: Strongest first. Italian names: C cavallo (the French Queen), F fante (the Jack).
TRESSETTE = ("3", "2", "A", "R", "C", "F", "7", "6", "5", "4")
J_ABOVE_Q = ("3", "2", "A", "R", "F", "C", "7", "6", "5", "4")
#: Trappola (reference 2.10, Cardano): the ace high, the 2 lowest.
TRAPPOLA = ("A", "R", "C", "F", "10", "9", "8", "7", "2")

#: (game, house rules, players): every game that plays tricks, both court orders.
FORMS = [
    ("tressette4", None, None),
    ("tressette4", {"core.french_court_order": "J_above_Q"}, None),
    ("tressette2", None, None),
    ("tressette2", {"profile": "ti_two_rounds"}, None),
    ("tressette3", None, None),
    ("tressette3", {"profile": "col_morto"}, None),
    ("tressette4i", {"core.french_court_order": "J_above_Q"}, None),
    ("chiamata", None, None),
    ("rovescino", None, 4),
    ("traversone_pairs", None, None),
    ("terziglio", None, None),
    ("calabrasella", None, None),
    ("trappola", None, None),
]


def oracle(cards: list[str], order: tuple[str, ...]) -> int:
    """Index of the winning card: the highest of the suit led."""
    led = cards[0][-1]
    following = [(order.index(c[:-1]), i) for i, c in enumerate(cards) if c[-1] == led]
    return min(following)[1]


def meets(cards: list[str], order: tuple[str, ...], high: str, low: str) -> bool:
    """Are ``high`` and ``low`` the two best cards of the suit led (so one decides)?"""
    led = cards[0][-1]
    ranks = sorted((c[:-1] for c in cards if c[-1] == led), key=order.index)
    return ranks[:2] == [high, low]


@pytest.mark.parametrize("high,low", list(zip(TRESSETTE, TRESSETTE[1:], strict=False)))
@pytest.mark.parametrize("suit", "dcsb")
def test_each_rank_beats_the_next_one_down(high, low, suit):
    assert trick_winner([Card(low, suit), Card(high, suit)]) == 1
    assert trick_winner([Card(high, suit), Card(low, suit)]) == 0
    assert trick_winner([Card(high, suit), Card(low, suit)], TRESSETTE_RANKS) == 0


def test_a_card_off_suit_never_wins():
    assert trick_winner([Card("4", "d"), Card("3", "c"), Card("2", "s"), Card("A", "b")]) == 0


@pytest.mark.parametrize("key,spec,players", FORMS)
def test_every_replayed_trick_goes_to_the_highest_card_of_the_suit_led(key, spec, players):
    game = games()[key]
    rules = game.rules(spec)
    order = TRAPPOLA if key == "trappola" else TRESSETTE
    if rules.values.get("core.french_court_order") == "J_above_Q":
        order = J_ABOVE_Q
    seen = dict.fromkeys(zip(order, order[1:], strict=False), 0)
    for seed in range(80):
        state = game.new_match(rules, players)
        deal = game.random_deal(random.Random(seed), rules, state, "play")
        result = game.score_deal(deal, rules, state)
        for trick in result.facts.get("play", {}).get("tricks", []):
            cards = trick["cards"]
            assert trick["players"][oracle(cards, order)] == trick["winner"], (seed, trick)
            for high, low in seen:
                seen[(high, low)] += meets(cards, order, high, low)
    # The deals did put the pairs the order is most easily got wrong in one trick.
    top, bottom = (order[0], order[1]), (order[-2], order[-1])
    assert seen[top] and seen[bottom], seen
