"""A federation of two clubs with persons in each, and a federal tournament hosted by San
Rocco, for the federal tournament and ranking tests (pages and API too)."""

from __future__ import annotations

import datetime
from types import SimpleNamespace
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from scorebook.clubs.models import Player
from scorebook.federations.models import Officer
from scorebook.federations.services import federal_tournaments as federal
from scorebook.tournaments.models import Pairing, Tournament
from scorebook.tournaments.services.results import tournament_finish
from scorebook.tournaments.services.rounds import round_start
from tests import builders as build


def person(club, username: str, name: str | None = None):
    """An account linked to a new player of ``club`` (a person of its federations)."""
    account = get_user_model().objects.create_user(username, password=f"pw-{username}")
    player = Player.objects.create(club=club, name=name or username.title())
    build.linked(player, account)
    return account


def world(people) -> SimpleNamespace:
    """San Rocco (the host) and Belmonte in the federation; four persons at San Rocco
    (``sr1``..``sr4``) and four at Belmonte (``bm1``..``bm4``)."""
    belmonte, _owner = build.club("Circolo Belmonte", "belmonte")
    build.member(belmonte, "director", "belmonte-director")
    fed = build.federation(people.club, belmonte)
    users = get_user_model().objects
    here = [person(people.club, f"sr{i}", f"Rocco {i}") for i in range(1, 5)]
    there = [person(belmonte, f"bm{i}", f"Belmonte {i}") for i in range(1, 5)]
    return SimpleNamespace(
        fed=fed,
        host=people.club,
        belmonte=belmonte,
        here=here,
        there=there,
        officer=users.get(username=f"{fed.slug}-officer"),
        president=Officer.objects.get(federation=fed, role="president").user,
    )


def announce(w, *, date: datetime.date | None = None, **values: Any):
    values = {
        "name": "Torneo provinciale",
        "date": date or timezone.localdate(),
        "host": w.host.slug,
        "level": "provincial",
        "game": build.GAME,
        "rules": build.RULES,
        "format": "swiss",
        "rounds": 1,
        "cap": 8,
        **values,
    }
    return federal.federal_tournament_announce(federation=w.fed, user=w.officer, **values)


def register_all(w, federal_tournament):
    """Two pairs from each club: sr1+sr2, bm1+bm2, sr3+sr4, bm3+bm4."""
    pairs = [(w.here[0], w.here[1]), (w.there[0], w.there[1])]
    pairs += [(w.here[2], w.here[3]), (w.there[2], w.there[3])]
    return [
        federal.registration_add(federal_tournament=federal_tournament, partner=b.username, user=a)
        for a, b in pairs
    ]


def play_through(people, tournament: Tournament, winners: set[int] | None = None) -> None:
    """Start each round, finish its matches (the home side wins unless ``winners`` names
    the entries that win), and finish the tournament."""
    for _ in range(tournament.rounds):
        round_ = round_start(tournament=tournament, user=people.director)
        for pairing in Pairing.objects.filter(round=round_).select_related("home"):
            home_wins = winners is None or pairing.home_id in winners
            for game in pairing.games.select_related("match"):
                build.finish(people, game.match, build.A_WINS if home_wins else build.B_WINS)
    tournament_finish(tournament=tournament, user=people.director)
