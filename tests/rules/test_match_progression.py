"""The contract of ``Game`` every game's match goes through (scorebook/rules/game.py):
what each game says of itself under every house rule, the deal passing round the table,
the race to a target. Each test here killed mutants of game.py that the suite let live
(deploy/checks/rules_mutations.py, issue 31 item 8)."""

from __future__ import annotations

import pytest

from scorebook.rules import Rejection, games
from tests.rules.switch_forms import forms


@pytest.mark.parametrize("key", sorted(games()))
def test_chips_and_the_pot_only_where_the_game_has_them(key):
    """A deal's numbers are chips only where stakes change hands every deal; a match feeds
    the table's pot only in a game that may play for it. Under every house-rule value."""
    game = games()[key]
    seen = set()
    for _, spec in forms(key):
        rules = game.rules(spec)
        chips = game.counts_in_chips(rules.values)
        if chips:
            assert game.settles_per_deal(rules), spec
        if game.plays_for_pot(rules.values):
            assert game.pot_game, spec
        seen.add(chips)
    if not game.settles_per_deal(game.rules({})):
        assert seen == {False} or key == "terziglio"  # its chips are a house rule


@pytest.mark.parametrize("key", sorted(games()))
def test_a_number_of_players_must_be_a_whole_number_the_game_is_played_by(key):
    """``4.0`` equals 4 and ``True`` equals 1, but neither is a number of players."""
    game = games()[key]
    rules = game.rules({})
    count = game.player_counts[0]
    for wrong in (float(count), str(count), True, 0, 99):
        with pytest.raises(Rejection) as refused:
            game.new_match(rules, wrong)
        assert [(p.code, p.path) for p in refused.value.problems] == [
            ("match.bad_players", "players")
        ]
    assert len(game.new_match(rules, count).seats) == count
