"""``Game.record_final`` never guesses (issue 31 item 8): for every game and every house-rule
value, a match played deal by deal with random legal deals, then recorded by its final
totals alone, gets the result its deals gave, or a refusal that asks who won (and, told
the winner, that result); never another result, never an exception but a refusal.

Checked on the way too: the totals after any deal that did not end the match are refused
as a final score (not over, or asking who won: they may also end a match the totals
cannot read); where the totals tell, a winner who did not win is refused; the games whose
deals settle or rate the match refuse a final score whatever their rules.

The counts per game and house rule (``python -m tests.rules.test_record_final_property
[seeds]`` prints them, 20 seeds by default) are what the closing note quotes.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorebook.rules import Outcome, Rejection, games
from scorebook.rules.game import Game
from scorebook.rules.houserules import Rules
from tests.rules.switch_forms import combined_spec, forms, player_counts

#: The refusals a final score may meet when the match it closes did end: the one asking
#: who won (the totals cannot tell under these house rules).
ASKS_WINNER = "final.winner_needed"
#: Deals a random match may take before it is counted unfinished (a match of chips with
#: no set number of deals never ends by itself).
MAX_DEALS = 300
#: The games whose deals settle or rate the match: a final score is refused.
PER_DEAL_CODES = ("final.per_deal", "final.per_deal_contest")
#: Natural ends, which a final score can tell; the others (a claim, a special event) it
#: does not say, and the match's result is not compared.
NATURAL = ("target", "deals", "deal", "elimination")

SAME = "same result"
ASKED = "refused asking the winner, then the same result with it"
PER_DEAL = "refused: settled or rated per deal"
NOT_SAID = "ended by a claim or an event (a final score does not say)"
UNFINISHED = f"not over after {MAX_DEALS} deals"
MID = "totals after a deal that did not end the match, refused as a final score"
CATEGORIES = (SAME, ASKED, PER_DEAL, NOT_SAID, UNFINISHED, MID)


def per_deal(game: Game, rules: Rules) -> bool:
    return game.settles_per_deal(rules) or bool(game.deal_contest)


def plays_a_set_number_of_deals(key: str, rules: Rules) -> bool:
    """A match that ends after a set number of deals: the totals before its last deal
    read as a final score are a finished match too (the sheet says it ended)."""
    values = rules.values
    return bool(values.get("t4.deals")) or values.get("rov.end") == "fixed_number_of_deals"


def winner_scorer(game: Game, outcome: Outcome) -> str:
    return game.seat_scorer(outcome.winners[0])


def result(outcome: Outcome) -> tuple[Any, ...]:
    return (
        outcome.reason,
        outcome.winners,
        outcome.losers,
        outcome.multiplier,
        dict(outcome.units),
    )


def final(
    game: Game, rules: Rules, players: int, totals: dict[str, int], winner: str | None = None
) -> Outcome | Rejection:
    """``record_final`` on a fresh match: its outcome, or the refusal (any other
    exception fails the property). A refusal leaves the match as it was."""
    state = game.new_match(rules, players)
    before = state.as_dict()
    try:
        return game.record_final(state, dict(totals), rules, winner=winner)
    except Rejection as refused:
        assert state.as_dict() == before, "a refused final score changed the match"
        return refused


def codes(refused: Rejection) -> list[str]:
    return [p.code for p in refused.problems]


#: How many times the totals after a deal that did not end its match were refused as a
#: final score (``judge`` counts them: the table's last column).
MID_MATCH: Counter[str] = Counter()


def judge(key: str, spec: dict[str, Any], players: int, seed: int) -> str:
    """Play one random match of ``key`` under ``spec`` deal by deal, check its totals as
    final scores along the way and at the end; the category of the end (and each mid-match
    refusal counted in ``MID_MATCH[key]``)."""
    game = games()[key]
    rules = game.rules(spec)
    state = game.new_match(rules, players)
    rng = random.Random(seed)
    if per_deal(game, rules):
        for _ in range(8):
            if state.finished:
                break
            game.add_deal(state, game.random_deal(rng, rules, state, "totals"), rules)
        got = final(game, rules, players, state.totals)
        assert isinstance(got, Rejection) and codes(got)[0] in PER_DEAL_CODES, got
        return PER_DEAL
    fixed = plays_a_set_number_of_deals(key, rules)
    while not state.finished and state.deals_played < MAX_DEALS:
        game.add_deal(state, game.random_deal(rng, rules, state, "totals"), rules)
        if state.finished or fixed or state.extra.get("overtime"):
            continue
        # Not over: the same totals read as a final score end no match the totals can tell.
        got = final(game, rules, players, state.totals)
        assert isinstance(got, Rejection), (state.totals, got)
        assert codes(got) in (["final.not_over"], [ASKS_WINNER]), codes(got)
        MID_MATCH[key] += 1
    if not state.finished:
        return UNFINISHED
    live = state.outcome
    assert live is not None
    got = final(game, rules, players, state.totals)
    if live.reason not in NATURAL:
        return NOT_SAID
    if isinstance(got, Rejection):
        assert codes(got) == [ASKS_WINNER], (state.totals, live, codes(got))
        told = final(game, rules, players, state.totals, winner_scorer(game, live))
        assert isinstance(told, Outcome), (state.totals, live, told)
        assert result(told) == result(live), (state.totals, told, live)
        return ASKED
    assert result(got) == result(live), (state.totals, got, live)
    assert got.detail["final_score"] is True
    winners = {game.seat_scorer(s) for s in live.winners}
    for wrong in (s for s in state.scorers if s not in winners):
        refused = final(game, rules, players, state.totals, wrong)
        assert isinstance(refused, Rejection), (state.totals, wrong, refused)
        assert codes(refused) == ["final.winner_contradicts"], codes(refused)
    return SAME


def tally(seeds: int) -> dict[tuple[str, str], Counter[str]]:
    """Every game, every form (house-rule value), every player count it allows, ``seeds``
    random matches each: the categories counted per game and form (``MID`` the mid-match
    totals refused on the way)."""
    counts: dict[tuple[str, str], Counter[str]] = {}
    for key in sorted(games()):
        game = games()[key]
        for label, spec in forms(key):
            found = counts.setdefault((key, label), Counter())
            allowed = player_counts(game, spec)
            for seed in range(seeds):
                players = allowed[seed % len(allowed)]
                before = MID_MATCH[key]
                found[judge(key, spec, players, seed)] += 1
                found[MID] += MID_MATCH[key] - before
    return counts


def test_every_game_and_house_rule_value_gives_the_same_result_or_asks_the_winner():
    """Two random matches per game and house-rule value (each player count in turn)."""
    counts = tally(seeds=2)
    assert all(sum(n for c, n in found.items() if c != MID) == 2 for found in counts.values())
    # The property met the cases it is about: both ways of reading a final score.
    totals = sum(counts.values(), Counter())
    assert totals[SAME] > 100 and totals[PER_DEAL] > 20 and totals[MID] > 1000


@pytest.mark.parametrize(
    "key,spec,players",
    [
        ("tressette4", {"t4.reaching_target": "first_in_trick_order"}, 4),
        ("rovescino", {"rov.end": "elimination_until_three_remain", "rov.target": 2}, 5),
    ],
)
def test_the_house_rules_whose_totals_cannot_tell_ask_the_winner(key, spec, players):
    found = Counter(judge(key, spec, players, seed) for seed in range(60))
    assert found[ASKED] >= 3 and found[SAME] >= 10, found


ONCE_A_MATCH = sorted(k for k, g in games().items() if not per_deal(g, g.rules({})))


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_combined_house_rules_give_the_same_result_or_ask_the_winner(data, seed):
    key = data.draw(st.sampled_from(ONCE_A_MATCH), label="game")
    spec = data.draw(combined_spec(key), label="rules")
    game = games()[key]
    try:
        game.rules(spec)
    except Rejection:
        return
    allowed = player_counts(game, spec)
    if not allowed:
        return
    players = data.draw(st.sampled_from(allowed), label="players")
    judge(key, spec, players, seed)


def main(argv: list[str]) -> None:
    seeds = int(argv[0]) if argv else 20
    counts = tally(seeds)
    short = {SAME: "same", ASKED: "asked winner", PER_DEAL: "per deal", NOT_SAID: "claim/event"}
    short[UNFINISHED] = "unfinished"
    short[MID] = "mid-match totals refused"
    print(f"{seeds} random matches per game and house-rule value")
    print("| game | house rule | " + " | ".join(short[c] for c in CATEGORIES) + " |")
    print("|---|---|" + "---|" * len(CATEGORIES))
    for (key, label), found in counts.items():
        cells = " | ".join(str(found[c]) for c in CATEGORIES)
        print(f"| {key} | {label} | {cells} |")
    print(
        "| all | all | "
        + " | ".join(str(sum(f[c] for f in counts.values())) for c in CATEGORIES)
        + " |"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
