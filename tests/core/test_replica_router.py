"""The read replica's routing (scorebook.core.replica) in one process: which requests may
read the replica, the cookie that keeps a writer on the primary, the fallback when the
replica lags or is down. A real streaming replica: tests/deploy/test_replica_live.py."""

import pytest
from django.http import HttpResponse
from django.test import RequestFactory

from scorebook.core import replica
from scorebook.core.replica import ReplicaReadsMiddleware, ReplicaRouter, ReplicaState


@pytest.fixture
def with_replica(monkeypatch):
    """A replica configured, in the state the test sets (``ok`` to begin with)."""
    monkeypatch.setattr(replica, "configured", lambda: True)
    current = {"state": ReplicaState("ok", 0.0)}
    monkeypatch.setattr(replica, "state", lambda fresh=False: current["state"])
    return current


def routed(request, status=200):
    """The alias the router gives a read inside the view, and the response."""
    seen = {}

    def view(_request):
        seen["alias"] = ReplicaRouter().db_for_read(None)
        return HttpResponse(status=status)

    response = ReplicaReadsMiddleware(view)(request)
    return seen["alias"], response


@pytest.mark.parametrize(
    "path",
    [
        "/public/circolo/",
        "/public/circolo/tv",
        "/public/circolo/nights.ics",
        "/cal/tok/club.ics",
        "/api/v1/public/clubs",
        "/public/f/fitres/",
    ],
)
def test_public_reads_go_to_the_replica(with_replica, path):
    assert routed(RequestFactory().get(path))[0] == "replica"


@pytest.mark.parametrize("path", ["/c/circolo/", "/api/v1/clubs", "/me/", "/publicity/"])
def test_members_reads_stay_on_the_primary(with_replica, path):
    assert routed(RequestFactory().get(path))[0] is None


def test_a_browser_that_has_just_written_reads_the_primary(with_replica, settings):
    settings.REPLICA_STICKY_SECONDS = 15
    _, response = routed(RequestFactory().post("/c/circolo/nights/1/close"), status=302)
    cookie = response.cookies[replica.STICKY_COOKIE]
    assert cookie["max-age"] == 15 and cookie["httponly"]
    factory = RequestFactory()
    factory.cookies[replica.STICKY_COOKIE] = "1"
    assert routed(factory.get("/public/circolo/tv"))[0] is None


def test_a_refused_write_does_not_pin_the_browser(with_replica):
    _, response = routed(RequestFactory().post("/c/circolo/nights"), status=400)
    assert replica.STICKY_COOKIE not in response.cookies


@pytest.mark.parametrize("status", ["lagging", "unreachable"])
def test_a_replica_behind_or_down_leaves_the_reads_to_the_primary(with_replica, status):
    with_replica["state"] = ReplicaState(status, 30.0 if status == "lagging" else None)
    assert routed(RequestFactory().get("/public/circolo/"))[0] is None


def test_without_a_replica_nothing_changes():
    alias, response = routed(RequestFactory().post("/c/circolo/nights"))
    assert alias is None and replica.STICKY_COOKIE not in response.cookies


def test_the_router_never_writes_or_migrates_on_the_replica():
    router = ReplicaRouter()
    assert router.db_for_write(None) is None
    assert router.allow_migrate("replica", "matches") is False
    assert router.allow_migrate("default", "matches") is True


def test_the_reads_after_the_request_go_back_to_the_primary(with_replica):
    routed(RequestFactory().get("/public/circolo/"))
    assert ReplicaRouter().db_for_read(None) is None
