"""`manage.py rebuild_standings`: its arguments, and the same tables whether the clubs are
rebuilt in one process or in several side by side."""

import random

import pytest
from django.core.management import CommandError, call_command
from django.test import TestCase

from scorebook.standings.management.commands import rebuild_standings
from scorebook.standings.models import Freshness, LeaderboardRow

from .test_incremental_equals_rebuild import GAMES, _apply, _world, tables


def _clubs_with_matches(count: int, seed: int):
    rng = random.Random(seed)
    clubs = []
    for _ in range(count):
        club, user, players, nights = _world()
        played: list = []
        for game in sorted(GAMES):
            _apply(("match", game, rng.randrange(4)), club, user, players, nights, played)
        for _ in range(30):
            op = ("deal", rng.randrange(10), rng.randrange(2**16))
            _apply(op, club, user, players, nights, played)
        _apply(("correct", 0, rng.randrange(2**16)), club, user, players, nights, played)
        clubs.append(club)
    return clubs


def test_rebuild_one_club_by_slug(db, eager):
    with TestCase.captureOnCommitCallbacks(execute=True):
        club, *_ = _clubs_with_matches(1, seed=3)
    before = tables(club)
    assert before[0], "the refreshes made no rows"
    LeaderboardRow.objects.filter(club=club).delete()
    call_command("rebuild_standings", "--club", club.slug, "--quiet-progress")
    assert tables(club) == before
    assert Freshness.objects.get(club=club).built_at is not None


def test_deals_without_an_event_count_no_event(db, eager):
    # On SQLite a deal's JSON null event was read as the text "null": the leaderboard of
    # the games read deal by deal (Chiamata, Terziglio) showed an event called "null".
    club, *_ = _clubs_with_matches(1, seed=3)
    call_command("rebuild_standings", "--club", club.slug, "--quiet-progress")
    events = {name for row in LeaderboardRow.objects.filter(club=club) for name in row.events}
    assert events and "null" not in events
    assert events <= {"cappotto", "cappottone", "stramazzo", "stramazzone", "collatondrione"}


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["--jobs", "0"], "--jobs must be at least 1"),
        (["--season", "1"], "--season needs --club"),
        (["--club", "no-such-club"], "no club"),
    ],
)
def test_refuses_what_it_cannot_do(db, args, error):
    with pytest.raises(CommandError, match=error):
        call_command("rebuild_standings", *args, "--quiet-progress")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)  # the processes read what this test committed
def test_processes_side_by_side_build_the_same_tables(eager, monkeypatch):
    clubs = _clubs_with_matches(3, seed=14)
    call_command("rebuild_standings", "--jobs", "1", "--quiet-progress")
    alone = [tables(club) for club in clubs]
    assert all(board for board, *_ in alone)
    LeaderboardRow.objects.all().delete()
    monkeypatch.setattr(rebuild_standings, "CLUBS_AT_ONCE", 1)  # three groups, two processes
    call_command("rebuild_standings", "--jobs", "2", "--quiet-progress")
    assert [tables(club) for club in clubs] == alone


@pytest.mark.postgres
def test_inside_a_transaction_it_keeps_to_one_process(db, eager, monkeypatch):
    # Other processes could not see the caller's uncommitted rows, and closing the
    # connection would throw the caller's transaction away.
    clubs = _clubs_with_matches(2, seed=5)
    monkeypatch.setattr(rebuild_standings, "CLUBS_AT_ONCE", 1)
    call_command("rebuild_standings", "--jobs", "2", "--quiet-progress")
    assert all(LeaderboardRow.objects.filter(club=club).exists() for club in clubs)
