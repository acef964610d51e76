"""One description per answer shape (issue 25 step 5): the answers the views build by hand
(a league's table and fixtures, a forfeit, a confirmation) have exactly the keys their
serializer puts in the schema, at every depth."""

import datetime

from scorebook.rules import games
from scorebook.standings.models import Fixture, Season
from tests.api.common import api
from tests.api.shapes import answer_schema, component, live_schema, mismatches, validate_as
from tests.api.test_leagues_api import started  # noqa: F401  (the fixture)
from tests.standings.league_helpers import night, pair_match


def test_a_league_table_fixtures_and_a_forfeit_are_as_described(club, people, started):  # noqa: F811
    league, (nino, ettore, salvo, walter, zina, rosa) = started
    pairs = ["Nino-Ettore", "Salvo-Walter"]
    played = Fixture.objects.get(league_id=league, home__name__in=pairs, away__name__in=pairs)
    forfeited = Fixture.objects.filter(league_id=league).exclude(pk=played.pk).first()
    assert forfeited is not None
    match = pair_match(people, night(people), (nino, ettore), (salvo, walter), "NS")
    scorer, director, member = (api(people, who) for who in ("scorer", "director", "member"))
    linked = scorer.post(f"/api/v1/fixtures/{played.pk}/matches", {"match": match.pk})
    body = {"entry": forfeited.home_id, "reason": "did not come"}
    forfeit = director.post(f"/api/v1/fixtures/{forfeited.pk}/forfeit", body)
    assert (linked.status_code, forfeit.status_code) == (201, 201), forfeit.content
    schema = live_schema()

    assert mismatches(schema, component(schema, "FixtureScore"), linked.json()) == []
    assert forfeit.json()["forfeit"] is not None
    assert mismatches(schema, component(schema, "FixtureScore"), forfeit.json()) == []
    table = member.get(f"/api/v1/leagues/{league}/standings").json()
    assert mismatches(schema, component(schema, "Standings"), table) == []
    fixtures = member.get("/api/v1/fixtures", {"league": league}).json()["results"]
    assert len(fixtures) == 3
    for fixture in fixtures:
        assert mismatches(schema, component(schema, "FixtureScore"), fixture) == []


def test_the_check_sees_a_key_too_many_or_missing():
    schema = live_schema()
    shape = component(schema, "BracketSlot")
    slot = {"round": 1, "slot": 1, "home": 1, "away": None, "fixture": 3, "bye": False,
            "decided": False, "winner": None}  # fmt: skip
    assert mismatches(schema, shape, slot) == []
    assert mismatches(schema, shape, {**slot, "extra": 1}) != []
    assert mismatches(schema, shape, {k: v for k, v in slot.items() if k != "bye"}) != []


def test_a_confirmation_is_as_described(people, deal):
    confirmed = api(people, "scorer").post(
        f"/api/v1/deals/{deal.pk}/confirm", {"seat": "E", "method": "table_phone"}, format="json"
    )
    assert confirmed.status_code == 201, confirmed.content
    schema = live_schema()
    assert mismatches(schema, component(schema, "Confirmation"), confirmed.json()) == []
    assert confirmed.json()["deal"] == deal.pk and confirmed.json()["seat"] == "E"


def test_a_leagues_entries_are_the_list_described(club, people, started):  # noqa: F811
    # The schema said a page ({count, results}); the answer is the list of every entry.
    league, _six = started
    entries = api(people, "member").get(f"/api/v1/leagues/{league}/entries")
    assert entries.status_code == 200
    assert [e["name"] for e in entries.json()] == ["Nino-Ettore", "Salvo-Walter", "Zina-Rosa"]
    schema = live_schema()
    validate_as(
        schema, answer_schema(schema, "/api/v1/leagues/{id}/entries", "get", "200"), entries.json()
    )


def test_every_standings_page_says_how_fresh_it_is_as_described(people):
    # The pages of the standings tables carry updated_at and pending beside the page's
    # keys; the schema did not say so, and a generated client kept them as unknown keys.
    club = people.club
    club.public = True
    club.save()
    season = Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 1, 1))
    game = next(iter(games()))
    member, anonymous = api(people, "member"), api(people, "anonymous")
    slug = club.slug
    reads = [
        (member, "/api/v1/leaderboard", {"season": season.pk}),
        (member, "/api/v1/ratings", {"club": club.pk, "game": game}),
        (member, "/api/v1/rating-history", {"club": club.pk, "game": game}),
        (anonymous, "/api/v1/public/clubs/{slug}/seasons", {}),
        (anonymous, "/api/v1/public/clubs/{slug}/leaderboard", {"season": season.pk}),
        (anonymous, "/api/v1/public/clubs/{slug}/ratings", {"game": game}),
    ]
    schema = live_schema()
    for client, path, query in reads:
        answer = client.get(path.format(slug=slug), query)
        assert answer.status_code == 200, (path, answer.content)
        assert {"updated_at", "pending"} <= set(answer.json()), path
        shape = answer_schema(schema, path, "get", "200")
        assert mismatches(schema, shape, answer.json()) == [], path
        validate_as(schema, shape, answer.json())
