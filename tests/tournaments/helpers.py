"""Building tournaments and playing their matches in tests (through the services)."""

from __future__ import annotations

import datetime

from scorebook.clubs.models import Player
from scorebook.matches import services as matches
from scorebook.matches.models import Match
from scorebook.tournaments.models import Pairing, Round
from scorebook.tournaments.services.registration import entry_add
from scorebook.tournaments.services.setup import tournament_create

# Tressette in 4: a deal won by the first side (20 thirds and the last trick) or the second.
FIRST_SIDE_WINS = {
    "sides": {"A": {"thirds": 20, "tricks": 5}, "B": {"thirds": 12, "tricks": 5}},
    "last_trick": "A",
}
SECOND_SIDE_WINS = {
    "sides": {"A": {"thirds": 12, "tricks": 5}, "B": {"thirds": 20, "tricks": 5}},
    "last_trick": "B",
}
GAME = "tressette4"
RULES = {"profile": "classic_21"}


def open_night(people, day=20):
    return matches.night_open(
        club_id=people.club.pk, date=datetime.date(2026, 11, day), venue="", user=people.director
    )


def players(club, count, prefix="P"):
    return [Player.objects.create(club=club, name=f"{prefix}{i:03d}") for i in range(count)]


def tournament(people, night, **settings):
    settings.setdefault("name", "Torneo di San Rocco")
    settings.setdefault("game", GAME)
    settings.setdefault("rules", RULES)
    settings.setdefault("seed", 1234)
    return tournament_create(night=night, user=people.director, **settings)


def with_pairs(people, night, count, **settings):
    """A tournament with ``count`` pairs of new players."""
    t = tournament(people, night, **settings)
    ps = players(people.club, 2 * count)
    for i in range(count):
        entry_add(tournament=t, players=[ps[2 * i].pk, ps[2 * i + 1].pk], user=people.director)
    return t


def finish_match(people, match, home_wins=True):
    """Play ``match`` to the end, the home pair (first side) winning or losing."""
    data = FIRST_SIDE_WINS if home_wins else SECOND_SIDE_WINS
    number = 1
    while Match.objects.get(pk=match.pk).status != Match.Status.FINISHED:
        matches.deal_create(match=match, data=data, expected_number=number, user=people.scorer)
        number += 1
        assert number < 40


def play_round(people, round_: Round, home_wins=lambda pairing: True):
    """Finish every open match of a started round."""
    for pairing in Pairing.objects.filter(round=round_).order_by("board"):
        for game in pairing.games.select_related("match"):
            if game.match.status == Match.Status.OPEN:
                finish_match(people, game.match, home_wins(pairing))
