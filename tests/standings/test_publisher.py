"""The refresh publisher coalesces a burst (issue 12/14): fifty deals at one club within
its window cost one publish, not fifty, and the request that submits never waits."""

import time

from celery import Celery

from scorebook.standings import outbox, tasks


def test_a_burst_of_fifty_submits_is_one_publish(monkeypatch):
    sent = []
    # On the class: Celery's "current app" is per thread, so an app another test made
    # current in this thread is not the one the publisher's own thread sends with.
    monkeypatch.setattr(
        Celery,
        "send_task",
        lambda app, name, args, **kwargs: (
            sent.append(args) if name == tasks.refresh_standings.name else None
        ),
    )
    publisher = outbox.Publisher(window=0.2)
    started = time.perf_counter()
    for _ in range(50):
        publisher.submit(7)
    publisher.submit(8)
    assert time.perf_counter() - started < 0.1  # submitting does not wait for the broker
    for _ in range(100):
        if publisher.published >= 2:
            break
        time.sleep(0.02)
    assert sorted(sent) == [(7,), (8,)]  # one message per club for the whole burst
    publisher.submit(7)  # a later deal is published in its own window
    for _ in range(100):
        if len(sent) == 3:
            break
        time.sleep(0.02)
    assert sent[-1] == (7,)
