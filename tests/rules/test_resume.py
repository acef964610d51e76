"""A match resumed from its stored state scores the next deal exactly as a fold of all its
deals from the start would: deal entry needs the stored state, never the earlier inputs."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorebook.rules import MatchState, Rejection, games, resume_match, start_match

#: A hand Chiamata's default (GG) rule lets its holder annul: no carico, two figures.
POOR_HAND = "Rd Fc 7d 7c 6s 6b 5d 5c 4s 4b".split()

#: Forms beyond each game's profiles and player counts: the rules that make a game carry
#: facts between deals (deal limits, eliminations, ties played off, the first deal's lead).
MORE_FORMS = {
    "calabrasella": [{"cav.deals": 3}],
    "chiamata": [{"core.first_lead": "holder_of_4d_first_deal_only"}],
    "rovescino": [
        {"rov.end": end, "rov.deals": 4}
        for end in (
            "lowest_when_target_reached_wins",
            "elimination_until_three_remain",
            "fixed_number_of_deals",
        )
    ],
    "spinado": [{"spin.deals": 5}, {"spin.winner_skips_next_ante": True}],
    "terziglio": [
        {"profile": "chips_1_2_4_8_16", "terz.deals": 4},
        {"profile": "pen_redeal", "terz.tie": "all_reaching_win"},
    ],
    "tressette4": [
        {"t4.both_reach_target": "play_another_deal"},
        # Wrong call-outs counted over the whole game (the state carries them).
        {"t4.claim_by": "opponents", "t4.false_claim": "play_on", "t4.callout_limit": "per_game"},
    ],
}


def forms(key: str) -> list[tuple[dict[str, object] | None, int]]:
    """Every profile and extra form at every player count the rules allow."""
    game = games()[key]
    specs = [None, *({"profile": p} for p in game.profiles), *MORE_FORMS.get(key, [])]
    found = []
    for spec in specs:
        for n in game.player_counts:
            try:
                start_match(key, spec, n)
            except Rejection:
                continue  # e.g. a deal table for three players at a table of four
            found.append((spec, n))
    return found


GAME_LEVELS = [(key, level) for key, game in sorted(games().items()) for level in game.levels]


def stored(state: MatchState) -> dict[str, object]:
    """What a database would hand back: the state's JSON, parsed again."""
    return json.loads(json.dumps(state.as_dict()))


@pytest.mark.parametrize("key,level", GAME_LEVELS)
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_resuming_deal_by_deal_equals_folding_from_the_start(key, level, data, seed):
    spec, players = data.draw(st.sampled_from(forms(key)), label="form")
    game, rules, folded = start_match(key, spec, players)
    rng = random.Random(seed)
    resumed_from = stored(folded)
    for _ in range(40):
        if folded.finished:
            break
        if key == "chiamata" and rng.random() < 0.15:
            deal = {"annulled_by": rng.choice(folded.seats), "hand": POOR_HAND}
        else:
            deal = game.random_deal(rng, rules, folded, level)
        expected = game.add_deal(folded, deal, rules)
        again, again_rules, state = resume_match(key, spec, resumed_from)
        assert state == MatchState.from_dict(resumed_from)
        result = again.add_deal(state, json.loads(json.dumps(deal)), again_rules)
        assert result.as_dict() == expected.as_dict()
        assert state == folded  # the same values, of the same types
        assert state.as_dict() == folded.as_dict()
        assert state.deal_number == folded.deal_number
        resumed_from = stored(state)


def test_a_finished_match_stays_finished_after_resuming():
    game, rules, state = start_match("calabrasella", {"cav.deals": 1})
    game.add_deal(state, game.random_deal(random.Random(1), rules, state, "totals"), rules)
    assert state.finished
    _, _, resumed = resume_match("calabrasella", {"cav.deals": 1}, stored(state))
    assert resumed.finished and resumed.outcome == state.outcome
    assert resumed.deal_number == 2


def test_a_resumed_state_shares_nothing_with_the_stored_one():
    game, rules, state = start_match("spinado", None, 3)
    data = stored(state)
    _, _, resumed = resume_match("spinado", None, data)
    game.add_deal(resumed, game.random_deal(random.Random(2), rules, resumed, "totals"), rules)
    assert data == stored(state)


@pytest.mark.parametrize(
    "change",
    [
        {"format": 1},
        {"deals_annulled": None},
        {"game": "chiamata"},
    ],
)
def test_a_state_of_another_game_or_layout_is_refused(change):
    _, _, state = start_match("tressette2")
    data = {**stored(state), **change}
    if data["deals_annulled"] is None:
        del data["deals_annulled"]
    with pytest.raises(ValueError):
        resume_match("tressette2", None, data)
