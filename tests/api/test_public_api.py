"""Public results are opt-in per club, read-only, and show no private data."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorebook.matches import services
from tests.api.common import SMALL, api


def urls(club, match):
    base = f"/api/v1/public/clubs/{club.slug}"
    return [f"{base}/nights", f"{base}/matches/{match.pk}"]


def test_a_private_club_shows_nothing_to_anyone_outside(people, match, deal):
    assert people.club.public is False
    anonymous = api(people, "anonymous")
    assert anonymous.get("/api/v1/public/clubs").json()["results"] == []
    for url in urls(people.club, match):
        assert anonymous.get(url).status_code == 404, url
        # Not even to its own members: the private API is where they read.
        assert api(people, "member").get(url).status_code == 404, url


@pytest.fixture
def public(club):
    club.public = True
    club.save(update_fields=["public"])
    return club


def test_a_public_club_shows_its_results_to_anyone(public, match, deal):
    anonymous = api(public, "anonymous")
    clubs = anonymous.get("/api/v1/public/clubs").json()["results"]
    assert clubs == [{"name": "Circolo San Rocco", "slug": "san-rocco"}]

    nights = anonymous.get(f"/api/v1/public/clubs/{public.slug}/nights").json()["results"]
    assert len(nights) == 1
    (listed,) = nights[0]["matches"]
    assert listed["seats"] == {"N": "Nino", "E": "Ettore", "S": "Salvo", "W": "Walter"}
    assert listed["totals"] == {"A": 7, "B": 4}
    assert listed["table"] == "Tavolo 1"

    page = anonymous.get(f"/api/v1/public/clubs/{public.slug}/matches/{match.pk}").json()
    assert page["deals"] == [{"number": 1, "version": 1, "points": {"A": 7, "B": 4}}]


def test_public_results_leave_out_private_data(public, match, deal):
    anonymous = api(public, "anonymous")
    body = anonymous.get(f"/api/v1/public/clubs/{public.slug}/matches/{match.pk}").content
    for private in (b"entered_by", b"scorer", b"stake", b"client", b"reason", b"input"):
        assert private not in body, private


def test_public_results_are_read_only(public, match):
    anonymous = api(public, "anonymous")
    for url in urls(public, match):
        assert anonymous.post(url, {}, format="json").status_code == 405, url
    # The private API still refuses an anonymous write to a public club.
    created = anonymous.post(f"/api/v1/matches/{match.pk}/deals", {"deal": SMALL}, format="json")
    assert created.status_code in (401, 403)


def test_a_match_of_another_club_is_not_reachable_through_a_public_one(public, match, people):
    other = people.other
    other.public = True
    other.save(update_fields=["public"])
    url = f"/api/v1/public/clubs/{other.slug}/matches/{match.pk}"
    assert api(public, "anonymous").get(url).status_code == 404


def test_public_lists_take_constant_queries(public, match, people):
    anonymous = api(public, "anonymous")
    url = f"/api/v1/public/clubs/{public.slug}/nights"

    def count():
        with CaptureQueriesContext(connection) as queries:
            assert anonymous.get(url).status_code == 200
        return len(queries)

    count()  # the address's first request starts its throttle count (more queries)
    before = count()
    for day in (21, 22, 23):
        night = services.night_open(
            club_id=people.club.pk, date=f"2026-11-{day}", venue="", user=people.director
        )
        n, e, s, w = people.seated
        for _ in range(2):
            services.match_create(
                night=night,
                game="tressette4",
                rules=None,
                seats={"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk},
                user=people.scorer,
            )
    assert count() == before
