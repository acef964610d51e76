"""Freshness without waiting on the broker: deal entry commits its outbox row and answers
whatever the broker does; a refresh coalesces a burst of marks."""

import socket
import threading

import pytest

from scorebook.standings import outbox, refresh
from scorebook.standings.models import Freshness, StaleMark
from tests.api.common import SIDES, api


@pytest.fixture
def blackhole():
    """A 'broker' that accepts connections and never answers (a hung Redis)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    yield f"redis://127.0.0.1:{server.getsockname()[1]}/0"
    server.close()


@pytest.fixture
def closed_port():
    """A broker address nothing listens on (Redis stopped)."""
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    return f"redis://127.0.0.1:{port}/0"


@pytest.fixture
def not_eager():
    """The Celery app publishes instead of running tasks in-process."""
    from scorebook.celery import app

    was = app.conf.task_always_eager
    app.conf.task_always_eager = False
    yield
    app.conf.task_always_eager = was


def _enter_deal(people, match):
    answers = []

    def post():
        answers.append(
            api(people, "scorer").post(
                f"/api/v1/matches/{match.pk}/deals", {"deal": SIDES}, format="json"
            )
        )

    caller = threading.Thread(target=post)
    caller.start()
    caller.join(timeout=30)  # bounded: a request stuck on the broker fails the test
    return caller, answers


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("broker", ["blackhole", "closed_port"])
def test_deal_entry_answers_whatever_the_broker_does(
    people, match, settings, monkeypatch, broker, request, not_eager
):
    settings.CELERY_TASK_ALWAYS_EAGER = False  # as in production: publish to a broker
    publisher = outbox.Publisher(broker_url=request.getfixturevalue(broker))
    monkeypatch.setattr(outbox, "PUBLISHER", publisher)
    caller, answers = _enter_deal(people, match)
    assert not caller.is_alive(), "deal entry waited on the broker"
    assert answers[0].status_code == 201, answers[0].content
    # The outbox row committed with the deal and stays for the sweeper.
    assert StaleMark.objects.filter(club=people.club).count() == 1
    assert refresh.stale_clubs() == [people.club.pk]
    assert publisher.published == 0 or broker == "closed_port"
    if broker == "closed_port":
        # The publisher gave up at once (connection refused) and logged it; when the
        # broker is back the sweeper's refresh clears the mark.
        assert refresh.club_refresh(people.club.pk) == 1
        assert not StaleMark.objects.exists()


def test_a_burst_of_marks_is_one_rebuild(
    people, match, settings, django_capture_on_commit_callbacks
):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    from scorebook.matches import services as matches
    from scorebook.standings.models import Season

    Season.objects.create(club=people.club, name="S", starts_on=match.night.date)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        for _ in range(2):
            matches.deal_create(match=match, data=SIDES, expected_number=None, user=people.scorer)
    assert len(callbacks) == 2  # one schedule per write...
    assert Freshness.objects.get(club=people.club).rebuilds == 1  # ...one rebuild for both
    assert refresh.club_refresh(people.club.pk) == 0  # idempotent: nothing left to do
