"""Two tournaments of one name on one night, at once (issue 23's concurrent duplicates,
met again by the tournaments that landed after it): the service checked the name, then
inserted, so two directors creating 'Torneo' together both passed the check and the
second INSERT's IntegrityError (tournament_name_per_night) was a 500; a rename raced the
same way. Now one is made and the others get tournament.name_taken (409), never a 500.
The race needs PostgreSQL and threads (each its own connection)."""

import threading

import pytest
from django.db import connection

from scorebook.core.refusals import Refusal
from scorebook.tournaments.models import Tournament
from scorebook.tournaments.services.setup import tournament_update
from tests.api.common import api
from tests.tournaments.helpers import GAME, RULES, open_night, tournament

THREADS = 6


def _race(jobs):
    """Each of ``jobs`` in its own thread, released together; what each returned."""
    barrier = threading.Barrier(len(jobs))
    results: list = []
    errors: list[BaseException] = []

    def run(job):
        try:
            barrier.wait()
            results.append(job())
        except BaseException as exc:  # noqa: BLE001 - reported by the test below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors
    return sorted(results)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_one_name_created_at_once_through_the_api_is_one_tournament(people):
    night = open_night(people)
    for name in ("Torneo", "Torneo+", "Torneo++"):  # a race lost once in three is caught
        body = {"night": night.pk, "name": name, "game": GAME, "rules": RULES, "rounds": 3}

        def post(body=body):
            response = api(people, "director").post("/api/v1/tournaments", body, format="json")
            if response.status_code == 409:
                assert response.json()["errors"][0]["code"] == "tournament.name_taken"
            return response.status_code

        statuses = _race([post] * THREADS)
        assert statuses.count(201) == 1, statuses
        assert set(statuses) == {201, 409}, statuses
        assert Tournament.objects.filter(night=night, name=name).count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_tournaments_renamed_to_one_name_at_once(people):
    night = open_night(people)
    for round_ in range(3):
        first = tournament(people, night, name=f"A{round_}")
        second = tournament(people, night, name=f"B{round_}")
        wanted = f"Finale {round_}"

        def rename(t, wanted=wanted):
            def job():
                try:
                    tournament_update(tournament=t, changes={"name": wanted}, user=people.director)
                except Refusal as refusal:
                    return refusal.code
                return "renamed"

            return job

        assert _race([rename(first), rename(second)]) == ["renamed", "tournament.name_taken"]
        assert Tournament.objects.filter(night=night, name=wanted).count() == 1
