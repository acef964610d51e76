"""Playing tournaments in tests: the tournament-only steps, on tests/builders.py.

The names the tournament tests use are the builders' (one home for each): a night, new
players, a tournament with pairs at the door, a match played to the end."""

from __future__ import annotations

from scorebook.matches.models import Match
from scorebook.tournaments.models import Pairing, Round
from tests import builders as build
from tests.builders import A_WINS as FIRST_SIDE_WINS
from tests.builders import B_WINS as SECOND_SIDE_WINS

# The tournament tests' names for the builders' (one home for each).
from tests.builders import GAME, RULES, players, tournament  # noqa: F401


def open_night(people, day=20):
    return build.night(people, day=day)


def with_pairs(people, night, count, **settings):
    """A tournament with ``count`` pairs of new players."""
    return build.tournament(people, night, pairs=count, **settings)


def finish_match(people, match, home_wins=True):
    """Play ``match`` to the end, the home pair (first side) winning or losing."""
    build.finish(people, match, FIRST_SIDE_WINS if home_wins else SECOND_SIDE_WINS)


def play_round(people, round_: Round, home_wins=lambda pairing: True):
    """Finish every open match of a started round."""
    for pairing in Pairing.objects.filter(round=round_).order_by("board"):
        for game in pairing.games.select_related("match"):
            if game.match.status == Match.Status.OPEN:
                finish_match(people, game.match, home_wins(pairing))
