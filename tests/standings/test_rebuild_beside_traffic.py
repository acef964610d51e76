"""`rebuild_standings --jobs 1` beside live deal entry (the RUNBOOK's advice): once every
stale mark is handled, the tables equal a quiet rebuild's. The rebuild used to end by
deleting every mark of its clubs, also those of deals committed after it had read the
matches: those deals never reached the leaderboard or the ratings, with nothing pending.

The clients enter their deals from threads (each its own connection, each deal its own
committed transaction) while the rebuild holds its transaction open between reading the
deal log and clearing the marks: the moment the race needs, made certain by a hook rather
than left to timing."""

import threading

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import TestCase

from scorebook.matches import services as matches
from scorebook.standings import refresh
from scorebook.standings.models import StaleMark

from .conftest import A_WINS_DEAL, B_WINS_DEAL
from .test_incremental_equals_rebuild import _world, tables

CLIENTS = 4


def _a_client(user, match_id: int, deals, failures: list) -> None:
    """One phone: its deals one by one, each committed (and its refresh tried: the
    rebuild holds the club, so the refresh leaves the mark for later)."""
    try:
        for deal in deals:
            matches.deal_create(match=match_id, data=deal, expected_number=None, user=user)
    except Exception as error:  # noqa: BLE001 - reported by the test thread
        failures.append(error)
    finally:
        connection.close()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)  # the clients' threads commit on their own
def test_deals_entered_during_a_rebuild_reach_the_standings(eager, monkeypatch):
    club, user, players, nights = _world()
    seats = {s: players[i].pk for i, s in enumerate("NESW")}
    with TestCase.captureOnCommitCallbacks(execute=True):
        # some history for the rebuild to read, and one open match per client
        for deals in ([A_WINS_DEAL] * 3, [B_WINS_DEAL] * 3):
            match = matches.match_create(
                night=nights[0],
                game="tressette4",
                rules={"profile": "classic_21"},
                seats=seats,
                user=user,
            )
            for deal in deals:
                matches.deal_create(match=match, data=deal, expected_number=None, user=user)
        tables_ = [
            matches.match_create(
                night=nights[i % 2],
                game="tressette4",
                rules={"profile": "classic_21"},
                seats=seats,
                user=user,
            )
            for i in range(CLIENTS)
        ]
    assert not StaleMark.objects.filter(club=club).exists()

    read = refresh._rebuild_clubs
    failures: list = []
    entered = []

    def read_then_traffic(*args, **kwargs):
        read(*args, **kwargs)
        # The deal log is read and the new tables written, not yet committed: the
        # clients enter (and finish) their matches now, each deal committed.
        clients = [
            threading.Thread(
                target=_a_client,
                args=(user, match.pk, [A_WINS_DEAL if i % 2 else B_WINS_DEAL] * 3, failures),
            )
            for i, match in enumerate(tables_)
        ]
        for client in clients:
            client.start()
        for client in clients:
            client.join(60)
        entered.append(StaleMark.objects.filter(club=club).count())

    monkeypatch.setattr(refresh, "_rebuild_clubs", read_then_traffic)
    call_command("rebuild_standings", "--jobs", "1", "--quiet-progress")
    monkeypatch.setattr(refresh, "_rebuild_clubs", read)
    assert not failures, failures
    assert entered == [CLIENTS * 3], "every client's deals committed during the rebuild"

    # What the worker does next: handle every mark left (the sweeper's job if no task
    # ran), until nothing is pending.
    while StaleMark.objects.filter(club=club).exists():
        refresh.club_refresh(club.pk)
    beside_traffic = tables(club)
    refresh.rebuild(club_id=club.pk)  # quiet: nothing enters deals now
    quiet = tables(club)
    board, ratings, history, standings = quiet
    assert len(standings) == 2 + CLIENTS and len(ratings) == 4
    assert beside_traffic == quiet
