"""Two worker queues (issue 35 item 4): what a deal entry sets going on the entry queue,
the whole club's rebuild, the import's check and run and the expiry on the bulk queue, and
the sweeper sending each stale mark to its own queue. A real worker per queue:
tests/standings/test_worker.py."""

import pytest
from django.conf import settings
from django.db import transaction

from scorebook.celery import app
from scorebook.standings import outbox, refresh, tasks
from scorebook.standings.models import Freshness, LeaderboardRow, StaleMark

from .conftest import A_WINS_DEAL, play_pairs


@pytest.fixture(autouse=True)
def every_task():
    """Every module's tasks registered, as a worker finds them at start (autodiscovery)."""
    app.loader.import_default_modules()


def queue_of(task_name: str) -> str:
    """The queue Celery's router sends the task to, as a worker started with -Q sees it."""
    return app.amqp.router.route({}, task_name)["queue"].name


@pytest.mark.parametrize(
    ("task", "queue"),
    [
        ("scorebook.standings.tasks.refresh_standings", "entry"),
        ("scorebook.core.tasks.heartbeat", "entry"),
        ("scorebook.standings.tasks.sweep_stale_standings", "entry"),
        ("scorebook.standings.tasks.rebuild_standings", "bulk"),
        ("scorebook.history.tasks.check_file", "bulk"),
        ("scorebook.history.tasks.run_import", "bulk"),
        ("scorebook.history.tasks.expire_previews", "bulk"),
    ],
)
def test_each_task_goes_to_its_queue(task, queue):
    assert task in app.tasks
    assert queue_of(task) == queue


def test_every_task_of_the_project_is_on_one_of_the_two_queues():
    """A task added tomorrow lands on a queue a worker consumes (the default is entry)."""
    queues = {settings.CELERY_QUEUE_ENTRY, settings.CELERY_QUEUE_BULK}
    ours = [name for name in app.tasks if name.startswith("scorebook.")]
    assert len(ours) >= 7
    assert {queue_of(name) for name in ours} <= queues


def test_a_worker_without_queues_named_consumes_both():
    assert {q.name for q in app.conf.task_queues} == {"entry", "bulk"}


class Sent:
    """The publisher's submissions (a broker as in production, nothing sent)."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, str]] = []

    def submit(self, club_id: int, task: str = tasks.refresh_standings.name) -> None:
        self.calls.append((club_id, task))


@pytest.fixture
def sent(settings, monkeypatch):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    publisher = Sent()
    monkeypatch.setattr(outbox, "PUBLISHER", publisher)
    return publisher


@pytest.mark.django_db(transaction=True)
def test_a_deal_sends_a_refresh_and_a_mark_naming_nothing_a_rebuild(people, night, sent):
    club = people.club.pk
    play_pairs(people, night, [A_WINS_DEAL])
    assert set(sent.calls) == {(club, tasks.refresh_standings.name)}
    sent.calls.clear()
    with transaction.atomic():
        outbox.stale_mark(club_id=club)
    assert sent.calls == [(club, tasks.rebuild_standings.name)]


@pytest.mark.django_db
def test_the_entry_refresh_leaves_the_rebuild_to_the_bulk_queue(people, season, night, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False  # nothing runs on commit: the tasks by hand
    match = play_pairs(people, night, [A_WINS_DEAL] * 3)
    outbox.stale_mark(club_id=people.club.pk)
    assert refresh.club_refresh(people.club.pk) >= 1
    # The match is counted; the whole-club mark waits for the bulk queue.
    assert LeaderboardRow.objects.filter(club=people.club, game="").exists()
    assert list(StaleMark.objects.values_list("match_id", "night_id", "season_id")) == [
        (None, None, None)
    ]
    assert refresh.club_refresh(people.club.pk) == 0
    assert refresh.stale_clubs() == []
    assert refresh.stale_clubs(bulk=True) == [people.club.pk]
    rebuilds = Freshness.objects.get(club=people.club).rebuilds
    assert tasks.rebuild_standings.apply((people.club.pk,)).get() == 1
    assert not StaleMark.objects.exists()
    assert Freshness.objects.get(club=people.club).rebuilds == rebuilds + 1
    assert tasks.rebuild_standings.apply((people.club.pk,)).get() == 0  # a second delivery
    assert match.result["winners"]


@pytest.mark.django_db
def test_the_sweeper_sends_each_stale_club_to_its_queue(people, night, settings, monkeypatch):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.STANDINGS_SWEEP_AFTER = 0
    play_pairs(people, night, [A_WINS_DEAL])  # a match's mark: entry
    other = people.other.pk
    outbox.stale_mark(club_id=other)  # a whole club's mark: bulk
    delayed: list[tuple[str, int]] = []
    for task in (tasks.refresh_standings, tasks.rebuild_standings):
        monkeypatch.setattr(
            task, "delay", lambda club_id, t=task: delayed.append((t.name, club_id))
        )
    assert tasks.sweep_stale_standings() == sorted({people.club.pk, other})
    assert sorted(delayed) == sorted(
        [
            (tasks.refresh_standings.name, people.club.pk),
            (tasks.rebuild_standings.name, other),
        ]
    )
