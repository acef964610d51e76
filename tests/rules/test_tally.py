"""The engine's description of what an ordinary deal adds from its piles and last trick
alone (``TableShape.tally``, issue 32 item 4: a phone with no connection shows its waiting
deals in the score with it) gives the engine's points for every deal it counts, under
every house rule of every game that has one; where it cannot, it says None (the phone
says "not counted yet"), never another number."""

from __future__ import annotations

import copy
import random

import pytest

from scorebook.rules import Rejection, get_game, start_match
from scorebook.rules.schema import game_keys
from scorebook.rules.table import Tally

#: Piles tried per house rule where more than two scorers share them (two: every split).
SAMPLES = 30


def variants(key):
    """The game's house rules one switch at a time (each choice of each switch, the
    defaults otherwise) and each profile, with the players each may have."""
    game = get_game(key)
    specs = [None, *({"profile": p} for p in game.profiles)]
    for switch in game.switches:
        specs += [{switch.key: c} for c in switch.choices if c != switch.default]
    for spec in specs:
        for players in game.player_counts:
            try:
                yield spec, start_match(key, spec, players)
            except Rejection:
                continue  # a switch that needs another one, or other players


def splits(scorers, whole, rng):
    """Piles of ``whole`` thirds: every split between two scorers, else a sample with
    the edges (nothing, everything) among them."""
    if len(scorers) == 2:
        return [dict(zip(scorers, (a, whole - a), strict=True)) for a in range(whole + 1)]
    out = []
    for n in range(SAMPLES):
        cuts = sorted(rng.randint(0, whole) for _ in scorers[1:])
        if n % 10 == 0:
            cuts = sorted(rng.choice((0, whole)) for _ in scorers[1:])
        sizes = [b - a for a, b in zip([0, *cuts], [*cuts, whole], strict=True)]
        out.append(dict(zip(scorers, sizes, strict=True)))
    return out


def ordinary(base, shape, state, thirds, last):
    """A deal of only the fields the tally reads: the engine's own random deal ``base``
    (for its other read fields: the 4 taken out) with these piles and last trick, no trick
    counts (the quick form writes none)."""
    group = "sides" if shape.scored_by == "sides" else "seats"
    deal = {k: v for k, v in base.items() if k in shape.tally.reads and k != group}
    deal.update({"dealer": state.dealer, group: {s: {"thirds": t} for s, t in thirds.items()}})
    deal["last_trick"] = last
    return deal


def counted_games():
    out = []
    for key in game_keys():
        for _spec, (game, rules, state) in variants(key):
            if game.table_shape(rules.values, state.seats).tally is not None:
                out.append(key)
                break
    return out


def test_the_games_a_phone_counts():
    """Those scored from the piles alone; the others (an auction's contract, the caller's
    partner, the chips) are the engine's."""
    assert counted_games() == [
        "rovescino",
        "traversone_pairs",
        "tressette2",
        "tressette3",
        "tressette4",
        "tressette4i",
    ]


@pytest.mark.parametrize("key", counted_games())
def test_the_tally_gives_the_engines_points(key):
    rng = random.Random(key)
    counted = tried = 0
    for spec, (game, rules, state) in variants(key):
        shape = game.table_shape(rules.values, state.seats)
        tally = shape.tally
        if tally is None:
            continue
        scorers = tuple(game.playing(state) if hasattr(game, "playing") else shape.scorers)
        base = game.random_deal(rng, rules, copy.deepcopy(state), "totals")
        for thirds in splits(scorers, shape.whole, rng):
            # every taker of the last trick between two; two of them among more
            for last in scorers if len(scorers) == 2 else rng.sample(scorers, 2):
                deal = ordinary(base, shape, state, thirds, last)
                adds = tally.adds(thirds, last)
                try:
                    result = game.add_deal(copy.deepcopy(state), deal, rules)
                except Rejection:
                    continue  # not a deal the engine takes: the phone's queue says so later
                tried += 1
                if adds is None:
                    continue
                counted += 1
                points = {s: result.points.get(s, 0) for s in adds}
                assert adds == points, (spec, thirds, last, result.points)
    assert tried > 0
    assert counted > tried // 2, (counted, tried)  # it counts the ordinary deals


def test_the_events_the_piles_make_are_the_engines():
    """A side below a point (a stramazzo may be the other's) and one with every point
    (a cappotto of the points): None, not a number."""
    t4 = Tally("floor_per_scorer", ("sides", "last_trick"), least=3)
    assert t4.adds({"A": 2, "B": 30}, "B") is None
    assert t4.adds({"A": 3, "B": 29}, "B") == {"A": 1, "B": 10}
    sweep = Tally("remainder_to_last_trick", ("sides", "last_trick"), sweep_event=True)
    assert sweep.adds({"A": 32, "B": 0}, "A") is None
    assert sweep.adds({"A": 31, "B": 1}, "A") is None  # the leftovers too: all 11
    assert sweep.adds({"A": 29, "B": 3}, "A") == {"A": 10, "B": 1}
    assert Tally("floor_per_scorer").adds({"P1": 5}, None) is None  # no last trick
    assert Tally("another").adds({"P1": 5, "P2": 27}, "P1") is None
