"""The same thing created twice at once (issue 23): 4-6 of 30 concurrent duplicate
``POST /tables``, ``/seasons`` and ``/leagues`` answered 500, as did 4 of 6 sign-ups on
``/join/<token>`` with one new username: the unique constraint's IntegrityError escaped.
Now one is created and every other gets the service's refusal in words (409), never a 500.
The race needs PostgreSQL and threads (each its own connection); the same duplicates
typed one after the other are tested on any database."""

import datetime
import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from scorebook.clubs import services as clubs
from scorebook.matches import services
from scorebook.matches.models import Table
from scorebook.standings.models import League, Season
from tests.api.common import api

THREADS = 6


def _night(people):
    return services.night_open(
        club_id=people.club.pk, date=datetime.date(2026, 11, 20), venue="", user=people.director
    )


def _race(job, count=THREADS):
    """``job()`` in ``count`` threads released together; their answers' status codes."""
    barrier = threading.Barrier(count)
    statuses: list[int] = []
    errors: list[BaseException] = []

    def run():
        try:
            barrier.wait()
            statuses.append(job())
        except BaseException as exc:  # noqa: BLE001 - reported by the test below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors
    return sorted(statuses)


def _creates(people):
    night = _night(people)
    club = people.club.pk
    return {
        "tables": ({"night": night.pk, "number": 3, "name": ""}, lambda: Table.objects.count()),
        "seasons": (
            {"club": club, "name": "2026-27", "starts_on": "2026-09-01"},
            lambda: Season.objects.count(),
        ),
        "leagues": ({"club": club, "name": "Coppa", "game": "tressette4"}, League.objects.count),
    }


def _one_made_the_rest_refused(statuses):
    assert statuses.count(201) == 1, statuses
    assert all(s == 409 for s in statuses if s != 201), statuses


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("what", ["tables", "seasons", "leagues"])
def test_concurrent_duplicate_creates_through_the_api(people, what):
    body, count = _creates(people)[what]
    before = count()

    def post():
        return api(people, "director").post(f"/api/v1/{what}", body, format="json").status_code

    for _ in range(3):  # a race lost once in three is still caught
        _one_made_the_rest_refused(_race(post))
        assert count() == before + 1
        body = {**body, **({"number": body["number"] + 1} if what == "tables" else {})}
        if what != "tables":
            body = {**body, "name": body["name"] + "+"}
        before = count()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_sign_ups_with_one_new_username(people):
    invitation = clubs.invitation_create(
        club=people.club, role="member", user=people.director, max_uses=10
    )
    form = {
        "signup": "1",
        "username": "nuovo",
        "password1": "Tre7sette!",
        "password2": "Tre7sette!",
    }

    def join():
        response = Client().post(f"/join/{invitation.token}", form)
        return 201 if response.status_code == 302 else response.status_code

    _one_made_the_rest_refused(_race(join))
    assert get_user_model().objects.filter(username="nuovo").count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_directors_add_the_same_table_number_on_the_page_at_once(people):
    night = _night(people)

    def add():
        client = Client()
        client.force_login(people.director)
        response = client.post(f"/n/{night.pk}/tables/new", {"number": "4", "name": ""})
        return 201 if response.status_code == 302 else response.status_code

    _one_made_the_rest_refused(_race(add))
    assert Table.objects.filter(night=night, number=4).count() == 1


def test_a_table_number_or_a_league_name_typed_twice_on_the_pages_is_said_in_words(people):
    night = _night(people)
    client = Client()
    client.force_login(people.director)
    url = f"/n/{night.pk}/tables/new"
    assert client.post(url, {"number": "5", "name": ""}).status_code == 302
    again = client.post(url, {"number": "5", "name": ""})
    assert again.status_code == 409
    assert "already has a table 5" in again.content.decode()
    assert Table.objects.filter(night=night).count() == 1
    leagues = f"/c/{people.club.slug}/leagues/"
    form = {
        "name": "Coppa", "kind": "pairs", "game": "tressette4", "format": "round_robin",
        "seeding": "order", "legs": "1", "series": "matches", "series_games": "1",
        "points_win": "2", "points_draw": "1", "points_loss": "0", "points_per_game": "1",
        "withdrawals": "void",
    }  # fmt: skip
    assert client.post(leagues, form).status_code == 302
    again = client.post(leagues, form)
    assert again.status_code == 409, again.content.decode()[:2000]
    assert "already has a league called Coppa" in again.content.decode()
    assert League.objects.filter(name="Coppa").count() == 1
